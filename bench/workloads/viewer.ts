// The viewer's time to first frame in headless chromium with software WebGL (bench/viewer.ts).
import { benchViewer } from '../viewer.js';
import type { Workload } from '../workload.js';

export const viewer: Workload = {
  name: 'viewer',
  async run(bench) {
    for (const row of await benchViewer()) bench.record(row);
  },
};
