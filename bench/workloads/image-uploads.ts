// Large real images: each one's upload time (stream, read back, thumbnail), the thumbnail's own
// time (the server's analysis function run here on the same bytes) and the server's peak RSS
// growth; then GET /health latency while such uploads run, two at a time.
import path from 'node:path';
import { healthProbe, largeImages, uploadImage, uploadLane } from '../clients.js';
import { DURATION } from '../load.js';
import { round } from '../rows.js';
import { ROOT, rssBytes } from '../support.js';
import type { Workload } from '../workload.js';

export const imageUploads: Workload = {
  name: 'image-uploads',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const owner = await bench.owner();
    const images = await largeImages();
    type ImageAnalysis = typeof import('../../src/lib/image-analysis.js');
    const { analyseImage } = (await import(path.join(ROOT, 'dist/lib/image-analysis.js'))) as ImageAnalysis;
    for (const image of images) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const before = rssBytes(service.pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(service.pid))), 5);
      const sent = await uploadImage(service.url, owner.auth, image.data, image.type, image.filename);
      clearInterval(sampler);
      const started = performance.now();
      await analyseImage(image.data, image.type);
      const thumbnailSeconds = (performance.now() - started) / 1000;
      const growth = (peak - before) / (1024 * 1024);
      bench.record({
        name: 'image-upload',
        workload: `upload a ${image.label} (${round(image.data.length / 1e6)} MB)`,
        figures: { 'upload s': sent.seconds, 'thumbnail s': thumbnailSeconds, 'RSS growth MiB': growth, status: sent.status },
        target: 'growth < 150 MiB',
        met: growth < 150 && sent.status === 201,
      });
    }
    // The uploads come from child processes: building 25 MB bodies here would delay the /health
    // client itself. The probes are child processes too (bench/health-probe.ts). The idle figure,
    // taken just before, shows the host's own noise; bare node:http's /health, probed in the same
    // windows beside the service, is the floor this host allows whatever the service does.
    const bareNode = await bench.reference('node');
    const probeBoth = () => Promise.all([healthProbe(service.url, DURATION), healthProbe(bareNode.url, DURATION)]);
    const [idle, bareIdle] = await probeBoth();
    const lanes = [0, 1].map((lane) => uploadLane(service.url, owner.token, images[lane % images.length]!));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const [health, bare] = await probeBoth();
    const done = (await Promise.all(lanes.map((lane) => lane.stop()))).reduce((sum, count) => sum + count, 0);
    bench.record({
      name: 'health-during-uploads',
      workload: 'GET /health p99 while large images upload, two at a time',
      figures: {
        'p99 ms': health.p99,
        'p50 ms': health.p50,
        'max ms': health.max,
        probes: health.probes,
        'idle p99 ms': idle.p99,
        'bare node:http p99 ms': bare.p99,
        'bare idle p99 ms': bareIdle.p99,
        'uploads done': done,
      },
      target: 'p99 < 20 ms',
      met: health.p99 < 20,
    });
  },
};
