// DXF, CF2 and the sheet layout per box style, in process (bench/die-formats.ts).
import { benchDieFormats } from '../die-formats.js';
import type { Workload } from '../workload.js';

export const dieFormats: Workload = {
  name: 'die-formats',
  async run(bench) {
    for (const row of benchDieFormats()) bench.record(row);
  },
};
