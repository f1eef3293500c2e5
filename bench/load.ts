// HTTP load with autocannon: one run after a warm-up, or several contenders in interleaved rounds
// so that their ratio is taken within seconds, not a minute apart.
import autocannon from 'autocannon';
import { round } from './rows.js';
import { cpuMicros, median } from './support.js';

export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
export const CONNECTIONS = 50;
// Ratios come from workloads run in turn, round after round: this host's speed drifts by tens of
// percent from minute to minute, so comparing two runs taken a minute apart measures the drift.
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
export const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);

export type LoadOptions = Parameters<typeof autocannon>[0];

/** One autocannon run after a warm-up; warns about errors and unexpected statuses. */
export async function load(options: LoadOptions, { warmup = WARMUP, duration = DURATION } = {}) {
  if (warmup > 0) await autocannon({ ...options, duration: warmup });
  const result = await autocannon({ duration, ...options });
  // A conditional request's 304 is the answer it asks for.
  const conditional = (options.headers as Record<string, string> | undefined)?.['if-none-match'] !== undefined;
  if (result.errors > 0 || (result.non2xx > 0 && !conditional)) {
    console.warn(`  warning: ${result.errors} errors, ${result.non2xx} non-2xx responses on ${options.url}`);
  }
  return result;
}

/** One of the loads compared in interleaved rounds. */
export interface Contender {
  options: LoadOptions;
  /** The serving process, to measure its CPU time per request. */
  pid?: number;
  /** Run before each of its rounds, outside the measurement. */
  prepare?: () => Promise<void>;
}

export interface Sample {
  reqPerSec: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
}

/** Every contender once per round, ROUNDS rounds, rotating which goes first; samples[contender][round]. */
export async function interleave<const T extends readonly Contender[]>(contenders: T): Promise<{ [K in keyof T]: Sample[] }> {
  for (const { options, prepare } of contenders) {
    await prepare?.();
    await autocannon({ ...options, duration: WARMUP });
  }
  const samples: Sample[][] = contenders.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < contenders.length; turn++) {
      const index = (round + turn) % contenders.length;
      const { options, pid, prepare } = contenders[index]!;
      await prepare?.();
      const cpuBefore = pid === undefined ? 0 : cpuMicros(pid);
      const result = await load(options, { warmup: 0, duration: ROUND_SECONDS });
      const requests = result.requests.total || 1;
      samples[index]!.push({
        reqPerSec: result.requests.average,
        p99Ms: result.latency.p99,
        cpuMicrosPerRequest: pid === undefined ? Number.NaN : (cpuMicros(pid) - cpuBefore) / requests,
      });
    }
  }
  return samples as { [K in keyof T]: Sample[] };
}

export const medianOf = (samples: Sample[], field: keyof Sample) => median(samples.map((sample) => sample[field]));

/** One contender's throughput divided by another's, round by round. */
const ratiosPerRound = (numerator: Sample[], denominator: Sample[]) =>
  numerator.map((sample, index) => sample.reqPerSec / denominator[index]!.reqPerSec);
export const medianRatio = (numerator: Sample[], denominator: Sample[]) => median(ratiosPerRound(numerator, denominator));
export const roundRatios = (numerator: Sample[], denominator: Sample[]) =>
  ratiosPerRound(numerator, denominator).map(round).join(' ');
