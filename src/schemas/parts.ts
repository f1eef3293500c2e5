// The `part` and `turnInMm` query parameters of a style with parts (the rigid box: its greyboard
// trays and its printed wraps). Spread into the dieline, print, preview and preflight queries; the
// dieline routes default to the board, the print side to the wrap.
import { Type } from '@sinclair/typebox';
import { StringEnum } from './common.js';
import { DEFAULT_TURN_IN_MM, DIELINE_PARTS, TURN_IN_LIMITS, type DielinePart } from '../dielines/index.js';

const partQuery = (fallback: DielinePart) =>
  StringEnum(DIELINE_PARTS, {
    default: fallback,
    examples: [fallback === 'board' ? 'wrap' : 'board'],
    description:
      `rigid-lid-box only (any other template answers 400): board = the greyboard trays, wrap = the printed base and lid ` +
      `wraps with their turn-ins. Default: ${fallback}.`,
  });

const turnInQuery = Type.Number({
  minimum: TURN_IN_LIMITS.min,
  maximum: TURN_IN_LIMITS.max,
  default: DEFAULT_TURN_IN_MM,
  examples: [20],
  description:
    `rigid-lid-box wraps only: paper turned over each wall's top edge and down its inside, ` +
    `in millimetres (${TURN_IN_LIMITS.min}–${TURN_IN_LIMITS.max}).`,
});

/** For the dieline routes: the board unless the wrap is asked for. */
export const BoardPartQuery = { part: Type.Optional(partQuery('board')), turnInMm: Type.Optional(turnInQuery) };

/** For print, preview and preflight: the wrap unless the board is asked for. */
export const WrapPartQuery = { part: Type.Optional(partQuery('wrap')), turnInMm: Type.Optional(turnInQuery) };

export interface PartQuery {
  part?: DielinePart;
  turnInMm?: number;
}
