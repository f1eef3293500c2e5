// What the /v1 key check costs: GET /v1/templates with a key against the public GET /templates
// through the same pipeline, also sending the same header, in interleaved rounds: what is left is
// the key check.
import { json } from '../support.js';
import { CONNECTIONS, interleave, medianOf, medianRatio, roundRatios } from '../load.js';
import type { Workload } from '../workload.js';

export const v1KeyCheck: Workload = {
  name: 'v1-key-check',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const owner = await bench.owner();
    const { apiKey } = await json<{ apiKey: { key: string } }>(
      await fetch(`${service.url}/api-keys`, { method: 'POST', headers: owner.auth }),
    );
    const keyHeader = { 'x-api-key': apiKey.key };
    const at = (path: string, headers?: Record<string, string>) => ({
      options: { url: `${service.url}${path}`, connections: CONNECTIONS, ...(headers ? { headers } : {}) },
      pid: service.pid,
    });
    const [publicListing, keyed, publicWithHeader] = await interleave([
      at('/templates'),
      at('/v1/templates', keyHeader),
      at('/templates', keyHeader),
    ]);
    const ratio = medianRatio(keyed, publicListing);
    bench.record({
      name: 'v1-key-check',
      workload: 'GET /v1/templates with a key vs GET /templates (the public route), same rounds',
      figures: {
        'req/s': medianOf(keyed, 'reqPerSec'),
        'p99 ms': medianOf(keyed, 'p99Ms'),
        'GET /templates req/s': medianOf(publicListing, 'reqPerSec'),
        ratio,
        'ratio vs GET /templates sending the same header': medianRatio(keyed, publicWithHeader),
        'server CPU µs/request': medianOf(keyed, 'cpuMicrosPerRequest'),
        'GET /templates server CPU µs/request': medianOf(publicListing, 'cpuMicrosPerRequest'),
      },
      target: 'ratio >= 0.85',
      met: ratio >= 0.85,
    });
    console.log(`  ratio per round: ${roundRatios(keyed, publicListing)}`);
    console.log(`  ratio per round vs the same header on GET /templates: ${roundRatios(keyed, publicWithHeader)}`);
  },
};
