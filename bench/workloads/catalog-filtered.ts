// GET /templates with a category and a search: the catalog filtered on every request.
import { CONNECTIONS, load } from '../load.js';
import type { Workload } from '../workload.js';

export const catalogFiltered: Workload = {
  name: 'catalog-filtered',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const filtered = await load({ url: `${service.url}/templates?category=product-boxes&q=box`, connections: CONNECTIONS });
    bench.record({
      name: 'catalog-filtered',
      workload: 'GET /templates?category=…&q=…',
      figures: { 'req/s': filtered.requests.average, 'p99 ms': filtered.latency.p99 },
    });
  },
};
