/**
 * Folds a box dieline closed. The panels and creases are the dieline's own: panels that share a
 * crease form a tree (breadth first from a root panel per piece), and every crease turns its child
 * panel 90° towards the unprinted side, so the printed side ends up outside. Each panel keeps its
 * flat shape exactly (a rigid motion), so areas and edge lengths in 3D are the dieline's.
 *
 * Frames: the blank is x right, y down, z into the sheet (the unprinted side), in millimetres.
 * The result is in the model frame: millimetres, +Y up, the front panel facing +Z, the box standing
 * on y = 0 and centred on the Y axis.
 */
import { distanceToSegment } from '../dielines/geometry.js';
import type { Dieline, DielinePanel, PanelRole, Point } from '../dielines/index.js';
import { FOLDING_RULE_TYPES } from '../dielines/types.js';
import {
  add,
  apply,
  applyRigid,
  axisAngle,
  compose,
  cross,
  dot,
  fromRows,
  IDENTITY,
  normalize,
  sub,
  type Rigid,
  type Vec3,
} from './math.js';

export interface FoldedPanel {
  panel: DielinePanel;
  /** Blank point (x, y, 0) in mm ↦ model point in mm. */
  transform: Rigid;
  /** The panel this one is folded from (across a crease); absent for a piece's root panel. */
  hingedOn?: string;
}

/** Which panel faces the viewer and which one's outside faces up (or down) when the box is closed. */
interface Orientation {
  front: string;
  up: string;
  /** The `up` panel's printed side faces down (a bottom). */
  upFacesDown?: boolean;
}

interface PieceOrientation extends Orientation {
  root: string;
}

const BOX_ORIENTATION: Record<string, PieceOrientation[]> = {
  'ecma-reverse-tuck-end': [{ root: 'front', front: 'front', up: 'top' }],
  'ecma-straight-tuck-end': [{ root: 'front', front: 'front', up: 'top' }],
  'tuck-top-auto-bottom': [{ root: 'front', front: 'front', up: 'top' }],
  'fefco-0201': [{ root: 'front', front: 'front', up: 'top-flap-front' }],
  'fefco-0427': [{ root: 'bottom', front: 'front', up: 'bottom', upFacesDown: true }],
  'rigid-two-piece': [
    { root: 'base-bottom', front: 'base-front', up: 'base-bottom', upFacesDown: true },
    { root: 'lid-top', front: 'lid-front', up: 'lid-top' },
  ],
};

/** Panels that close behind another layer: moved one caliper inwards so the outer layer shows. */
const INNER_ROLES: ReadonlySet<PanelRole> = new Set<PanelRole>([
  'tuck',
  'dust-flap',
  'glue-flap',
  'inner-wall',
  'minor-flap',
  'corner-flap',
  'glue-tab',
]);

const QUARTER_TURN = Math.PI / 2;
const ON_LINE_MM = 0.01;

/** The unprinted side of the blank. */
const INWARD: Vec3 = [0, 0, 1];

/** The panel each piece folds about (it stays put while the others turn), in piece order. */
export function foldRoots(style: string): string[] {
  return (BOX_ORIENTATION[style] ?? []).map((orientation) => orientation.root);
}

export function hasFoldedModel(style: string): boolean {
  return style in BOX_ORIENTATION;
}

export function foldDieline(dieline: Dieline): FoldedPanel[] {
  return folding(dieline)(() => 1);
}

/**
 * The blank's folding: `progress(panel)` is how far (0 flat … 1 closed) the panel has turned about
 * the crease that joins it to its parent. Each piece is placed, seated and centred as in the
 * closed box (worked out once here), so at progress 1 everywhere the pose is foldDieline()'s, and
 * at 0 every piece lies flat in the plane its root panel has in the closed box.
 */
export function folding(dieline: Dieline): (progress: (panel: DielinePanel) => number) => FoldedPanel[] {
  const orientations = BOX_ORIENTATION[dieline.style];
  if (!orientations) throw new Error(`No folding rules for style ${dieline.style}`);
  // A wrap's folds hinge its panels as creases hinge a board's.
  const creases = dieline.paths.filter((path) => FOLDING_RULE_TYPES.includes(path.type) || path.type === 'fold').map((path) => [path.points[0]!, path.points[1]!] as const);
  const byId = new Map(dieline.panels.map((panel) => [panel.id, panel]));
  const closed = new Map<string, Rigid>();
  const parents = new Map<string, string>();
  const pieces: Array<{ root: DielinePanel; panels: DielinePanel[]; place: Rigid; seatShift: Vec3 }> = [];

  for (const orientation of orientations) {
    const root = byId.get(orientation.root);
    if (!root) throw new Error(`Style ${dieline.style} has no panel ${orientation.root}`);
    const panels = dieline.panels.filter((panel) => panel.pieceId === root.pieceId);
    const local = foldPiece(root, panels, creases, () => 1, parents);
    const place = orient(local, orientation);
    const pieceClosed = new Map<string, Rigid>();
    for (const [id, transform] of local) pieceClosed.set(id, compose(place, transform));
    const seatShift = closed.size > 0 ? seat(pieceClosed, closed, byId, dieline.thicknessMm) : ([0, 0, 0] as Vec3);
    for (const [id, transform] of pieceClosed) closed.set(id, transform);
    pieces.push({ root, panels, place, seatShift });
  }

  // Centre the whole model on the Y axis, standing on y = 0 (as the closed box does).
  const { min, max } = extent(closed, byId);
  const shift: Vec3 = [-(min[0] + max[0]) / 2, -min[1], -(min[2] + max[2]) / 2];
  const t = dieline.thicknessMm;

  return (progress) => {
    const folded = new Map<string, Rigid>();
    for (const { root, panels, place, seatShift } of pieces) {
      for (const [id, transform] of foldPiece(root, panels, creases, progress)) {
        const placed = compose(place, transform);
        folded.set(id, { rotation: placed.rotation, translation: add(placed.translation, seatShift) });
      }
    }
    return dieline.panels
      .filter((panel) => folded.has(panel.id))
      .map((panel) => {
        const transform = folded.get(panel.id)!;
        // Inner layers move one caliper along their own inward normal, as they close.
        const inward = INNER_ROLES.has(panel.role) ? apply(transform.rotation, [0, 0, t * progress(panel)]) : ([0, 0, 0] as Vec3);
        const hingedOn = parents.get(panel.id);
        return {
          panel,
          transform: {
            rotation: transform.rotation,
            translation: add(add(transform.translation, shift), inward),
          },
          ...(hingedOn !== undefined ? { hingedOn } : {}),
        };
      });
  };
}

