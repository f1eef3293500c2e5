/**
 * Tuck top, auto (crash-lock) bottom (ECMA A60 family). The top is the straight tuck-end top.
 *
 * Bottom: four flaps. Seen from outside, every flap is bounded by 45° lines from the corners, so
 * the flaps tile the bottom like a hip roof. The two lock flaps sit on the longer pair of panels
 * (back and front when L ≥ W, else left and right) and reach past the centre of the shorter span,
 * overlapping by `lockOverlap`, one under the other. Each lock flap carries a triangular glue tab
 * at its left end behind a 45° crease; at the factory the tab is folded back and glued onto the
 * right end of the side flap to its left, which makes that corner a one-degree-of-freedom
 * linkage: squaring the flattened tube swings the bottom into place. The carton is knocked down
 * flat along the two corners where the glued pairs sit.
 */
import { DielineDraft, type StyleGeometry } from '../draft.js';
import { ceilTenth, formatNumber } from '../format.js';
import { offsetPolygon } from '../geometry.js';
import { requireAtLeast, type StyleLimits } from '../limits.js';
import type { BoxDimensions, Point, TuckLock } from '../types.js';
import {
  buildTube,
  GLUE_AREA_INSET_MM,
  plainFlap,
  TUBE_ORDER,
  tubeOutside,
  tubePanelWidths,
  type EdgeFeature,
  type TubePanelId,
} from './tube.js';
import { GLUE_FLAP_END_ANGLE_DEG, lockParameters, thumbNotch, tuckEndParameters, tuckEndSizes, tuckTop } from './tuck-end.js';

export const AUTO_BOTTOM_SUBJECT = 'an auto-bottom carton';

export const AUTO_BOTTOM_LIMITS: StyleLimits = {
  widthMm: { min: 25, max: 400 },
  depthMm: { min: 25, max: 400 },
  heightMm: { min: 30, max: 600 },
  thicknessMm: { min: 0.2, max: 2 },
};

/** Side-flap depth as a share of the shorter bottom side (leaves a 20 % wide tip between the 45° edges). */
const SIDE_FLAP_SHARE = 0.4;
/** Glue tab legs stop short of the side flap's tip edge. */
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

/** Which panels carry the lock flaps: the longer pair, so the flaps reach across the shorter span. */
function lockFlapPanels(inside: BoxDimensions): readonly ['back', 'front'] | readonly ['left', 'right'] {
  return inside.depthMm <= inside.widthMm ? ['back', 'front'] : ['left', 'right'];
}

function crashLockSizes(inside: BoxDimensions, t: number, bodyHeight: number): CrashLockSizes {
  const { widthMm: L, depthMm: W, heightMm: D } = inside;
  const bodyAllowance = bodyHeight - D;
  const sideFlapDepth = SIDE_FLAP_SHARE * Math.min(W + t, L + t);
  const glueTab = sideFlapDepth - Math.min(GLUE_TAB_MARGIN_MAX_MM, 0.2 * sideFlapDepth);
  const acrossBackAndFront = lockFlapPanels(inside)[0] === 'back';
  const span = acrossBackAndFront ? W : L;
  // Mid-plane span the lock flaps cross: back to front is W + t, left to right L + 2t (glue flap).
  const midPlaneSpan = acrossBackAndFront ? W + t : L + 2 * t;
  const lockOverlap = Math.min(LOCK_OVERLAP_MAX_MM, Math.max(LOCK_OVERLAP_MIN_MM, LOCK_OVERLAP_SHARE * span));
  // Reaches the centre of the opening plus half the overlap.
  const lockFlapDepth = (midPlaneSpan + lockOverlap) / 2;
  const minHeight = lockFlapDepth + LOCK_FLAP_WALL_MARGIN_MM - bodyAllowance;
  requireAtLeast(
    'heightMm',
    D,
    minHeight,
    AUTO_BOTTOM_SUBJECT,
    `the ${formatNumber(lockFlapDepth)} mm bottom lock flaps fold inside the flattened ` +
      `carton and need at least ${formatNumber(ceilTenth(minHeight))} mm of wall.`,
  );
  return { sideFlapDepth, glueTab, lockOverlap, lockFlapDepth };
}

