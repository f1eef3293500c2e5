/**
 * The parts of a style that has more than its board: the rigid box's printed wraps beside its
 * greyboard trays. `board` is the style's dieline as `generateDieline` makes it; `wrap` is the
 * paper that goes to press, with the trays' panel ids.
 */
import { assembleDieline } from './assemble.js';
import { DEFAULT_BLEED_MM, generateDieline } from './generate.js';
import { requireInRange } from './limits.js';
import { DIELINE_STYLES } from './registry.js';
import { buildRigidTwoPiece } from './styles/rigid-two-piece.js';
import { buildRigidWrap, DEFAULT_TURN_IN_MM, TURN_IN_LIMITS } from './styles/rigid-wrap.js';
import type { BoxDimensions, Dieline, DielineOptions } from './types.js';

export const DIELINE_PARTS = ['board', 'wrap'] as const;
export type DielinePart = (typeof DIELINE_PARTS)[number];

export { DEFAULT_TURN_IN_MM, TURN_IN_LIMITS, wrapSizes } from './styles/rigid-wrap.js';

export interface PartOptions extends DielineOptions {
  /** Wrap only: paper turned in over the top edge and down the inside (8–30 mm, default 15). */
  turnInMm?: number;
}

const WRAP_STYLE_NAME = 'Rigid two-piece box wraps (base and lid)';
const WRAP_SUBJECT = 'a rigid box wrap';

/** Whether the template has parts (a board and a wrap) to choose between. */
export function hasParts(templateId: string): boolean {
  return DIELINE_STYLES[templateId] === 'rigid-two-piece';
}

/** The wraps of a rigid box at the given inside dimensions; the board's limits apply first. */
export function generateWrap(templateId: string, dims: BoxDimensions, options: PartOptions = {}): Dieline {
  const board = generateDieline(templateId, dims, options);
  const turnIn = options.turnInMm ?? DEFAULT_TURN_IN_MM;
  requireInRange('turnInMm', turnIn, TURN_IN_LIMITS, WRAP_SUBJECT);
  // generateDieline has checked the bleed.
  const bleedMm = options.bleedMm ?? DEFAULT_BLEED_MM;
  const inside: BoxDimensions = { widthMm: dims.widthMm, heightMm: dims.heightMm, depthMm: dims.depthMm };
  const lidHeightMm = options.structure?.lidHeightMm;
  const outside = buildRigidTwoPiece(inside, board.thicknessMm, bleedMm, lidHeightMm).outside;
  return assembleDieline({
    templateId,
    style: board.style,
    styleName: WRAP_STYLE_NAME,
    thicknessMm: board.thicknessMm,
    bleedMm,
    inside,
    geometry: buildRigidWrap(inside, board.thicknessMm, bleedMm, turnIn, outside, lidHeightMm),
  });
}

/** The board or the wrap; templates without parts only have their board. */
export function generatePart(templateId: string, dims: BoxDimensions, part: DielinePart, options: PartOptions = {}): Dieline {
  return part === 'wrap' && hasParts(templateId) ? generateWrap(templateId, dims, options) : generateDieline(templateId, dims, options);
}
