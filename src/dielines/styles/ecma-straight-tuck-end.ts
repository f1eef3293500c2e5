/**
 * ECMA straight tuck end (commonly labelled A20.20.01.01): both closures are hinged on the back
 * panel and tuck into the front, leaving a clean front face.
 */
import type { StyleGeometry } from '../draft.js';
import type { StyleLimits } from '../limits.js';
import type { BoxDimensions, TuckLock } from '../types.js';
import { buildTuckEndCarton } from './tuck-end.js';

export const STRAIGHT_TUCK_END_SUBJECT = 'a straight tuck-end carton';

export const STRAIGHT_TUCK_END_LIMITS: StyleLimits = {
  widthMm: { min: 20, max: 400 },
  depthMm: { min: 15, max: 400 },
  heightMm: { min: 20, max: 600 },
  thicknessMm: { min: 0.2, max: 2 },
};

export function buildStraightTuckEnd(inside: BoxDimensions, thicknessMm: number, lock: TuckLock): StyleGeometry {
  return buildTuckEndCarton(inside, thicknessMm, 'back', STRAIGHT_TUCK_END_SUBJECT, lock);
}
