// A CMYK print of five 24 MP photos over HTTP, first and second time (the second from the image
// cache), against the production build (bench/print-photos.ts); the machine's load beside it.
import { loadavg } from 'node:os';
import {
  benchPrintPhotos,
  PHOTOS_CHILD_RSS_MB,
  PHOTOS_FIRST_CPU_S_PER_PHOTO,
  PHOTOS_SECOND_WALL_S,
  printPhotosTargetsMet,
} from '../print-photos.js';
import type { Workload } from '../workload.js';

export const printPhotos: Workload = {
  name: 'print-photos',
  async run(bench) {
    const figures = await benchPrintPhotos();
    bench.record({
      name: 'print-photos',
      workload: 'CMYK print (FOGRA39) of five 24 MP photos at 400 ppi over HTTP, first and second time',
      figures: { ...figures, 'load average': loadavg()[0]! },
      target:
        `first ≤ ${PHOTOS_FIRST_CPU_S_PER_PHOTO} CPU-s per photo, second < ${PHOTOS_SECOND_WALL_S} s wall, ` +
        `render child < ${PHOTOS_CHILD_RSS_MB} MB`,
      met: printPhotosTargetsMet(figures),
    });
  },
};
