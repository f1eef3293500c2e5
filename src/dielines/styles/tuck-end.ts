/**
 * Tuck-end closures shared by the ECMA reverse and straight tuck-end cartons and the tuck top of
 * the auto-bottom carton: a closure panel hinged on an L panel with a tuck flap, and dust flaps
 * on the W panels.
 */
import { DielineDraft, type StyleGeometry } from '../draft.js';
import { ceilTenth, formatNumber } from '../format.js';
import { requireAtLeast, type StyleLimits } from '../limits.js';
import { roundedPolyline, type Corner } from '../profile.js';
import type { BoxDimensions, Point, TuckLock } from '../types.js';
import { buildTube, plainFlap, tubeOutside, tubePanelWidths } from './tube.js';
import type { EdgeFeature, TubePanelId, TubeSpec, WallNotch } from './tube.js';

/** Each end carries two closure layers (dust flaps under the closure): 1.5 calipers per end. */
export const CLOSURE_LAYERS_PER_END = 1.5;
/** Tuck depth = base + factor × W, clamped (open-dieline uses 12 mm; larger boxes want more). */
const TUCK_DEPTH_BASE_MM = 10;
const TUCK_DEPTH_PER_DEPTH = 0.15;
const TUCK_DEPTH_MIN_MM = 12;
const TUCK_DEPTH_MAX_MM = 30;
/** Clearance between the tuck flap and each side wall. */
export const TUCK_SIDE_CLEARANCE_MM = 0.5;
const TUCK_CORNER_RADIUS_MAX_MM = 8;
/** The tuck must leave this much wall below it once tucked. */
const TUCK_WALL_MARGIN_MM = 8;
/** Gap left between the two dust flaps when both are folded in. */
const DUST_FLAP_GAP_MM = 1;
const DUST_FLAP_MIN_HEIGHT_MM = 8;
const DUST_FLAP_SHOULDER_MM = 5;
const DUST_FLAP_TAPER_DEG = 15;
const GLUE_FLAP_MAX_MM = 15;
/** The tuck's sides step in from the closure's corners on a slant this high, never a sub-millimetre jog. */
const TUCK_STEP_RISE_MM = 1;
/** Slit lock: slits of clamp(hinge / 10, 3, min(15, hinge / 4)) at each end of the tuck's hinge. */
const SLIT_MIN_MM = 3;
const SLIT_SHARE = 0.1;
const SLIT_MAX_MM = 15;
/** Friction lock: shoulders 0.5 mm proud of the inside width each side (at least 0.3 mm past the closure), 3 mm long. */
const FRICTION_INTERFERENCE_MM = 0.5;
const FRICTION_MIN_PROUD_MM = 0.3;
const FRICTION_SHOULDER_MM = 3;
/** Thumb notch radius: clamp(wall width / 8, 8, 12). */
const THUMB_NOTCH_SHARE = 1 / 8;
const THUMB_NOTCH_MIN_MM = 8;
const THUMB_NOTCH_MAX_MM = 12;
export const GLUE_FLAP_END_ANGLE_DEG = 15;

export interface TuckEndSizes {
  /** Closure panel depth, crease to crease: spans the opening between back and front mid-planes. */
  closureDepth: number;
  tuckDepth: number;
  tuckWidth: number;
  tuckCornerRadius: number;
  dustFlapHeight: number;
  /** 45° relief at each end of a dust flap's hinge, so the flap clears the walls and the tuck. */
  dustFlapRelief: number;
  dustFlapShoulder: number;
  glueFlapWidth: number;
  bodyHeight: number;
  lock: TuckLock;
  /** Caliper: the tuck's crease stops this far short of the slits (crease relief). */
  thicknessMm: number;
}

