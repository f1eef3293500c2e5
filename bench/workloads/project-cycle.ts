// create → update → delete a project, one free-plan account per connection, against the bare
// node:http + pg reference.
import { againstDatabaseReference, recordAgainstReference } from '../database-reference.js';
import { cycleOptions, deleteLeftovers, registerAccounts } from '../project-traffic.js';
import type { Workload } from '../workload.js';

export const projectCycle: Workload = {
  name: 'project-cycle',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const accounts = await registerAccounts(service.url, 1);
    const compared = await againstDatabaseReference(bench, (target) => ({
      options: cycleOptions(target.url, accounts),
      pid: target.pid,
      prepare: () => deleteLeftovers(service.url, accounts),
    }));
    recordAgainstReference(bench, 'project-cycle', 'create → update → delete a project, 50 accounts', 'cycles/s', 3, compared);
  },
};
