// The print PDF and 1024 px preview of a mailer-box with five 6000 × 4000 JPEG placements, in
// process (bench/print.ts).
import { benchPrint, PREVIEW_TARGET_MS, PRINT_TARGET_MS, PRINT_TARGET_RSS_MB } from '../print.js';
import type { Workload } from '../workload.js';

export const print: Workload = {
  name: 'print',
  async run(bench) {
    const figures = await benchPrint();
    bench.record({
      name: 'print',
      workload: 'print PDF + preview, mailer-box, five 6000 × 4000 JPEGs',
      figures,
      target: `print < ${PRINT_TARGET_MS} ms and < ${PRINT_TARGET_RSS_MB} MB RSS growth, preview < ${PREVIEW_TARGET_MS} ms`,
      met:
        figures['print ms']! < PRINT_TARGET_MS &&
        figures['print peak RSS growth MB']! < PRINT_TARGET_RSS_MB &&
        figures['preview 1024 px ms']! < PREVIEW_TARGET_MS,
    });
  },
};
