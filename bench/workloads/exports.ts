// Exports as jobs: print PDFs over several connections, rendered by two workers on Redis
// (bench/exports.ts). The workers share a server database: PostgreSQL only.
import { benchExports, EXPORT_CONNECTIONS, EXPORTS_TOTAL, HEALTH_P99_TARGET_MS, POST_P99_TARGET_MS } from '../exports.js';
import type { Workload } from '../workload.js';

export const exportJobs: Workload = {
  name: 'exports',
  async run(bench) {
    if (!process.env.DATABASE_URL) {
      console.log('[exports] skipped: the workers need a server database (set DATABASE_URL).');
      return;
    }
    const figures = await benchExports(process.env.DATABASE_URL);
    bench.record({
      name: 'exports',
      workload: `${EXPORTS_TOTAL} print-PDF exports over ${EXPORT_CONNECTIONS} connections, two workers`,
      figures,
      target: `POST p99 < ${POST_P99_TARGET_MS} ms, /health p99 < ${HEALTH_P99_TARGET_MS} ms while rendering`,
      met:
        figures['POST p99 ms']! < POST_P99_TARGET_MS &&
        figures['/health p99 ms while rendering']! < HEALTH_P99_TARGET_MS &&
        figures.failed === 0,
    });
  },
};