/**
 * A lock flap: glue tab behind a 45° crease at its left end, 45° right end, and a stepped leading
 * edge: the left half reaches past the centre by half the overlap, the right half stops the
 * overlap short of that. Facing each other across the bottom, the two flaps' deep halves lie on
 * opposite sides, so each deep half runs in beside the other's short half and the steps hook.
 */
function lockFlapFeature(width: number, sizes: CrashLockSizes, side: TubePanelId): EdgeFeature {
  const { sideFlapDepth: hW, glueTab: hT, lockFlapDepth: hL, lockOverlap } = sizes;
  const tab: Point[] = [[0, 0], [0, hT], [hT, hT]];
  const hS = hL - lockOverlap;
  const middle = width / 2;
  // Past the tab the flap follows the 45° line to the W flap's depth, then drops to its tip.
  const rightEnd: Point[] = hS > hW + 1 ? [[width - hW, hS], [width - hW, hW], [width, 0]] : [[width - hS, hS], [width, 0]];
  const rest: Point[] = [[hW, hW], [hW, hL], [middle, hL], [middle, hS], ...rightEnd];
  return {
    profile: [...tab, ...rest],
    panels: [
      { id: `bottom-flap-${side}`, name: `Bottom lock flap (${side})`, role: 'lock-flap', polygon: [[0, 0], [hT, hT], ...rest] },
      { id: `bottom-flap-${side}-glue-tab`, name: `Bottom glue tab (${side})`, role: 'glue-tab', polygon: tab },
    ],
    creases: [[[0, 0], [width, 0]], [[0, 0], [hT, hT]]],
    glue: [{ panelId: `bottom-flap-${side}-glue-tab`, polygon: offsetPolygon(tab, -GLUE_AREA_INSET_MM) }],
  };
}

/** A side flap with 45° ends; its right-end triangle receives the neighbouring glue tab. */
function sideFlapFeature(width: number, sizes: CrashLockSizes, side: TubePanelId): EdgeFeature {
  const hW = sizes.sideFlapDepth;
  const profile: Point[] = [[0, 0], [hW, hW], [width - hW, hW], [width, 0]];
  return plainFlap(width, profile, { id: `bottom-flap-${side}`, name: `Bottom side flap (${side})`, role: 'minor-flap' });
}

export function buildTuckTopAutoBottom(inside: BoxDimensions, t: number, tuckLock: TuckLock): StyleGeometry {
  const { widthMm: L, depthMm: W, heightMm: D } = inside;
  const sizes = tuckEndSizes(inside, t, AUTO_BOTTOM_SUBJECT, tuckLock);
  const lock = crashLockSizes(inside, t, sizes.bodyHeight);
  const widths = tubePanelWidths(L, W, t);
  const locks: readonly TubePanelId[] = lockFlapPanels(inside);
  const bottom: Partial<Record<TubePanelId, EdgeFeature>> = {};
  for (const id of TUBE_ORDER) {
    bottom[id] = locks.includes(id) ? lockFlapFeature(widths[id], lock, id) : sideFlapFeature(widths[id], lock, id);
  }
  const draft = new DielineDraft();
  const notch = thumbNotch(widths, sizes, 'back', sizes.bodyHeight - 2);
  buildTube(draft, {
    ...(notch ? { notches: { top: notch } } : {}),
    widths,
    bodyHeight: sizes.bodyHeight,
    glueFlap: { width: sizes.glueFlapWidth, endAngleDeg: GLUE_FLAP_END_ANGLE_DEG, id: 'glue-flap', name: 'Glue flap' },
    top: tuckTop(widths, sizes),
    bottom,
  });
  const parameters = {
    ...tuckEndParameters(sizes),
    ...lockParameters(widths, sizes, notch),
    lockFlapDepthMm: lock.lockFlapDepth,
    sideFlapDepthMm: lock.sideFlapDepth,
    glueTabMm: lock.glueTab,
    lockOverlapMm: lock.lockOverlap,
  };
  return draft.finish(tubeOutside(L, W, D, t), parameters);
}
