// Mockups at 1024, 2048 and 4096 px, cold and warm (bench/mockups.ts).
import { benchMockups } from '../mockups.js';
import type { Workload } from '../workload.js';

export const mockups: Workload = {
  name: 'mockups',
  async run(bench) {
    for (const row of await benchMockups()) bench.record(row);
  },
};
