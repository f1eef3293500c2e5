/**
 * Two-piece rigid set-up box: a greyboard base tray and a telescoping lid tray, laid out side by
 * side on one sheet (base left, lid right). Each tray is a cross: the centre panel with four walls
 * folded up on V-grooves, the long walls running the full length and the short walls fitting
 * between them; the corners are closed with stay tape. The fold lines are drawn where the board
 * bends (its outer face), so the centre panel is the tray's outside size.
 *
 * The base is drawn outside up, i.e. seen from below (its left wall lies on the right of the
 * sheet); the lid is drawn outside up as seen from above. Panel ids carry the piece prefix
 * (`base-…`, `lid-…`), and each piece has its own closed cut outline. The printed wraps (tray
 * outside plus turn-ins) are rigid-wrap.ts's, with the same panel ids; their paper thickness is
 * allowed for in the lid size.
 */
import { DielineDraft, rect, type StyleGeometry } from '../draft.js';
import { requireInRange, type StyleLimits } from '../limits.js';
import type { BoxDimensions, FrameRotation, Point } from '../types.js';

export const RIGID_SUBJECT = 'a rigid two-piece box';

export const RIGID_LIMITS: StyleLimits = {
  widthMm: { min: 30, max: 600 },
  depthMm: { min: 30, max: 600 },
  heightMm: { min: 10, max: 300 },
  thicknessMm: { min: 0.8, max: 4 },
};

/** Paper plus glue added by each wrapped face (0.40–0.45 mm). */
export const WRAP_ALLOWANCE_MM = 0.45;
/** Lid-to-base play across each dimension (target 0.5–0.8 mm). */
export const LID_CLEARANCE_MM = 0.6;
const LID_HEIGHT_SHARE = 1 / 3;
const LID_MIN_HEIGHT_MM = 20;
const LID_HEIGHT_MIN_MM = 10;
/** Space between the two pieces, on top of both pieces' bleed. */
export const PIECE_GAP_MM = 10;

export interface TrayNames {
  prefix: 'base' | 'lid';
  centre: { id: string; name: string };
  /** Seen outside up the base is viewed from below, which swaps left and right. */
  west: 'left' | 'right';
  east: 'left' | 'right';
  /** Upright-frame rotations of the centre panel and the walls on the sheet. */
  rotations: Readonly<Record<'centre' | 'back' | 'front' | 'west' | 'east', FrameRotation>>;
}

/** Seen from below (outside up): the back reads upright, bottom and front upside down. */
export const BASE_TRAY: TrayNames = {
  prefix: 'base', centre: { id: 'bottom', name: 'Base bottom' }, west: 'right', east: 'left',
  rotations: { centre: 180, back: 0, front: 180, west: 270, east: 90 },
};

/** Seen from above, the walls hang down: the front reads upright, the back upside down. */
export const LID_TRAY: TrayNames = {
  prefix: 'lid', centre: { id: 'top', name: 'Lid top' }, west: 'left', east: 'right',
  rotations: { centre: 0, back: 180, front: 0, west: 90, east: 270 },
};

/** Adds a tray whose centre panel's top-left corner is at `origin`. */
function addTray(
  draft: DielineDraft,
  origin: Point,
  inside: TrayInside,
  t: number,
  names: TrayNames,
): void {
  const Lo = inside.length + 2 * t;
  const Wo = inside.depth + 2 * t;
  const Hw = inside.height + t;
  const W = inside.depth;
  const at = ([x, y]: Point): Point => [origin[0] + x, origin[1] + y];
  const pieceId = names.prefix;
  const outline: Point[] = [
    [0, -Hw],
    [Lo, -Hw],
    [Lo, t],
    [Lo + Hw, t],
    [Lo + Hw, t + W],
    [Lo, t + W],
    [Lo, Wo + Hw],
    [0, Wo + Hw],
    [0, t + W],
    [-Hw, t + W],
    [-Hw, t],
    [0, t],
  ];
  draft.addPiece(pieceId, names.prefix === 'base' ? 'Base tray' : 'Lid tray', outline.map(at));
  const r = names.rotations;
  const panel = (id: string, name: string, role: 'bottom' | 'lid' | 'wall', polygon: Point[], rotation: FrameRotation): void => {
    draft.addPanel(`${names.prefix}-${id}`, name, role, polygon.map(at), pieceId, rotation);
  };
  const label = names.prefix === 'base' ? 'Base' : 'Lid';
  panel(names.centre.id, names.centre.name, names.prefix === 'base' ? 'bottom' : 'lid', rect(0, 0, Lo, Wo), r.centre);
  panel('back', `${label} back wall`, 'wall', rect(0, -Hw, Lo, 0), r.back);
  panel('front', `${label} front wall`, 'wall', rect(0, Wo, Lo, Wo + Hw), r.front);
  panel(names.west, `${label} ${names.west} wall`, 'wall', rect(-Hw, t, 0, t + W), r.west);
  panel(names.east, `${label} ${names.east} wall`, 'wall', rect(Lo, t, Lo + Hw, t + W), r.east);
  const creases: [Point, Point][] = [
    [[0, 0], [Lo, 0]],
    [[0, Wo], [Lo, Wo]],
    [[0, t], [0, t + W]],
    [[Lo, t], [Lo, t + W]],
  ];
  // Greyboard is too thick to crease: the walls fold on milled V-grooves.
  for (const [a, b] of creases) draft.addRule('v-groove', at(a), at(b));
}

