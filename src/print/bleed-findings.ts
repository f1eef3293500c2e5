/**
 * NO_BLEED (preflight): a piece cut out by a die (the dieline has cut lines) printed without bleed
 * shows unprinted board wherever the die cuts a little off its line. A surface cut straight (a can's
 * band, which has no cut line) needs none.
 */
import { DEFAULT_BLEED_MM } from '../dielines/index.js';
import type { Finding, PrintSurface } from './types.js';

export function noBleedFindings(surface: Pick<PrintSurface, 'paths' | 'styleName'>, bleedMm: number): Finding[] {
  if (bleedMm > 0 || !surface.paths.some((path) => path.type === 'cut')) return [];
  return [
    {
      severity: 'warning',
      code: 'NO_BLEED',
      message:
        `bleedMm=0 on the die-cut ${surface.styleName}: ` +
        `the die's tolerance shows unprinted board at the edges; ${DEFAULT_BLEED_MM} mm of bleed is usual.`,
    },
  ];
}
