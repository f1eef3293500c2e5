/**
 * Tuck-end closures shared by the ECMA reverse and straight tuck-end cartons and the tuck top of
 * the auto-bottom carton: a closure panel hinged on an L panel with a tuck flap, and dust flaps
 * on the W panels.
 */
import { DielineDraft, type StyleGeometry } from '../draft.js';
import { ceilTenth, formatNumber } from '../format.js';
import { requireAtLeast } from '../limits.js';
import { roundedPolyline } from '../profile.js';
import type { BoxDimensions, Point } from '../types.js';
import { buildTube, tubeOutside, tubePanelWidths, type EdgeFeature, type TubeSpec } from './tube.js';

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
}

export function tuckEndSizes(inside: BoxDimensions, t: number, subject: string): TuckEndSizes {
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
  };
}

interface PanelName {
  id: string;
  name: string;
}

/** A closure panel the width of its L panel, with a rounded tuck flap centred on its far edge. */
export function closureFeature(width: number, sizes: TuckEndSizes, closure: PanelName, tuck: PanelName): EdgeFeature {
  const depth = sizes.closureDepth;
  const inset = (width - sizes.tuckWidth) / 2;
  const r = sizes.tuckCornerRadius;
  const tuckOutline = roundedPolyline([
    { point: [inset, depth] },
    { point: [inset, depth + sizes.tuckDepth], radius: r },
    { point: [width - inset, depth + sizes.tuckDepth], radius: r },
    { point: [width - inset, depth] },
  ]);
  return {
    profile: [[0, 0], [0, depth], ...tuckOutline, [width, depth], [width, 0]],
    panels: [
      {
        id: closure.id,
        name: closure.name,
        role: 'closure',
        polygon: [
          [0, 0],
          [0, depth],
          [width, depth],
          [width, 0],
        ],
      },
      { id: tuck.id, name: tuck.name, role: 'tuck', polygon: tuckOutline },
    ],
    creases: [
      [
        [0, 0],
        [width, 0],
      ],
      [
        [inset, depth],
        [width - inset, depth],
      ],
    ],
  };
}

/** A dust flap with a 45° relief and a shoulder at each end, then a 15° taper to the tip. */
export function dustFlapFeature(width: number, sizes: TuckEndSizes, flap: PanelName): EdgeFeature {
  const h = sizes.dustFlapHeight;
  const r = sizes.dustFlapRelief;
  const shoulder = sizes.dustFlapShoulder;
  const taper = (h - shoulder) * Math.tan((DUST_FLAP_TAPER_DEG * Math.PI) / 180);
  const profile: Point[] = [
    [0, 0],
    [r, r],
    [r, shoulder],
    [r + taper, h],
    [width - r - taper, h],
    [width - r, shoulder],
    [width - r, r],
    [width, 0],
  ];
  return {
    profile,
    panels: [{ id: flap.id, name: flap.name, role: 'dust-flap', polygon: profile }],
    creases: [
      [
        [0, 0],
        [width, 0],
      ],
    ],
  };
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
 * A tuck-end carton: the top closure is hinged on the back; the bottom closure on the front
 * (reverse tuck end) or on the back as well (straight tuck end).
 */
export function buildTuckEndCarton(
  inside: BoxDimensions,
  t: number,
  bottomClosureOn: 'front' | 'back',
  subject: string,
): StyleGeometry {
  const { widthMm: L, depthMm: W, heightMm: D } = inside;
  const sizes = tuckEndSizes(inside, t, subject);
  const widths = tubePanelWidths(L, W, t);
  const draft = new DielineDraft();
  buildTube(draft, {
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
  return draft.finish(tubeOutside(L, W, D, t), tuckEndParameters(sizes));
}
