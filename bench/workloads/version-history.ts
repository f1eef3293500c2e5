// What the version history costs: the create → update → delete cycle and a PUT that changes the
// project every time, run in turn, round after round, against this build and against a build of
// the commit before the version history (bench/baseline.ts), each on its own fresh database.
// Ratios are "after / before" per round, then the median.
import { buildBaseline } from '../baseline.js';
import { interleave, medianOf, medianRatio, roundRatios } from '../load.js';
import { autosaveOptions, cycleOptions, deleteLeftovers, registerAccounts } from '../project-traffic.js';
import { createDatabase, settle, startService, type RunningService } from '../support.js';
import type { Workload } from '../workload.js';

async function setUp(target: RunningService, offset: number) {
  const accounts = await registerAccounts(target.url, offset);
  return { accounts, autosave: await autosaveOptions(target.url, accounts) };
}

export const versionHistory: Workload = {
  name: 'version-history',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const baseline = buildBaseline();
    const baselineDatabase = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined;
    const before = await startService({ entry: baseline.entry, databaseUrl: baselineDatabase?.url });
    try {
      if (baselineDatabase) await settle(baselineDatabase.url);
      const old = await setUp(before, 1000);
      const now = await setUp(service, 2000);
      const [cycleBefore, cycleAfter, putBefore, putAfter] = await interleave([
        { options: cycleOptions(before.url, old.accounts), pid: before.pid, prepare: () => deleteLeftovers(before.url, old.accounts) },
        { options: cycleOptions(service.url, now.accounts), pid: service.pid, prepare: () => deleteLeftovers(service.url, now.accounts) },
        { options: old.autosave, pid: before.pid },
        { options: now.autosave, pid: service.pid },
      ]);
      const putRatio = medianRatio(putAfter, putBefore);
      bench.record({
        name: 'version-history',
        workload: 'version history: this build vs the build before it, same rounds',
        figures: {
          'cycles/s before': medianOf(cycleBefore, 'reqPerSec') / 3,
          'cycles/s after': medianOf(cycleAfter, 'reqPerSec') / 3,
          'cycle ratio': medianRatio(cycleAfter, cycleBefore),
          'PUT req/s before': medianOf(putBefore, 'reqPerSec'),
          'PUT req/s after': medianOf(putAfter, 'reqPerSec'),
          'PUT p99 ms before': medianOf(putBefore, 'p99Ms'),
          'PUT p99 ms after': medianOf(putAfter, 'p99Ms'),
          'PUT server CPU µs before': medianOf(putBefore, 'cpuMicrosPerRequest'),
          'PUT server CPU µs after': medianOf(putAfter, 'cpuMicrosPerRequest'),
          'PUT ratio': putRatio,
        },
        target: 'PUT ratio >= 0.85 (within 15 %)',
        met: putRatio >= 0.85,
      });
      console.log(`  cycle ratio per round: ${roundRatios(cycleAfter, cycleBefore)}`);
      console.log(`  PUT ratio per round: ${roundRatios(putAfter, putBefore)}`);
    } finally {
      await before.stop();
      await baselineDatabase?.drop();
      baseline.remove();
    }
  },
};
