// The print of a design with foil, spot UV, emboss and a White underlay beside the same design
// plain, in process (bench/finishes.ts).
import { benchFinishes, FINISHES_TARGET_RATIO } from '../finishes.js';
import type { Workload } from '../workload.js';

export const finishes: Workload = {
  name: 'finishes',
  async run(bench) {
    const { plainMs, finishedMs, ratio } = await benchFinishes();
    bench.record({
      name: 'finishes',
      workload: 'CMYK print, mailer-box: foil + spot UV + emboss + White underlay vs the same design plain',
      figures: { 'plain ms': plainMs, 'finished ms': finishedMs, ratio },
      target: `ratio ≤ ${FINISHES_TARGET_RATIO}`,
      met: ratio <= FINISHES_TARGET_RATIO,
    });
  },
};