export function tuckEndSizes(inside: BoxDimensions, t: number, subject: string, lock: TuckLock = 'slit'): TuckEndSizes {
  const { widthMm: L, depthMm: W, heightMm: D } = inside;
  const closureDepth = W + t;
  const tuckDepth = Math.min(TUCK_DEPTH_MAX_MM, Math.max(TUCK_DEPTH_MIN_MM, TUCK_DEPTH_BASE_MM + TUCK_DEPTH_PER_DEPTH * W));
  const bodyHeight = D + 2 * CLOSURE_LAYERS_PER_END * t;
  const minHeight = tuckDepth + TUCK_WALL_MARGIN_MM - 2 * CLOSURE_LAYERS_PER_END * t;
  requireAtLeast(
    'heightMm',
    D,
    minHeight,
    subject,
    `the ${formatNumber(tuckDepth)} mm tuck flap needs at least ${formatNumber(ceilTenth(minHeight))} mm of wall.`,
  );
  const dustFlapHeight = Math.min((closureDepth + tuckDepth) / 2, L / 2 - DUST_FLAP_GAP_MM);
  const minWidth = 2 * (DUST_FLAP_MIN_HEIGHT_MM + DUST_FLAP_GAP_MM);
  requireAtLeast('widthMm', L, minWidth, subject, `the dust flaps need at least ${formatNumber(minWidth)} mm.`);
  const dustFlapRelief = Math.max(1, 1.5 * t + 0.5);
  const dustFlapShoulder = Math.max(dustFlapRelief + 1, Math.min(DUST_FLAP_SHOULDER_MM, dustFlapHeight / 3));
  return {
    closureDepth,
    tuckDepth,
    tuckWidth: L - 2 * TUCK_SIDE_CLEARANCE_MM,
    tuckCornerRadius: Math.min(TUCK_CORNER_RADIUS_MAX_MM, tuckDepth / 2),
    dustFlapHeight,
    dustFlapRelief,
    dustFlapShoulder,
    glueFlapWidth: Math.min(GLUE_FLAP_MAX_MM, W - 2),
    bodyHeight,
    lock,
    thicknessMm: t,
  };
}

interface PanelName {
  id: string;
  name: string;
}

/** Length of each slit of a slit lock on a tuck hinge of `hinge` mm. */
export function slitLength(hinge: number): number {
  return Math.min(Math.max(SLIT_MIN_MM, SLIT_SHARE * hinge), Math.min(SLIT_MAX_MM, hinge / 4));
}

/** Radius of the thumb notch in a wall `width` wide. */
export function thumbNotchRadius(width: number): number {
  return Math.min(THUMB_NOTCH_MAX_MM, Math.max(THUMB_NOTCH_MIN_MM, THUMB_NOTCH_SHARE * width));
}

/**
 * The left side of a tuck, from the closure's corner [0, depth] towards the tuck's tip, as
 * corners; the right side mirrors it. Friction shoulders stand proud of the closure's edge, then
 * step back in at 45° to the tuck's side.
 */
function tuckSide(width: number, sizes: TuckEndSizes): Corner[] {
  const depth = sizes.closureDepth;
  const inset = (width - sizes.tuckWidth) / 2;
  if (sizes.lock === 'friction') {
    const insideWidth = sizes.tuckWidth + 2 * TUCK_SIDE_CLEARANCE_MM;
    const proud = Math.max(FRICTION_MIN_PROUD_MM, (insideWidth + 2 * FRICTION_INTERFERENCE_MM - width) / 2);
    const top = depth + TUCK_STEP_RISE_MM + FRICTION_SHOULDER_MM;
    return [
      { point: [0, depth] },
      { point: [-proud, depth + TUCK_STEP_RISE_MM] },
      { point: [-proud, top] },
      { point: [inset, top + inset + proud] },
    ];
  }
  return [{ point: [0, depth] }, { point: [inset, depth + TUCK_STEP_RISE_MM] }];
}

/**
 * A closure panel the width of its L panel, with a rounded tuck flap centred on its far edge and
 * the lock `sizes.lock` at the tuck's hinge.
 */
