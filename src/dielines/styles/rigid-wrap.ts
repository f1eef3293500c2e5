/**
 * The printed wraps of the two-piece rigid box: one sheet of paper per tray, glued over the
 * greyboard's outside, folded over the top edge of every wall and turned in down its inside.
 * Laid out like the trays (base left, seen from below; lid right, seen from above), so every tray
 * panel has a wrap panel of the same id in the same place and frame: placements carry over.
 *
 * Per tray with outside length Lo = L + 2t, outside depth Wo = W + 2t and wall height Hw = H + t
 * (t = board caliper, T = turn-in):
 * - bottom (or lid top) Lo × Wo; every wall Hw high and as long as the tray's outside (the short
 *   walls too, covering the long walls' end grain);
 * - a rim strip t wide over each wall's top edge, then the turn-in, T deep, down the inside; the
 *   turn-ins are notched by t at each end, so each covers exactly its inside face (L or W long) and
 *   the four meet at the inside corners without overlapping;
 * - the long walls carry corner ears E = min(T, 0.6·Hw, Wo/3) wide that wrap round the upright
 *   corners under the short walls' wrap, mitred at 45° where they meet the bottom corner.
 * Folds over board edges are `fold` lines, not creases: nothing is creased on paper.
 */
import { DielineDraft, rect, type StyleGeometry } from '../draft.js';
import type { Range } from '../limits.js';
import type { BoxDimensions, FrameRotation, Point } from '../types.js';
import { BASE_TRAY, LID_TRAY, PIECE_GAP_MM, rigidTrayInsides, type TrayInside, type TrayNames } from './rigid-two-piece.js';

export const TURN_IN_LIMITS: Range = { min: 8, max: 30 };
export const DEFAULT_TURN_IN_MM = 15;
const EAR_SHARE_OF_WALL = 0.6;
const EAR_SHARE_OF_DEPTH = 1 / 3;

/** The turned-in panels read upright from inside the tray: half a turn from their wall. */
const halfTurn = (rotation: FrameRotation): FrameRotation => ((rotation + 180) % 360) as FrameRotation;

interface WrapSize {
  /** Extent of the wrap beyond the bottom on every side: wall, rim and turn-in. */
  reach: number;
  earWidth: number;
}

function wrapSize(inside: TrayInside, t: number, turnIn: number): WrapSize {
  const Hw = inside.height + t;
  const Wo = inside.depth + 2 * t;
  return { reach: Hw + t + turnIn, earWidth: Math.min(turnIn, EAR_SHARE_OF_WALL * Hw, EAR_SHARE_OF_DEPTH * Wo) };
}

