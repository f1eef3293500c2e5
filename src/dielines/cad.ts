/**
 * What the CAD formats (DXF, CF2) share: the dieline's paths as lines and arcs in a y-up frame,
 * print side up, with the origin at the blank's bottom-left corner.
 */
import { curveSegments, type CurveSegment } from './curves.js';
import type { Dieline, DielinePathType, Point } from './types.js';

/** The dieline's points mirrored to y up: y = blank height − the dieline's y. */
export function toYUp(dieline: Dieline, points: readonly Point[]): Point[] {
  const height = dieline.blank.height;
  return points.map(([x, y]): Point => [x, height - y]);
}

/** Every path of `type` as lines and arcs, y up. */
export function cadSegments(dieline: Dieline, type: DielinePathType): CurveSegment[] {
  const out: CurveSegment[] = [];
  for (const path of dieline.paths) {
    if (path.type === type) out.push(...curveSegments(toYUp(dieline, path.points), path.closed));
  }
  return out;
}

/** A coordinate in CAD text: at most 6 decimals, no exponent, no -0. */
export function cadNumber(value: number): string {
  const rounded = Math.round(value * 1e6) / 1e6;
  if (rounded === 0) return '0';
  return rounded.toFixed(6).replace(/\.?0+$/, '');
}

/** The corrugated styles; every other box style is folding carton. */
export function isCorrugated(dieline: Dieline): boolean {
  return dieline.style === 'fefco-0427' || dieline.style === 'fefco-0201';
}
