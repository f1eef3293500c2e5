// The same mailer as PDF/X-4 in CMYK (FOGRA39) and in RGB, with the files' sizes, in process
// (bench/print.ts).
import { benchPressPrint, PRESS_CMYK_TARGET_MS, PRESS_RGB_TARGET_MS, PRINT_TARGET_RSS_MB } from '../print.js';
import type { Workload } from '../workload.js';

export const printPdfx: Workload = {
  name: 'print-pdfx',
  async run(bench) {
    const figures = await benchPressPrint();
    bench.record({
      name: 'print-pdfx',
      workload: 'PDF/X-4 print, mailer-box, five 6000 × 4000 JPEGs: CMYK (FOGRA39) and RGB',
      figures,
      target: `cmyk < ${PRESS_CMYK_TARGET_MS} ms and < ${PRINT_TARGET_RSS_MB} MB RSS growth, rgb < ${PRESS_RGB_TARGET_MS} ms`,
      met:
        figures['cmyk print ms']! < PRESS_CMYK_TARGET_MS &&
        figures['cmyk peak RSS growth MB']! < PRINT_TARGET_RSS_MB &&
        figures['rgb print ms']! < PRESS_RGB_TARGET_MS,
    });
  },
};
