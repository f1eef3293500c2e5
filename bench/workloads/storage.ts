// Object storage next to local disk: the same uploads (5 MiB, median of 3) and GET /files reads
// (200 KB, 20 connections) against two services, one on a local directory, one on an S3 bucket of
// the local Ceph radosgw (scripts/start-s3.sh; S3_TEST_ENDPOINT to use another gateway).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { register, uploadPadded } from '../clients.js';
import { DURATION, load } from '../load.js';
import { createBucket } from '../s3-bucket.js';
import { median, startService } from '../support.js';
import type { Workload } from '../workload.js';

const MiB = 1024 * 1024;

export const storage: Workload = {
  name: 'storage',
  async run(bench) {
    // The SDK's notice that Node 20 loses support in 2027, printed by this process's own client too.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const databaseUrl = bench.database?.url;
    const bucket = await createBucket();
    const dataDir = (label: string) => mkdtempSync(path.join(tmpdir(), `pf-bench-${label}-`));
    const services = {
      'local disk': await startService({ databaseUrl, dataDir: dataDir('disk') }),
      S3: await startService({
        databaseUrl,
        dataDir: dataDir('s3'),
        env: { ...bucket.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      }),
    };
    try {
      for (const [label, service] of Object.entries(services)) {
        const owner = await register(service.url, 10);
        const seconds: number[] = [];
        for (let i = 0; i < 3; i++) {
          const result = await uploadPadded(service.url, owner.token, 5 * MiB);
          if (result.status !== 201) throw new Error(`${label} upload answered ${result.status}: ${result.body}`);
          seconds.push(result.seconds);
        }
        const small = await uploadPadded(service.url, owner.token, 200 * 1024);
        const asset = (JSON.parse(small.body) as { asset: { name: string } }).asset;
        const files = await load({ url: `${service.url}/files/${asset.name}`, connections: 20 }, { duration: Math.min(DURATION, 5) });
        bench.record({
          name: 'storage',
          workload: `storage: ${label}`,
          figures: {
            '5 MiB upload s': median(seconds),
            'upload MB/s': (5 * MiB) / median(seconds) / 1e6,
            'GET /files req/s': files.requests.average,
            'GET /files p99 ms': files.latency.p99,
            'GET /files MB/s': files.throughput.average / 1e6,
          },
        });
      }
    } finally {
      await Promise.all(Object.values(services).map((service) => service.stop()));
      await bucket.remove();
    }
  },
};
