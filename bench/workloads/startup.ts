// Start-up to the first 200 on /health, the database already migrated: the embedded engine's first
// boot (which creates the database) and its next, and on PostgreSQL a start on the bench's database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService, type ServiceOptions } from '../support.js';
import type { Workload } from '../workload.js';

const STARTUP_TARGET_MS = 1500;

async function measureStartup(options: ServiceOptions): Promise<number> {
  const service = await startService(options);
  await service.stop();
  return service.startupMs;
}

export const startup: Workload = {
  name: 'startup',
  async run(bench) {
    const embeddedDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-start-'));
    const embeddedCold = await measureStartup({ dataDir: embeddedDir });
    const embeddedWarm = await measureStartup({ dataDir: embeddedDir });
    const figures: Record<string, number> = { 'embedded ms': embeddedWarm, 'embedded first boot ms': embeddedCold };
    if (bench.database) figures['postgres ms'] = await measureStartup({ databaseUrl: bench.database.url });
    bench.record({
      name: 'startup',
      workload: 'start-up to first 200 on /health',
      figures,
      target: `< ${STARTUP_TARGET_MS} ms`,
      met: Object.entries(figures)
        .filter(([key]) => !key.includes('first boot'))
        .every(([, ms]) => ms < STARTUP_TARGET_MS),
    });
  },
};
