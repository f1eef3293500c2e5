// 3D models per template, in process, without and with a 2048 px print texture (bench/models.ts).
import { benchModels } from '../models.js';
import type { Workload } from '../workload.js';

export const models: Workload = {
  name: 'models',
  async run(bench) {
    for (const row of await benchModels()) bench.record(row);
  },
};