export function closureFeature(width: number, sizes: TuckEndSizes, closure: PanelName, tuck: PanelName): EdgeFeature {
  const depth = sizes.closureDepth;
  const inset = (width - sizes.tuckWidth) / 2;
  const r = sizes.tuckCornerRadius;
  const left = tuckSide(width, sizes);
  const right = [...left].reverse().map(({ point: [s, h] }): Corner => ({ point: [width - s, h] }));
  const tuckOutline = roundedPolyline([
    ...left,
    { point: [inset, depth + sizes.tuckDepth], radius: r },
    { point: [width - inset, depth + sizes.tuckDepth], radius: r },
    ...right,
  ]);
  const slit = sizes.lock === 'slit' ? slitLength(width) : 0;
  // Crease relief: with a lock, the tuck's crease stops a caliper short of the cuts at its ends.
  const relief = sizes.lock === 'none' ? 0 : slit + sizes.thicknessMm;
  const slits: [Point, Point][] = slit > 0 ? [[[0, depth], [slit, depth]], [[width, depth], [width - slit, depth]]] : [];
  return {
    profile: [[0, 0], ...tuckOutline, [width, 0]],
    panels: [
      {
        id: closure.id,
        name: closure.name,
        role: 'closure',
        polygon: [[0, 0], [0, depth], [width, depth], [width, 0]],
      },
      { id: tuck.id, name: tuck.name, role: 'tuck', polygon: tuckOutline },
    ],
    creases: [[[0, 0], [width, 0]], [[relief, depth], [width - relief, depth]]],
    ...(slits.length > 0 ? { slits } : {}),
  };
}

/**
 * The thumb notch of a closure hinged on `closureOn`: on the free edge of the wall its tuck closes
 * on (the opposite wall), at most `maxRadius`; none without a lock.
 */
export function thumbNotch(
  widths: Record<TubePanelId, number>,
  sizes: TuckEndSizes,
  closureOn: 'back' | 'front',
  maxRadius: number,
): WallNotch | undefined {
  if (sizes.lock === 'none') return undefined;
  const wall = closureOn === 'back' ? 'front' : 'back';
  return { panel: wall, radius: Math.min(thumbNotchRadius(widths[wall]), maxRadius) };
}

/** The lock's figures: slit length and thumb-notch radii (0 where there is none). */
export function lockParameters(
  widths: Record<TubePanelId, number>,
  sizes: TuckEndSizes,
  top: WallNotch | undefined,
  bottom?: WallNotch,
): Record<string, number> {
  return {
    slitLengthMm: sizes.lock === 'slit' ? slitLength(widths.back) : 0,
    thumbNotchTopRadiusMm: top?.radius ?? 0,
    ...(bottom ? { thumbNotchBottomRadiusMm: bottom.radius } : {}),
  };
}

/** A dust flap with a 45° relief and a shoulder at each end, then a 15° taper to the tip. */
export function dustFlapFeature(width: number, sizes: TuckEndSizes, flap: PanelName): EdgeFeature {
  const h = sizes.dustFlapHeight;
  const r = sizes.dustFlapRelief;
  const shoulder = sizes.dustFlapShoulder;
  const taper = (h - shoulder) * Math.tan((DUST_FLAP_TAPER_DEG * Math.PI) / 180);
  const profile: Point[] = [
    [0, 0], [r, r], [r, shoulder], [r + taper, h],
    [width - r - taper, h], [width - r, shoulder], [width - r, r], [width, 0],
  ];
  return plainFlap(width, profile, { id: flap.id, name: flap.name, role: 'dust-flap' });
}

/** Parameters every tuck-end style reports. */
export function tuckEndParameters(sizes: TuckEndSizes): Record<string, number> {
  return {
    glueFlapWidthMm: sizes.glueFlapWidth,
    bodyHeightMm: sizes.bodyHeight,
    closureDepthMm: sizes.closureDepth,
    tuckDepthMm: sizes.tuckDepth,
    tuckWidthMm: sizes.tuckWidth,
    dustFlapHeightMm: sizes.dustFlapHeight,
  };
}

