// Serving a 200 KB image: GET /files/:name.
import { uploadPadded } from '../clients.js';
import { CONNECTIONS, load } from '../load.js';
import type { Workload } from '../workload.js';

export const serveFile: Workload = {
  name: 'serve-file',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const owner = await bench.owner();
    const small = await uploadPadded(service.url, owner.token, 200 * 1024);
    const asset = (JSON.parse(small.body) as { asset: { name: string } }).asset;
    const files = await load({ url: `${service.url}/files/${asset.name}`, connections: CONNECTIONS });
    bench.record({
      name: 'serve-file',
      workload: 'GET /files/:name (200 KB image)',
      figures: { 'req/s': files.requests.average, 'p99 ms': files.latency.p99, 'MB/s': files.throughput.average / 1e6 },
    });
  },
};