/** Breadth-first over the crease graph of one piece; transforms map blank to the root's blank frame. */
function foldPiece(
  root: DielinePanel,
  panels: DielinePanel[],
  creases: ReadonlyArray<readonly [Point, Point]>,
  progress: (panel: DielinePanel) => number,
  parents?: Map<string, string>,
): Map<string, Rigid> {
  const done = new Map<string, Rigid>([[root.id, { rotation: IDENTITY, translation: [0, 0, 0] }]]);
  const queue: DielinePanel[] = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    const parentTransform = done.get(parent.id)!;
    for (const crease of creases) {
      if (!onBoundary(parent, crease)) continue;
      for (const child of panels) {
        if (done.has(child.id) || !onBoundary(child, crease)) continue;
        done.set(child.id, compose(parentTransform, hinge(crease, centroid(child.polygon), progress(child))));
        parents?.set(child.id, parent.id);
        queue.push(child);
      }
    }
  }
  return done;
}

/** The quarter turn (or `fraction` of it) about the crease that carries `towards` to the unprinted side. */
function hinge([a, b]: readonly [Point, Point], towards: Point, fraction: number): Rigid {
  const origin: Vec3 = [a[0], a[1], 0];
  const axis = normalize([b[0] - a[0], b[1] - a[1], 0]);
  const arm = sub([towards[0], towards[1], 0], origin);
  const sign = dot(cross(axis, arm), INWARD) >= 0 ? 1 : -1;
  const rotation = axisAngle(axis, sign * QUARTER_TURN * fraction);
  return { rotation, translation: sub(origin, apply(rotation, origin)) };
}

/** The rotation that turns the folded piece so `front` faces +Z and `up` faces ±Y. */
function orient(local: Map<string, Rigid>, orientation: Orientation): Rigid {
  const outward = (id: string): Vec3 => {
    const transform = local.get(id);
    if (!transform) throw new Error(`Panel ${id} is not connected to the fold root`);
    return apply(transform.rotation, [0, 0, -1]);
  };
  const z = normalize(outward(orientation.front));
  const upOut = outward(orientation.up);
  const y = normalize(orientation.upFacesDown ? [-upOut[0], -upOut[1], -upOut[2]] : upOut);
  const x = cross(y, z);
  return { rotation: fromRows(x, y, z), translation: [0, 0, 0] };
}

/**
 * Places a second piece (the rigid box's lid) over the first: same footprint centre, its top
 * panel one caliper above the base's highest point. The first piece stays where it is.
 */
function seat(piece: Map<string, Rigid>, placed: Map<string, Rigid>, byId: Map<string, DielinePanel>, thicknessMm: number): Vec3 {
  const below = extent(placed, byId);
  const above = extent(piece, byId);
  const shift: Vec3 = [
    (below.min[0] + below.max[0]) / 2 - (above.min[0] + above.max[0]) / 2,
    below.max[1] + thicknessMm - above.max[1],
    (below.min[2] + below.max[2]) / 2 - (above.min[2] + above.max[2]) / 2,
  ];
  for (const [id, transform] of piece) {
    piece.set(id, { rotation: transform.rotation, translation: add(transform.translation, shift) });
  }
  return shift;
}

function extent(folded: Map<string, Rigid>, byId: Map<string, DielinePanel>): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const [id, transform] of folded) {
    for (const [x, y] of byId.get(id)!.polygon) {
      const p = applyRigid(transform, [x, y, 0]);
      for (let i = 0; i < 3; i++) {
        min[i] = Math.min(min[i]!, p[i]!);
        max[i] = Math.max(max[i]!, p[i]!);
      }
    }
  }
  return { min, max };
}

export function centroid(polygon: readonly Point[]): Point {
  let x = 0;
  let y = 0;
  for (const p of polygon) {
    x += p[0];
    y += p[1];
  }
  return [x / polygon.length, y / polygon.length];
}

/** The crease lies along one of the panel's edges (collinear and overlapping). */
function onBoundary(panel: DielinePanel, [a, b]: readonly [Point, Point]): boolean {
  const mid: Point = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const polygon = panel.polygon;
  for (let i = 0, n = polygon.length; i < n; i++) {
    const p = polygon[i]!;
    const q = polygon[(i + 1) % n]!;
    if (distanceToSegment(mid, p, q) > ON_LINE_MM) continue;
    // Parallel: both crease ends lie on the edge's line.
    if (distanceToLine(a, p, q) <= ON_LINE_MM && distanceToLine(b, p, q) <= ON_LINE_MM) return true;
  }
  return false;
}

function distanceToLine(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  if (len === 0) return Math.hypot(p[0] - a[0], p[1] - a[1]);
  return Math.abs((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / len;
}
