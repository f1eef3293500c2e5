/**
 * Whether the board is thick enough for the carton: a folding carton whose caliper is under
 * max(0.3 mm, its largest inside dimension ÷ 600) bulges and will not stand (a 400 mm carton wants
 * at least 0.67 mm).
 */
import type { Dieline } from './types.js';

const FOLDING_CARTON_STYLES: ReadonlySet<string> = new Set(['ecma-reverse-tuck-end', 'ecma-straight-tuck-end', 'tuck-top-auto-bottom']);
const MIN_CALIPER_MM = 0.3;
const SIZE_PER_CALIPER = 600;

/** The caliper a folding carton wants when its board is thinner, else null. */
export function boardTooThin(dieline: Pick<Dieline, 'style' | 'dimensions' | 'thicknessMm'>): number | null {
  if (!FOLDING_CARTON_STYLES.has(dieline.style)) return null;
  const { widthMm, depthMm, heightMm } = dieline.dimensions.inside;
  const minimum = Math.max(MIN_CALIPER_MM, Math.max(widthMm, depthMm, heightMm) / SIZE_PER_CALIPER);
  return dieline.thicknessMm < minimum - 1e-9 ? minimum : null;
}
