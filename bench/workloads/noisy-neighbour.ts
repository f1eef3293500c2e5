// One account's preflights and uploads against another account's answers (bench/noisy-neighbour.ts).
import { benchNoisyNeighbour } from '../noisy-neighbour.js';
import type { Workload } from '../workload.js';

export const noisyNeighbour: Workload = {
  name: 'noisy-neighbour',
  async run(bench) {
    for (const row of await benchNoisyNeighbour()) bench.record(row);
  },
};
