// The print PDF and preview of each container's layout with two 6000 × 4000 JPEGs, in process
// (bench/containers.ts).
import { benchContainerPrint } from '../containers.js';
import type { Workload } from '../workload.js';

export const containerPrint: Workload = {
  name: 'container-print',
  async run(bench) {
    for (const row of await benchContainerPrint()) bench.record(row);
  },
};
