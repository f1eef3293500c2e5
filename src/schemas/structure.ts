// A die shop's structure options (extensions §17): the tuck lock, the rigid lid's height and nicks
// in the cut lines. Spread into the template and project dieline queries and the project layout
// query; an option the template does not take answers 400 naming the templates that take it.
import { Type } from '@sinclair/typebox';
import { StringEnum } from './common.js';
import { DEFAULT_NICK_WIDTH_MM, NICK_COUNT_LIMITS, NICK_WIDTH_LIMITS } from '../dielines/nicks.js';
import { TUCK_LOCKS, type StructureOptions } from '../dielines/types.js';

export const StructureQueryProperties = {
  lock: Type.Optional(
    StringEnum(TUCK_LOCKS, {
      default: 'slit',
      description:
        'reverse-tuck-carton, straight-tuck-box and auto-bottom-box (their tuck tops and tuck bottoms): slit = a slit at each end of the ' +
        "tuck's hinge; friction = shoulders wider than the opening; none. Every lock adds a thumb notch and crease relief.",
    }),
  ),
  lidHeightMm: Type.Optional(
    Type.Number({
      minimum: 10,
      maximum: 310,
      description:
        "rigid-lid-box only: the lid's inside height, 10 mm up to the base height plus the caliper; default H/3 (at least 20 mm).",
    }),
  ),
  nicks: Type.Optional(
    Type.Integer({
      minimum: NICK_COUNT_LIMITS.min,
      maximum: NICK_COUNT_LIMITS.max,
      default: 0,
      description: 'Box templates: gaps per straight cut edge longer than 50 mm, evenly spaced, none within 5 mm of a corner.',
    }),
  ),
  nickWidthMm: Type.Optional(
    Type.Number({
      minimum: NICK_WIDTH_LIMITS.min,
      maximum: NICK_WIDTH_LIMITS.max,
      default: DEFAULT_NICK_WIDTH_MM,
      description: `Box templates: the width of each nick, millimetres (${NICK_WIDTH_LIMITS.min}–${NICK_WIDTH_LIMITS.max}).`,
    }),
  ),
};

/** The structure options of a query, as the generator takes them. */
export function structureOptionsOf(query: StructureOptions): StructureOptions {
  const out: StructureOptions = {};
  if (query.lock !== undefined) out.lock = query.lock;
  if (query.lidHeightMm !== undefined) out.lidHeightMm = query.lidHeightMm;
  if (query.nicks !== undefined) out.nicks = query.nicks;
  if (query.nickWidthMm !== undefined) out.nickWidthMm = query.nickWidthMm;
  return out;
}