/** Adds a tray's wrap whose bottom panel's top-left corner is at `origin`. */
function addWrap(draft: DielineDraft, origin: Point, inside: TrayInside, t: number, turnIn: number, names: TrayNames): void {
  const Lo = inside.length + 2 * t;
  const Wo = inside.depth + 2 * t;
  const Hw = inside.height + t;
  const s = Hw + t;
  const u = s + turnIn;
  const E = wrapSize(inside, t, turnIn).earWidth;
  const at = ([x, y]: Point): Point => [origin[0] + x, origin[1] + y];
  const pieceId = names.prefix;
  // Clockwise from the back turn-in's top-left corner; the V at each bottom corner is the mitre.
  const outline: Point[] = [
    [t, -u], [Lo - t, -u], [Lo - t, -s], [Lo, -s], [Lo, -Hw], [Lo + E, -Hw], [Lo + E, -E], [Lo, 0],
    [Lo + Hw, 0], [Lo + Hw, t], [Lo + u, t], [Lo + u, Wo - t], [Lo + Hw, Wo - t], [Lo + Hw, Wo], [Lo, Wo],
    [Lo + E, Wo + E], [Lo + E, Wo + Hw], [Lo, Wo + Hw], [Lo, Wo + s], [Lo - t, Wo + s], [Lo - t, Wo + u],
    [t, Wo + u], [t, Wo + s], [0, Wo + s], [0, Wo + Hw], [-E, Wo + Hw], [-E, Wo + E], [0, Wo],
    [-Hw, Wo], [-Hw, Wo - t], [-u, Wo - t], [-u, t], [-Hw, t], [-Hw, 0], [0, 0],
    [-E, -E], [-E, -Hw], [0, -Hw], [0, -s], [t, -s],
  ];
  draft.addPiece(pieceId, names.prefix === 'base' ? 'Base wrap' : 'Lid wrap', outline.map(at));

  const r = names.rotations;
  const label = names.prefix === 'base' ? 'Base' : 'Lid';
  const panel = (
    id: string,
    name: string,
    role: 'bottom' | 'lid' | 'wall' | 'rim' | 'inner-wall' | 'corner-flap',
    polygon: Point[],
    rotation: FrameRotation,
  ): void => {
    draft.addPanel(`${names.prefix}-${id}`, name, role, polygon.map(at), pieceId, rotation);
  };
  const fold = (a: Point, b: Point): void => {
    draft.folds.push([at(a), at(b)]);
  };

  panel(names.centre.id, names.centre.name, names.prefix === 'base' ? 'bottom' : 'lid', rect(0, 0, Lo, Wo), r.centre);
  // The long walls: back (y < 0) and front (y > Wo), each with its rim, turn-in and two ears.
  for (const side of ['back', 'front'] as const) {
    const sign = side === 'back' ? -1 : 1;
    const y = (d: number) => (side === 'back' ? -d : Wo + d);
    const edge = side === 'back' ? 0 : Wo;
    const rotation = r[side];
    panel(side, `${label} ${side} wall`, 'wall', rect(0, Math.min(edge, y(Hw)), Lo, Math.max(edge, y(Hw))), rotation);
    panel(`${side}-rim`, `${label} ${side} rim`, 'rim', rect(0, Math.min(y(Hw), y(s)), Lo, Math.max(y(Hw), y(s))), rotation);
    panel(
      `${side}-turn-in`,
      `${label} ${side} turn-in`,
      'inner-wall',
      rect(t, Math.min(y(s), y(u)), Lo - t, Math.max(y(s), y(u))),
      halfTurn(rotation),
    );
    for (const [end, x0, dx] of [[names.west, 0, -1], [names.east, Lo, 1]] as const) {
      const ear: Point[] = [[x0, edge], [x0, y(Hw)], [x0 + dx * E, y(Hw)], [x0 + dx * E, edge + sign * E]];
      panel(`${side}-ear-${end}`, `${label} ${side} corner ear (${end})`, 'corner-flap', ear, rotation);
      fold([x0, edge], [x0, y(Hw)]);
    }
    fold([0, edge], [Lo, edge]);
    fold([0, y(Hw)], [Lo, y(Hw)]);
    fold([t, y(s)], [Lo - t, y(s)]);
  }
  // The short walls, west (x < 0) and east (x > Lo), as long as the outside depth.
  for (const [end, which] of [[names.west, 'west'], [names.east, 'east']] as const) {
    const x = (d: number) => (which === 'west' ? -d : Lo + d);
    const edge = which === 'west' ? 0 : Lo;
    const rotation = r[which];
    panel(end, `${label} ${end} wall`, 'wall', rect(Math.min(edge, x(Hw)), 0, Math.max(edge, x(Hw)), Wo), rotation);
    panel(`${end}-rim`, `${label} ${end} rim`, 'rim', rect(Math.min(x(Hw), x(s)), t, Math.max(x(Hw), x(s)), Wo - t), rotation);
    panel(
      `${end}-turn-in`,
      `${label} ${end} turn-in`,
      'inner-wall',
      rect(Math.min(x(s), x(u)), t, Math.max(x(s), x(u)), Wo - t),
      halfTurn(rotation),
    );
    fold([edge, 0], [edge, Wo]);
    fold([x(Hw), t], [x(Hw), Wo - t]);
    fold([x(s), t], [x(s), Wo - t]);
  }
}

export interface WrapDimensions {
  base: { width: number; height: number };
  lid: { width: number; height: number };
}

/** Each wrap's flat size: the tray's outside plus wall, rim and turn-in on every side. */
export function wrapSizes(inside: BoxDimensions, t: number, turnIn: number, lidHeightMm?: number): WrapDimensions {
  const trays = rigidTrayInsides(inside, t, lidHeightMm);
  const flat = (tray: TrayInside) => {
    const { reach } = wrapSize(tray, t, turnIn);
    return { width: tray.length + 2 * t + 2 * reach, height: tray.depth + 2 * t + 2 * reach };
  };
  return { base: flat(trays.base), lid: flat(trays.lid) };
}

export function buildRigidWrap(
  inside: BoxDimensions,
  t: number,
  bleedMm: number,
  turnIn: number,
  outside: BoxDimensions,
  lidHeightMm?: number,
): StyleGeometry {
  const trays = rigidTrayInsides(inside, t, lidHeightMm);
  const sizes = wrapSizes(inside, t, turnIn, lidHeightMm);
  const baseReach = wrapSize(trays.base, t, turnIn).reach;
  const lidReach = wrapSize(trays.lid, t, turnIn).reach;
  const gap = PIECE_GAP_MM + 2 * bleedMm;
  const draft = new DielineDraft();
  addWrap(draft, [baseReach, baseReach], trays.base, t, turnIn, BASE_TRAY);
  addWrap(draft, [sizes.base.width + gap + lidReach, lidReach], trays.lid, t, turnIn, LID_TRAY);
  return draft.finish(outside, {
    turnInMm: turnIn,
    baseWrapWidthMm: sizes.base.width,
    baseWrapHeightMm: sizes.base.height,
    lidWrapWidthMm: sizes.lid.width,
    lidWrapHeightMm: sizes.lid.height,
    baseEarWidthMm: wrapSize(trays.base, t, turnIn).earWidth,
    lidEarWidthMm: wrapSize(trays.lid, t, turnIn).earWidth,
    pieceGapMm: gap,
  });
}