/** The top of every tuck-end style: closure and tuck on the back, dust flaps on the sides. */
export function tuckTop(widths: TubeSpec['widths'], sizes: TuckEndSizes): TubeSpec['top'] {
  return {
    back: closureFeature(widths.back, sizes, { id: 'top', name: 'Top closure' }, { id: 'tuck-top', name: 'Top tuck flap' }),
    left: dustFlapFeature(widths.left, sizes, { id: 'dust-flap-top-left', name: 'Dust flap (top left)' }),
    right: dustFlapFeature(widths.right, sizes, { id: 'dust-flap-top-right', name: 'Dust flap (top right)' }),
  };
}

/**
 * ECMA reverse tuck end (commonly labelled A20.20.03.01): the top tuck closes front-to-back from
 * the back panel, the bottom tuck the other way from the front panel, so cartons nest on the sheet.
 * ECMA straight tuck end (A20.20.01.01): both closures are hinged on the back panel and tuck into
 * the front, leaving a clean front face.
 */
export const REVERSE_TUCK_END_SUBJECT = 'a reverse tuck-end carton';
export const STRAIGHT_TUCK_END_SUBJECT = 'a straight tuck-end carton';

/** The bounds of both ECMA tuck-end cartons. */
export const TUCK_END_LIMITS: StyleLimits = {
  widthMm: { min: 20, max: 400 },
  depthMm: { min: 15, max: 400 },
  heightMm: { min: 20, max: 600 },
  thicknessMm: { min: 0.2, max: 2 },
};

/**
 * A tuck-end carton: the top closure is hinged on the back; the bottom closure on the front
 * (reverse tuck end) or on the back as well (straight tuck end).
 */
export function buildTuckEndCarton(
  inside: BoxDimensions,
  t: number,
  bottomClosureOn: 'front' | 'back',
  subject: string,
  lock: TuckLock,
): StyleGeometry {
  const { widthMm: L, depthMm: W, heightMm: D } = inside;
  const sizes = tuckEndSizes(inside, t, subject, lock);
  const widths = tubePanelWidths(L, W, t);
  const draft = new DielineDraft();
  // Where both tucks close on one wall its two notches leave at least 2 mm of it between them.
  const maxRadius = bottomClosureOn === 'back' ? (sizes.bodyHeight - 2) / 2 : sizes.bodyHeight - 2;
  const top = thumbNotch(widths, sizes, 'back', maxRadius);
  const bottom = thumbNotch(widths, sizes, bottomClosureOn, maxRadius);
  buildTube(draft, {
    notches: { ...(top ? { top } : {}), ...(bottom ? { bottom } : {}) },
    widths,
    bodyHeight: sizes.bodyHeight,
    glueFlap: { width: sizes.glueFlapWidth, endAngleDeg: GLUE_FLAP_END_ANGLE_DEG, id: 'glue-flap', name: 'Glue flap' },
    top: tuckTop(widths, sizes),
    bottom: {
      [bottomClosureOn]: closureFeature(
        widths[bottomClosureOn],
        sizes,
        { id: 'bottom', name: 'Bottom closure' },
        { id: 'tuck-bottom', name: 'Bottom tuck flap' },
      ),
      left: dustFlapFeature(widths.left, sizes, { id: 'dust-flap-bottom-left', name: 'Dust flap (bottom left)' }),
      right: dustFlapFeature(widths.right, sizes, { id: 'dust-flap-bottom-right', name: 'Dust flap (bottom right)' }),
    },
  });
  return draft.finish(tubeOutside(L, W, D, t), { ...tuckEndParameters(sizes), ...lockParameters(widths, sizes, top, bottom) });
}