export interface TrayInside {
  length: number;
  depth: number;
  height: number;
}

/** The lid's inside height unless asked otherwise: a third of the base, at least 20 mm, at most the base. */
export function defaultLidHeightMm(heightMm: number): number {
  return Math.min(heightMm, Math.max(LID_MIN_HEIGHT_MM, LID_HEIGHT_SHARE * heightMm));
}

/** Bounds of `lidHeightMm`: 10 mm up to the base's height plus a caliper. */
export function lidHeightRange(heightMm: number, t: number): { min: number; max: number } {
  return { min: LID_HEIGHT_MIN_MM, max: heightMm + t };
}

/** The inside sizes of the base tray and the lid tray (the wraps are sized from these too). */
export function rigidTrayInsides(inside: BoxDimensions, t: number, lidHeightMm?: number): { base: TrayInside; lid: TrayInside } {
  const { widthMm: L, depthMm: W, heightMm: H } = inside;
  // The lid's inside fits over the wrapped base and is itself lined by its turn-ins.
  const lidFit = 2 * t + 4 * WRAP_ALLOWANCE_MM + LID_CLEARANCE_MM;
  return {
    base: { length: L, depth: W, height: H },
    lid: { length: L + lidFit, depth: W + lidFit, height: lidHeightMm ?? defaultLidHeightMm(H) },
  };
}

export function buildRigidTwoPiece(inside: BoxDimensions, t: number, bleedMm: number, lidHeightMm?: number): StyleGeometry {
  const { widthMm: L, heightMm: H } = inside;
  if (lidHeightMm !== undefined) requireInRange('lidHeightMm', lidHeightMm, lidHeightRange(H, t), RIGID_SUBJECT);
  const { base, lid } = rigidTrayInsides(inside, t, lidHeightMm);
  const baseWall = H + t;
  const lidWall = lid.height + t;
  const gap = PIECE_GAP_MM + 2 * bleedMm;
  const draft = new DielineDraft();
  addTray(draft, [baseWall, baseWall], base, t, BASE_TRAY);
  const baseWidth = L + 2 * t + 2 * baseWall;
  addTray(draft, [baseWidth + gap + lidWall, lidWall], lid, t, LID_TRAY);
  const lidOutsideLength = lid.length + 2 * t + 2 * WRAP_ALLOWANCE_MM;
  const lidOutsideDepth = lid.depth + 2 * t + 2 * WRAP_ALLOWANCE_MM;
  return draft.finish(
    // Closed: lid outside; height from the base's wrapped underside to the wrapped lid top.
    { widthMm: lidOutsideLength, depthMm: lidOutsideDepth, heightMm: H + 2 * t + 3 * WRAP_ALLOWANCE_MM },
    {
      baseWallHeightMm: baseWall,
      lidInsideLengthMm: lid.length,
      lidInsideDepthMm: lid.depth,
      lidHeightMm: lid.height,
      lidWallHeightMm: lidWall,
      wrapAllowanceMm: WRAP_ALLOWANCE_MM,
      lidClearanceMm: LID_CLEARANCE_MM,
      pieceGapMm: gap,
    },
  );
}
