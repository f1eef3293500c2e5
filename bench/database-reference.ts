// The database routes against the bare node:http + pg reference (bench/reference-db-server.ts) on
// the service's own database, in interleaved rounds, twice: with its statements prepared once per
// connection like the service's, and unnamed (parsed and planned on every use), the reference the
// target was set against. The reference reaches PostgreSQL only; on the embedded engine the rows
// print the service's own figures.
import { interleave, medianOf, medianRatio, roundRatios, type Contender, type Sample } from './load.js';
import { startDatabaseReference } from './references.js';
import type { RunningService } from './support.js';
import type { Bench } from './workload.js';

type Target = Pick<RunningService, 'url' | 'pid'>;

interface Compared {
  service: Sample[];
  prepared?: Sample[];
  unnamed?: Sample[];
}

/** The same load (made by `contender` for a server) on the service and, on PostgreSQL, on both references. */
export async function againstDatabaseReference(bench: Bench, contender: (target: Target) => Contender): Promise<Compared> {
  const service = await bench.service();
  if (!bench.database) return { service: (await interleave([contender(service)]))[0] };
  const prepared = await startDatabaseReference(bench.database.url);
  const unnamed = await startDatabaseReference(bench.database.url, { unnamed: true });
  try {
    const [svc, preparedSamples, unnamedSamples] = await interleave([contender(service), contender(prepared), contender(unnamed)]);
    return { service: svc, prepared: preparedSamples, unnamed: unnamedSamples };
  } finally {
    prepared.stop();
    unnamed.stop();
  }
}

/**
 * A database workload's row: the service's rate (requests / perRequest, so a cycle of three
 * requests counts once), p99 and CPU per request, and on PostgreSQL the ratio of the rates and of
 * the p99s, round by round, against both references. Target (against the unnamed reference):
 * ratio >= 0.8, p99 <= 1.5 × the reference's; the ratio against the prepared one is printed beside it.
 */
export function recordAgainstReference(bench: Bench, name: string, workload: string, unit: string, perRequest: number, compared: Compared) {
  const { service: svc, prepared, unnamed } = compared;
  const figures: Record<string, number> = {
    [unit]: medianOf(svc, 'reqPerSec') / perRequest,
    'p99 ms': medianOf(svc, 'p99Ms'),
    'server CPU µs/request': medianOf(svc, 'cpuMicrosPerRequest'),
  };
  if (!prepared || !unnamed) return bench.record({ name, workload: `${workload} (no reference on the embedded engine)`, figures });
  const ratio = medianRatio(svc, unnamed);
  const p99Factor = medianOf(svc, 'p99Ms') / medianOf(unnamed, 'p99Ms');
  bench.record({
    name,
    workload: `${workload}, vs bare node:http + pg`,
    figures: {
      ...figures,
      [`reference ${unit}`]: medianOf(unnamed, 'reqPerSec') / perRequest,
      'reference p99 ms': medianOf(unnamed, 'p99Ms'),
      'reference CPU µs/request': medianOf(unnamed, 'cpuMicrosPerRequest'),
      ratio,
      'p99 / reference p99': p99Factor,
      [`prepared reference ${unit}`]: medianOf(prepared, 'reqPerSec') / perRequest,
      'prepared reference p99 ms': medianOf(prepared, 'p99Ms'),
      'prepared reference CPU µs/request': medianOf(prepared, 'cpuMicrosPerRequest'),
      'ratio vs prepared reference': medianRatio(svc, prepared),
      'p99 / prepared reference p99': medianOf(svc, 'p99Ms') / medianOf(prepared, 'p99Ms'),
    },
    target: 'ratio >= 0.8, p99 <= 1.5 × reference',
    met: ratio >= 0.8 && p99Factor <= 1.5,
  });
  console.log(`  ratio per round: ${roundRatios(svc, unnamed)}`);
  console.log(`  ratio per round vs the prepared reference: ${roundRatios(svc, prepared)}`);
}
