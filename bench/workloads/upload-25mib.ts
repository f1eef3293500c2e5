// A 25 MiB upload: its time and the server's peak resident-memory growth. The upload streams to
// disk; libvips reads it back for its metadata from the file itself.
import { uploadPadded } from '../clients.js';
import { rssBytes } from '../support.js';
import type { Workload } from '../workload.js';

export const upload25Mib: Workload = {
  name: 'upload-25mib',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const owner = await bench.owner();
    const before = rssBytes(service.pid);
    let peak = before;
    const sample = () => (peak = Math.max(peak, rssBytes(service.pid)));
    const sampler = setInterval(sample, 5);
    const big = await uploadPadded(service.url, owner.token, 25 * 1024 * 1024, sample);
    clearInterval(sampler);
    const growth = (peak - before) / (1024 * 1024);
    bench.record({
      name: 'upload-25mib',
      workload: '25 MiB upload',
      figures: { seconds: big.seconds, 'RSS growth MiB': growth, status: big.status },
      target: 'growth < 32 MiB',
      met: growth < 32 && big.status === 201,
    });
  },
};
