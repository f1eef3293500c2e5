// GET /projects (three projects) with a JWT, against the bare node:http + pg reference.
import { againstDatabaseReference, recordAgainstReference } from '../database-reference.js';
import { CONNECTIONS } from '../load.js';
import { json } from '../support.js';
import type { Workload } from '../workload.js';

export const projectList: Workload = {
  name: 'project-list',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const owner = await bench.owner();
    for (let i = 0; i < 3; i++) {
      await json(
        await fetch(`${service.url}/projects`, {
          method: 'POST',
          headers: { ...owner.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Bench ${i}`, templateId: 'mailer-box' }),
        }),
      );
    }
    const compared = await againstDatabaseReference(bench, (target) => ({
      options: { url: `${target.url}/projects`, connections: CONNECTIONS, headers: owner.auth },
      pid: target.pid,
    }));
    recordAgainstReference(bench, 'project-list', 'GET /projects (3 projects) with a JWT', 'req/s', 1, compared);
  },
};
