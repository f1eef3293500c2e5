/**
 * Folds a box dieline. The panels and creases are the dieline's own: panels that share a crease
 * form a tree (breadth first from a root panel per piece), and every crease turns its child panel
 * about that crease towards the unprinted side, so the printed side ends up outside. Each panel
 * keeps its flat shape exactly (a rigid motion), so areas and edge lengths in 3D are the dieline's.
 *
 * A panel that closes over or under another layer sits a layer apart from it: its board moves by
 * whole calipers along its own normal (LAYERS), which opens its hinge by that much and no more.
 *
 * Frames: the blank is x right, y down, z into the sheet (the unprinted side), in millimetres.
 * The result is in the model frame: millimetres, +Y up, the front panel facing +Z, the box standing
 * on y = 0 (its outer faces) and centred on the Y axis.
 */
import { distanceToSegment } from '../dielines/geometry.js';
import type { Dieline, DielinePanel, Point } from '../dielines/index.js';
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

/** A panel of the fold tree: how it turns about the crease that joins it to its parent. */
export interface HingedPanel {
  panel: DielinePanel;
  /** The panel it is hinged on; absent for a piece's root. */
  parent?: string;
  /** The crease it turns about (blank mm), on the parent's outline. */
  crease?: readonly [Point, Point];
  /** The closed turn about the crease, radians, signed so it carries the panel to the unprinted side. */
  angle: number;
  /** How far the panel's board sits from its hinge along its own normal (+ unprinted side), mm. */
  offsetMm: number;
  /** The root panel of its piece. */
  root: string;
}

export interface BoxFolding {
  /** Parents before their children. */
  panels: HingedPanel[];
  /** Per piece root: its placement (root's blank frame → model mm) in the closed box. */
  closedRoots: Map<string, Rigid>;
  thicknessMm: number;
  /**
   * Every panel's blank → model transform (mm), each turned `fraction(panel)` of its closed turn
   * (1 closed, 0 flat; more than 1 turns past it) with the piece roots where `place` puts them.
   */
  pose(fraction: (panel: HingedPanel) => number, place?: (root: string) => Rigid): Map<string, Rigid>;
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

/**
 * Layers, in calipers along the panel's own normal (negative: towards its printed side, out of
 * the box). A closure over dust flaps and the major flaps over the minor ones sit one layer out;
 * a tuck one layer in, behind the wall it tucks into; the crash-lock bottom's minor flaps one layer
 * in, its front lock flap one out, over the back one.
 */
const LAYERS: Record<string, Record<string, number>> = {
  'ecma-reverse-tuck-end': { top: -1, bottom: -1, 'tuck-top': 1, 'tuck-bottom': 1 },
  'ecma-straight-tuck-end': { top: -1, bottom: -1, 'tuck-top': 1, 'tuck-bottom': 1 },
  'tuck-top-auto-bottom': { top: -1, 'tuck-top': 1, 'bottom-flap-left': 1, 'bottom-flap-right': 1, 'bottom-flap-front': -1 },
  'fefco-0201': { 'top-flap-front': -1, 'top-flap-back': -1, 'bottom-flap-front': -1, 'bottom-flap-back': -1 },
};

/**
 * Creases that stay flat in the set-up box: the crash-lock bottom's glue tabs lie glued on the
 * minor flaps, in the plane of the lock flap they are cut from (they only bend when it collapses).
 */
const FLAT_ROLES: ReadonlySet<string> = new Set(['glue-tab']);

const QUARTER_TURN = Math.PI / 2;
const ON_LINE_MM = 0.01;

/** The unprinted side of the blank. */
const INWARD: Vec3 = [0, 0, 1];

/** The panel each piece folds about (it stays put while the others turn), in piece order. */
export function foldRoots(style: string): string[] {
  return (BOX_ORIENTATION[style] ?? []).map((orientation) => orientation.root);
}

/** The closed box: every panel's blank → model transform. */
export function foldDieline(dieline: Dieline): FoldedPanel[] {
  const folding = foldTree(dieline);
  const closed = folding.pose(() => 1);
  const byId = new Map(folding.panels.map((hinged) => [hinged.panel.id, hinged]));
  return dieline.panels
    .filter((panel) => closed.has(panel.id))
    .map((panel) => {
      const parent = byId.get(panel.id)!.parent;
      return { panel, transform: closed.get(panel.id)!, ...(parent !== undefined ? { hingedOn: parent } : {}) };
    });
}

export function foldTree(dieline: Dieline): BoxFolding {
  const orientations = BOX_ORIENTATION[dieline.style];
  if (!orientations) throw new Error(`No folding rules for style ${dieline.style}`);
  // A wrap's folds hinge its panels as creases hinge a board's.
  const creases = dieline.paths
    .filter((path) => FOLDING_RULE_TYPES.includes(path.type) || path.type === 'fold')
    .map((path) => [path.points[0]!, path.points[1]!] as const);
  const layers = LAYERS[dieline.style] ?? {};
  const t = dieline.thicknessMm;
  const panels: HingedPanel[] = [];
  for (const orientation of orientations) {
    const root = dieline.panels.find((panel) => panel.id === orientation.root);
    if (!root) throw new Error(`Style ${dieline.style} has no panel ${orientation.root}`);
    const piece = dieline.panels.filter((panel) => panel.pieceId === root.pieceId);
    panels.push(...hingeTree(root, piece, creases, (panel) => (layers[panel.id] ?? 0) * t));
  }

  const pose = (fraction: (panel: HingedPanel) => number, place: (root: string) => Rigid): Map<string, Rigid> => {
    const out = new Map<string, Rigid>();
    for (const hinged of panels) {
      const { panel, parent, crease } = hinged;
      const offset: Rigid = { rotation: IDENTITY, translation: [0, 0, hinged.offsetMm] };
      if (parent === undefined || !crease) {
        out.set(panel.id, compose(place(panel.id), offset));
        continue;
      }
      const turn = hinge(crease, hinged.angle * fraction(hinged));
      out.set(panel.id, compose(compose(out.get(parent)!, turn), offset));
    }
    return out;
  };

  // Each piece closed about its own root, then turned (front +Z, up +Y), the second seated over
  // the first, the whole centred on the Y axis with its lowest outer face on y = 0.
  const identity = (): Rigid => ({ rotation: IDENTITY, translation: [0, 0, 0] });
  const local = pose(() => 1, identity);
  const closedRoots = new Map<string, Rigid>();
  const placed = new Map<string, Rigid>();
  for (const orientation of orientations) {
    const rotation = orient(local, orientation);
    const members = panels.filter((hinged) => hinged.root === orientation.root);
    const piece = new Map(members.map((hinged) => [hinged.panel.id, compose(rotation, local.get(hinged.panel.id)!)]));
    const shift = placed.size > 0 ? seat(piece, placed, panels, t) : ([0, 0, 0] as Vec3);
    closedRoots.set(orientation.root, { rotation: rotation.rotation, translation: shift });
    for (const [id, transform] of piece) placed.set(id, { rotation: transform.rotation, translation: add(transform.translation, shift) });
  }
  const { min, max } = extent(placed, panels, t);
  const centre: Vec3 = [-(min[0] + max[0]) / 2, -min[1], -(min[2] + max[2]) / 2];
  for (const [id, transform] of closedRoots) {
    closedRoots.set(id, { rotation: transform.rotation, translation: add(transform.translation, centre) });
  }

  return {
    panels,
    closedRoots,
    thicknessMm: t,
    pose: (fraction, place = (root) => closedRoots.get(root)!) => pose(fraction, place),
  };
}

/** Breadth-first over the crease graph of one piece. */
function hingeTree(
  root: DielinePanel,
  panels: DielinePanel[],
  creases: ReadonlyArray<readonly [Point, Point]>,
  offsetMm: (panel: DielinePanel) => number,
): HingedPanel[] {
  const out: HingedPanel[] = [{ panel: root, angle: 0, offsetMm: 0, root: root.id }];
  const done = new Set([root.id]);
  const queue: DielinePanel[] = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const crease of creases) {
      if (!onBoundary(parent, crease)) continue;
      for (const child of panels) {
        if (done.has(child.id) || !onBoundary(child, crease)) continue;
        done.add(child.id);
        out.push({
          panel: child,
          parent: parent.id,
          crease,
          angle: FLAT_ROLES.has(child.role) ? 0 : turnSign(crease, centroid(child.polygon)) * QUARTER_TURN,
          offsetMm: offsetMm(child),
          root: root.id,
        });
        queue.push(child);
      }
    }
  }
  return out;
}

