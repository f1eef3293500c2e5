/**
 * Tuck top, auto (crash-lock) bottom (ECMA A60 family). The top is the straight tuck-end top.
 *
 * Bottom: four flaps. Seen from outside, every flap is bounded by 45° lines from the corners, so
 * the flaps tile the bottom like a hip roof. The two L flaps (back, front) carry a triangular
 * glue tab at their left end behind a 45° crease; at the factory the tab is folded back and glued
 * onto the W flap on its left (the W flap's right end), which makes the corner a one-degree-of-
 * freedom linkage: squaring the flattened tube swings the bottom into place. The L flaps reach
 * past the centre and overlap by `lockOverlap`, one under the other, which locks the bottom.
 * The carton is knocked down flat along the left/front and seam (right/back) corners, where the
 * glued pairs sit.
 */
import { DielineDraft, type StyleGeometry } from '../draft.js';
import { ceilTenth, formatNumber } from '../format.js';
import { offsetPolygon } from '../geometry.js';
import { requireAtLeast, type StyleLimits } from '../limits.js';
import type { BoxDimensions, Point } from '../types.js';
import { buildTube, GLUE_AREA_INSET_MM, tubeOutside, tubePanelWidths, type EdgeFeature } from './tube.js';
import { GLUE_FLAP_END_ANGLE_DEG, tuckEndParameters, tuckEndSizes, tuckTop } from './tuck-end.js';

export const AUTO_BOTTOM_SUBJECT = 'an auto-bottom carton';

export const AUTO_BOTTOM_LIMITS: StyleLimits = {
  widthMm: { min: 25, max: 400 },
  depthMm: { min: 25, max: 400 },
  heightMm: { min: 30, max: 600 },
  thicknessMm: { min: 0.2, max: 2 },
};

/** W-flap depth as a share of the shorter bottom side (leaves a 20 % wide tip between the 45° edges). */
const SIDE_FLAP_SHARE = 0.4;
/** Glue tab legs stop short of the W flap's tip edge. */
const GLUE_TAB_MARGIN_MAX_MM = 3;
const LOCK_OVERLAP_SHARE = 0.3;
const LOCK_OVERLAP_MIN_MM = 6;
const LOCK_OVERLAP_MAX_MM = 30;
/** The lock flaps fold up inside the flattened tube and must leave this much wall above them. */
const LOCK_FLAP_WALL_MARGIN_MM = 5;

interface CrashLockSizes {
  sideFlapDepth: number;
  glueTab: number;
  lockFlapDepth: number;
  lockOverlap: number;
}

function crashLockSizes(inside: BoxDimensions, t: number, bodyHeight: number): CrashLockSizes {
  const { widthMm: L, depthMm: W, heightMm: D } = inside;
  const sideFlapDepth = SIDE_FLAP_SHARE * Math.min(W + t, L + t);
  const glueTab = sideFlapDepth - Math.min(GLUE_TAB_MARGIN_MAX_MM, 0.2 * sideFlapDepth);
  const lockOverlap = Math.min(LOCK_OVERLAP_MAX_MM, Math.max(LOCK_OVERLAP_MIN_MM, LOCK_OVERLAP_SHARE * W));
  // Reaches the centre of the opening (half the back-to-front mid-plane span) plus half the overlap.
  const lockFlapDepth = (W + t + lockOverlap) / 2;
  const minHeight = D + lockFlapDepth + LOCK_FLAP_WALL_MARGIN_MM - bodyHeight;
  requireAtLeast(
    'heightMm',
    D,
    minHeight,
    AUTO_BOTTOM_SUBJECT,
    `the ${formatNumber(lockFlapDepth)} mm bottom lock flaps fold inside the flattened carton and need at least ${formatNumber(ceilTenth(minHeight))} mm of wall.`,
  );
  return { sideFlapDepth, glueTab, lockOverlap, lockFlapDepth };
}

/** An L flap: glue tab behind a 45° crease at its left end, 45° right end, tip past the centre. */
function lockFlapFeature(width: number, sizes: CrashLockSizes, side: 'back' | 'front'): EdgeFeature {
  const { sideFlapDepth: hW, glueTab: hT, lockFlapDepth: hL } = sizes;
  const tab: Point[] = [
    [0, 0],
    [0, hT],
    [hT, hT],
  ];
  const main: Point[] = [
    [0, 0],
    [hT, hT],
    [hW, hW],
    [hW, hL],
    [width - hW, hL],
    [width - hW, hW],
    [width, 0],
  ];
  const label = side === 'back' ? 'back' : 'front';
  return {
    profile: [[0, 0], [0, hT], [hT, hT], [hW, hW], [hW, hL], [width - hW, hL], [width - hW, hW], [width, 0]],
    panels: [
      { id: `bottom-flap-${side}`, name: `Bottom lock flap (${label})`, role: 'lock-flap', polygon: main },
      { id: `bottom-flap-${side}-glue-tab`, name: `Bottom glue tab (${label})`, role: 'glue-tab', polygon: tab },
    ],
    creases: [
      [
        [0, 0],
        [width, 0],
      ],
      [
        [0, 0],
        [hT, hT],
      ],
    ],
    glue: [{ panelId: `bottom-flap-${side}-glue-tab`, polygon: offsetPolygon(tab, -GLUE_AREA_INSET_MM) }],
  };
}

/** A W flap with 45° ends; its right-end triangle receives the neighbouring glue tab. */
function sideFlapFeature(width: number, sizes: CrashLockSizes, side: 'left' | 'right'): EdgeFeature {
  const hW = sizes.sideFlapDepth;
  const profile: Point[] = [
    [0, 0],
    [hW, hW],
    [width - hW, hW],
    [width, 0],
  ];
  return {
    profile,
    panels: [{ id: `bottom-flap-${side}`, name: `Bottom side flap (${side})`, role: 'minor-flap', polygon: profile }],
    creases: [
      [
        [0, 0],
        [width, 0],
      ],
    ],
  };
}

export function buildTuckTopAutoBottom(inside: BoxDimensions, t: number): StyleGeometry {
  const { widthMm: L, depthMm: W, heightMm: D } = inside;
  const sizes = tuckEndSizes(inside, t, AUTO_BOTTOM_SUBJECT);
  const lock = crashLockSizes(inside, t, sizes.bodyHeight);
  const widths = tubePanelWidths(L, W, t);
  const draft = new DielineDraft();
  buildTube(draft, {
    widths,
    bodyHeight: sizes.bodyHeight,
    glueFlap: { width: sizes.glueFlapWidth, endAngleDeg: GLUE_FLAP_END_ANGLE_DEG, id: 'glue-flap', name: 'Glue flap' },
    top: tuckTop(widths, sizes),
    bottom: {
      back: lockFlapFeature(widths.back, lock, 'back'),
      left: sideFlapFeature(widths.left, lock, 'left'),
      front: lockFlapFeature(widths.front, lock, 'front'),
      right: sideFlapFeature(widths.right, lock, 'right'),
    },
  });
  const parameters = {
    ...tuckEndParameters(sizes),
    lockFlapDepthMm: lock.lockFlapDepth,
    sideFlapDepthMm: lock.sideFlapDepth,
    glueTabMm: lock.glueTab,
    lockOverlapMm: lock.lockOverlap,
  };
  return draft.finish(tubeOutside(L, W, D, t), parameters);
}
