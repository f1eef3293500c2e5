/**
 * ECMA reverse tuck end (commonly labelled A20.20.03.01): the top tuck closes front-to-back from
 * the back panel, the bottom tuck the other way from the front panel, so cartons nest on the sheet.
 */
import type { StyleGeometry } from '../draft.js';
import type { StyleLimits } from '../limits.js';
import type { BoxDimensions, TuckLock } from '../types.js';
import { buildTuckEndCarton } from './tuck-end.js';

export const REVERSE_TUCK_END_SUBJECT = 'a reverse tuck-end carton';

export const REVERSE_TUCK_END_LIMITS: StyleLimits = {
  widthMm: { min: 20, max: 400 },
  depthMm: { min: 15, max: 400 },
  heightMm: { min: 20, max: 600 },
  thicknessMm: { min: 0.2, max: 2 },
};

export function buildReverseTuckEnd(inside: BoxDimensions, thicknessMm: number, lock: TuckLock): StyleGeometry {
  return buildTuckEndCarton(inside, thicknessMm, 'front', REVERSE_TUCK_END_SUBJECT, lock);
}