/** +1 or −1: the turn about the crease (a → b) that carries `towards` to the unprinted side. */
function turnSign([a, b]: readonly [Point, Point], towards: Point): number {
  const axis = normalize([b[0] - a[0], b[1] - a[1], 0]);
  const arm: Vec3 = [towards[0] - a[0], towards[1] - a[1], 0];
  return dot(cross(axis, arm), INWARD) >= 0 ? 1 : -1;
}

/** The turn by `angle` radians about the crease a → b (right-handed), as a rigid motion of the blank. */
export function hinge([a, b]: readonly [Point, Point], angle: number): Rigid {
  const origin: Vec3 = [a[0], a[1], 0];
  const rotation = axisAngle(normalize([b[0] - a[0], b[1] - a[1], 0]), angle);
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

/** The shift that seats a second piece (the rigid box's lid) over the first: same footprint centre, one caliper above. */
function seat(piece: Map<string, Rigid>, placed: Map<string, Rigid>, panels: HingedPanel[], thicknessMm: number): Vec3 {
  const below = extent(placed, panels, 0);
  const above = extent(piece, panels, 0);
  return [
    (below.min[0] + below.max[0]) / 2 - (above.min[0] + above.max[0]) / 2,
    below.max[1] + thicknessMm - above.max[1],
    (below.min[2] + below.max[2]) / 2 - (above.min[2] + above.max[2]) / 2,
  ];
}

/** The bounding box of the given panels' boards (mid-surface ± half of `thicknessMm`). */
export function extent(transforms: Map<string, Rigid>, panels: HingedPanel[], thicknessMm: number): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const half = thicknessMm / 2;
  for (const { panel } of panels) {
    const transform = transforms.get(panel.id);
    if (!transform) continue;
    for (const [x, y] of panel.polygon) {
      for (const z of half > 0 ? [-half, half] : [0]) {
        const p = applyRigid(transform, [x, y, z]);
        for (let i = 0; i < 3; i++) {
          min[i] = Math.min(min[i]!, p[i]!);
          max[i] = Math.max(max[i]!, p[i]!);
        }
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

export function distanceToLine(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  if (len === 0) return Math.hypot(p[0] - a[0], p[1] - a[1]);
  return Math.abs((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / len;
}
