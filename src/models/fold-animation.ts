/**
 * The `fold` animation of a box: the blank lying flat with its printed side up (t = 0), turned
 * over, folded in the order a packer folds it, and set down as the closed box (the last keyframe is
 * the closed pose exactly). Every panel is a node under the panel it is hinged on and only turns
 * about its crease (rotation keys); a piece's root panel carries the piece (rotation and
 * translation keys). Keys are 30 per second, so a player interpolating them stays on the hinges.
 */
import type { Dieline } from '../dielines/index.js';
import { distanceToLine, extent, foldRoots, foldTree, type BoxFolding, type HingedPanel } from './fold.js';
import {
  add,
  apply,
  applyRigid,
  axisAngle,
  cross,
  dot,
  IDENTITY,
  length,
  multiply,
  normalize,
  quaternion,
  sub,
  type Mat3,
  type Rigid,
  type Vec3,
} from './math.js';

export type Quaternion = [number, number, number, number];

export interface NodeTrack {
  /** The panel node's name (its panelId). */
  node: string;
  /** The node's own (parent-relative) rotation at each key. */
  rotations: Quaternion[];
  /** Metres, parent-relative; only on nodes that move as well as turn (a piece's root). */
  translations?: Vec3[];
}

export interface NodeAnimation {
  name: 'fold';
  /** Keyframe times in seconds, increasing from 0. */
  times: number[];
  tracks: NodeTrack[];
}

/** Node transforms of one pose: the panel's fraction of its turn, or a root's placement (mm). */
export interface NodePoser {
  hinged(panel: HingedPanel, fraction: number): Rigid;
  root(panel: HingedPanel, placement: Rigid): Rigid;
}

export const KEYS_PER_SECOND = 30;

/** A stage folds the panels named (by panel id or role) together, over `frames` keys. */
interface Stage {
  panels: string[];
  frames: number;
}

const TUCK_END: Stage[] = [
  { panels: ['wall', 'glue-flap'], frames: 30 },
  { panels: ['dust-flap'], frames: 18 },
  { panels: ['bottom', 'tuck-bottom'], frames: 24 },
  { panels: ['top', 'tuck-top'], frames: 24 },
];

const STAGES: Record<string, Stage[]> = {
  'ecma-reverse-tuck-end': TUCK_END,
  'ecma-straight-tuck-end': TUCK_END,
  'tuck-top-auto-bottom': [
    { panels: ['wall', 'glue-flap'], frames: 30 },
    { panels: ['minor-flap'], frames: 18 },
    { panels: ['bottom-flap-back', 'bottom-flap-back-glue-tab'], frames: 18 },
    { panels: ['bottom-flap-front', 'bottom-flap-front-glue-tab'], frames: 18 },
    { panels: ['dust-flap'], frames: 18 },
    { panels: ['top', 'tuck-top'], frames: 24 },
  ],
  'fefco-0201': [
    { panels: ['wall', 'glue-flap'], frames: 30 },
    { panels: ['minor-flap'], frames: 18 },
    { panels: ['major-flap'], frames: 24 },
  ],
  'fefco-0427': [
    { panels: ['back', 'front', 'corner-flap'], frames: 24 },
    { panels: ['left', 'right'], frames: 24 },
    { panels: ['left-rim', 'left-inner', 'right-rim', 'right-inner'], frames: 24 },
    { panels: ['front-rim', 'front-inner'], frames: 21 },
    { panels: ['dust-flap'], frames: 15 },
    { panels: ['lid', 'tuck'], frames: 30 },
  ],
  'rigid-two-piece': [{ panels: ['wall'], frames: 30 }],
};

/** Turning the blank over at the start, and setting each piece down closed at the end. */
const TURN_OVER_FRAMES = 30;
const SET_DOWN_FRAMES = 30;
/** Clearance kept above the ground and other pieces while a piece is carried, mm. */
const CLEARANCE_MM = 10;
/** Between the pieces of a blank lying side by side, mm. */
const PIECE_GAP_MM = 40;
const DOWN: Vec3 = [0, -1, 0];

const ease = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x));

export function foldAnimation(dieline: Dieline, poser: NodePoser): NodeAnimation {
  const folding = foldTree(dieline);
  const stages = STAGES[dieline.style] ?? [{ panels: [], frames: 30 }];
  const stageOf = (hinged: HingedPanel): number => {
    const index = stages.findIndex((stage) => stage.panels.includes(hinged.panel.id) || stage.panels.includes(hinged.panel.role));
    return index < 0 ? 0 : index;
  };
  const starts: number[] = [];
  let clock = TURN_OVER_FRAMES;
  for (const stage of stages) {
    starts.push(clock);
    clock += stage.frames;
  }
  const setDownStart = clock;
  const lastFrame = setDownStart + SET_DOWN_FRAMES;

  const byId = new Map(folding.panels.map((hinged) => [hinged.panel.id, hinged]));
  const stageProgress = (hinged: HingedPanel, frame: number) => {
    const stage = stageOf(hinged);
    return ease((frame - starts[stage]!) / stages[stage]!.frames);
  };
  const tucks = new Map(
    folding.panels
      .filter((hinged) => hinged.panel.role === 'tuck' && hinged.parent !== undefined)
      .map((tuck) => [tuck.panel.id, tuckTurn(byId.get(tuck.parent!)!, tuck, folding.thicknessMm)]),
  );
  const fractionAt = (frame: number) => (hinged: HingedPanel): number => {
    const parent = hinged.parent === undefined ? undefined : byId.get(hinged.parent)!;
    const tuck = tucks.get(hinged.panel.id);
    if (tuck && parent) return tuck(stageProgress(parent, frame));
    if (parent && hinged.panel.role === 'inner-wall' && parent.panel.role === 'rim') return rollTurn(stageProgress(parent, frame));
    return stageProgress(hinged, frame);
  };

  const motions = pieceMotions(folding, dieline.style);
  const times: number[] = [];
  const tracks = new Map<string, { node: string; rotations: Quaternion[]; translations?: Vec3[] }>();
  for (let frame = 0; frame <= lastFrame; frame++) {
    times.push(frame / KEYS_PER_SECOND);
    const fraction = fractionAt(frame);
    const rootProgress =
      frame < TURN_OVER_FRAMES ? frame / TURN_OVER_FRAMES - 1 : frame < setDownStart ? 0 : (frame - setDownStart) / SET_DOWN_FRAMES;
    for (const hinged of folding.panels) {
      const id = hinged.panel.id;
      let track = tracks.get(id);
      if (!track) {
        tracks.set(id, (track = hinged.parent === undefined ? { node: id, rotations: [], translations: [] } : { node: id, rotations: [] }));
      }
      const pose =
        hinged.parent === undefined
          ? poser.root(hinged, motions.get(id)!(rootProgress))
          : poser.hinged(hinged, fraction(hinged));
      track.rotations.push(continuous(track.rotations.at(-1), quaternion(pose.rotation)));
      track.translations?.push(pose.translation);
    }
  }
  return { name: 'fold', times, tracks: [...tracks.values()] };
}

/**
 * A wall rolled over its rim (the mailer's inner walls) while the rim turns (`rim` 0 … 1): it
 * turns twice as fast until it hangs straight down while the rim is still half raised, high
 * enough that its locking tabs clear the bottom and the corner flaps, then the rim lowers it
 * straight down, tabs into their slots.
 */
function rollTurn(rim: number): number {
  const hanging = Math.min(1, rim / 0.55) * 2; // the wall's turn from upright, in quarter turns
  return hanging - rim;
}

/**
 * A tuck's turn (fraction of its quarter turn) for each position of its closure (0 open … 1
 * closed), worked out in the cross-section across the creases: x inwards from where the closed
 * tuck stands (the wall it slides behind is one caliper further out), y up from the closure's
 * hinge. The tuck bends as the closure comes over and must pass the plane the dust flaps lie in
 * through the slot between the wall and the flaps' edges; of the turns that keep it there, it
 * takes the one nearest its natural bend.
 */
function tuckTurn(closure: HingedPanel, tuck: HingedPanel, t: number): (closed: number) => number {
  const [a, b] = tuck.crease!;
  const closureCrease = closure.crease!;
  const length = distanceToLine([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], closureCrease[0], closureCrease[1]);
  const depth = Math.max(...tuck.panel.polygon.map((p) => distanceToLine(p, a, b)));
  const raise = -closure.offsetMm;
  const inset = tuck.offsetMm;
  const valid = (alpha: number, phi: number): boolean => {
    const e = [length * (1 - Math.cos(alpha)) + raise * Math.sin(alpha), length * Math.sin(alpha) + raise * Math.cos(alpha)];
    const direction = Math.PI - alpha + phi;
    const w = [Math.cos(direction), Math.sin(direction)];
    const m = [-w[1]!, w[0]!];
    const steps = Math.ceil(depth / (t / 8));
    for (let k = 0; k <= steps; k++) {
      const r = (depth * k) / steps;
      const x = e[0]! + r * w[0]! + inset * m[0]! - inset;
      const y = e[1]! + r * w[1]! + inset * m[1]!;
      if (Math.abs(y) < t / 2 && x > 1.25 * t) return false;
      if (y < t / 2 && x < -t / 2) return false;
    }
    return true;
  };
  return (closed) => {
    const alpha = (Math.PI / 2) * (1 - closed);
    const natural = Math.min(Math.PI / 2 + alpha, 2 * (Math.PI / 2 - alpha));
    if (valid(alpha, natural)) return natural / (Math.PI / 2);
    let best = natural;
    let bestOff = Infinity;
    for (let phi = 0; phi <= Math.PI * 1.2; phi += Math.PI / 900) {
      if (Math.abs(phi - natural) < bestOff && valid(alpha, phi)) [best, bestOff] = [phi, Math.abs(phi - natural)];
    }
    return best / (Math.PI / 2);
  };
}

/**
 * Each piece's root placement over the film: `phase` −1 … 0 turning the flat blank (printed side
 * up) over onto its printed side, 0 while it folds, 0 … 1 setting it down where it is in the
 * closed box. A piece is carried above the ground (and the pieces already there) while it turns.
 */
function pieceMotions(folding: BoxFolding, style: string): Map<string, (phase: number) => Rigid> {
  const roots = foldRoots(style);
  const t = folding.thicknessMm;
  const flatShape = folding.pose(() => 0, () => ({ rotation: IDENTITY, translation: [0, 0, 0] }));
  const closedShape = folding.pose(() => 1, () => ({ rotation: IDENTITY, translation: [0, 0, 0] }));
  const motions = new Map<string, (phase: number) => Rigid>();
  let besideX = -Infinity;
  let closedTop = -Infinity;
  for (const rootId of roots) {
    const members = folding.panels.filter((hinged) => hinged.root === rootId);
    const closed = folding.closedRoots.get(rootId)!;
    // Folding: the root lies on its printed face (a bottom already does in the closed box).
    const printed = apply(closed.rotation, [0, 0, -1]);
    const foldRotation = multiply(turnOnto(printed, DOWN), closed.rotation);
    let fold = standOnGround({ rotation: foldRotation, translation: [0, 0, 0] }, members, flatShape, t);
    const faceDown = dot(printed, DOWN) > 0.999;
    if (faceDown && besideX === -Infinity) fold = closed;
    else fold = besides(fold, members, flatShape, t, besideX);
    const flatBox = extent(place(fold, members, flatShape), members, t);
    besideX = Math.max(besideX, flatBox.max[0]);
    // At t = 0: the same blank turned over about the X axis, printed side up.
    const centre = midpoint(flatBox);
    const flip = axisAngle([1, 0, 0], Math.PI);
    const flat = standOnGround(
      { rotation: multiply(flip, fold.rotation), translation: add(sub(centre, apply(flip, centre)), apply(flip, fold.translation)) },
      members,
      flatShape,
      t,
    );
    const turnOver = carry(flat, fold, members, flatShape, 0);
    const setDown = sameRigid(fold, closed) ? () => closed : carry(fold, closed, members, closedShape, closedTop);
    const closedBox = extent(place(closed, members, closedShape), members, t);
    closedTop = Math.max(closedTop, closedBox.max[1]);
    motions.set(rootId, (phase) => (phase < 0 ? turnOver(phase + 1) : phase === 0 ? fold : setDown(phase)));
  }
  return motions;
}

/** The piece's panels placed with the root at `root`, from its shape relative to the root. */
function place(root: Rigid, members: HingedPanel[], shape: Map<string, Rigid>): Map<string, Rigid> {
  const out = new Map<string, Rigid>();
  for (const { panel } of members) {
    const relative = shape.get(panel.id)!;
    out.set(panel.id, { rotation: multiply(root.rotation, relative.rotation), translation: applyRigid(root, relative.translation) });
  }
  return out;
}

/** The placement moved straight up or down so the piece's lowest face is on y = 0. */
function standOnGround(root: Rigid, members: HingedPanel[], shape: Map<string, Rigid>, t: number): Rigid {
  const { min } = extent(place(root, members, shape), members, t);
  return { rotation: root.rotation, translation: sub(root.translation, [0, min[1], 0]) };
}

/** The first piece centred on the origin; the next ones beside it along +X. */
function besides(root: Rigid, members: HingedPanel[], shape: Map<string, Rigid>, t: number, besideX: number): Rigid {
  const box = extent(place(root, members, shape), members, t);
  const centre = midpoint(box);
  const x = besideX === -Infinity ? -centre[0] : besideX + PIECE_GAP_MM - box.min[0];
  return { rotation: root.rotation, translation: add(root.translation, [x, 0, -centre[2]]) };
}

/**
 * From one placement to another: lifted straight up, turned and moved across, set straight down;
 * high enough that the piece (in `shape`) stays `CLEARANCE_MM` above `floor` and the ground.
 */
function carry(from: Rigid, to: Rigid, members: HingedPanel[], shape: Map<string, Rigid>, floor: number): (s: number) => Rigid {
  const box = extent(place(from, members, shape), members, 0);
  const centreFrom = midpoint(box);
  // The same material point at the end.
  const local = applyRigid(inverse(from), centreFrom);
  const centreTo = applyRigid(to, local);
  const turn = multiply(to.rotation, transpose(from.rotation));
  const { axis, angle } = axisAngleOf(turn);
  const at = (lift: number, s: number): Rigid => {
    const up = ease(s / 0.3) - ease((s - 0.7) / 0.3);
    const across = ease((s - 0.3) / 0.4);
    const rotation = multiply(axisAngle(axis, angle * across), from.rotation);
    const centre: Vec3 = [
      centreFrom[0] + (centreTo[0] - centreFrom[0]) * across,
      centreFrom[1] + (centreTo[1] - centreFrom[1]) * (s <= 0.7 ? 0 : ease((s - 0.7) / 0.3)) + lift * up,
      centreFrom[2] + (centreTo[2] - centreFrom[2]) * across,
    ];
    return { rotation, translation: sub(centre, apply(rotation, local)) };
  };
  let lift = 0;
  const ground = Math.max(0, floor) + CLEARANCE_MM;
  for (let k = 0; k <= 20; k++) {
    const pose = at(0, 0.3 + (0.4 * k) / 20);
    const lowest = extent(place(pose, members, shape), members, 0).min[1];
    lift = Math.max(lift, ground - lowest);
  }
  return (s) => (s >= 1 ? to : at(lift, s));
}

function turnOnto(from: Vec3, to: Vec3): Mat3 {
  const c = dot(normalize(from), to);
  if (c > 0.999999) return IDENTITY;
  const axisRaw = cross(from, to);
  const axis: Vec3 = length(axisRaw) < 1e-9 ? [1, 0, 0] : normalize(axisRaw);
  return axisAngle(axis, Math.acos(Math.max(-1, Math.min(1, c))));
}

function axisAngleOf(m: Mat3): { axis: Vec3; angle: number } {
  const angle = Math.acos(Math.max(-1, Math.min(1, (m[0] + m[4] + m[8] - 1) / 2)));
  if (angle < 1e-9) return { axis: [1, 0, 0], angle: 0 };
  if (Math.PI - angle < 1e-6) {
    // A half turn: the axis is the column of (m + I) / 2 with the largest diagonal.
    const d = [m[0], m[4], m[8]];
    const i = d.indexOf(Math.max(...d));
    const column: Vec3 = [(m[i]! + (i === 0 ? 1 : 0)) / 2, (m[3 + i]! + (i === 1 ? 1 : 0)) / 2, (m[6 + i]! + (i === 2 ? 1 : 0)) / 2];
    return { axis: normalize(column), angle };
  }
  const axis: Vec3 = [m[7] - m[5], m[2] - m[6], m[3] - m[1]];
  return { axis: normalize(axis), angle };
}

const transpose = (m: Mat3): Mat3 => [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];

function inverse(m: Rigid): Rigid {
  const rotation = transpose(m.rotation);
  const back = apply(rotation, m.translation);
  return { rotation, translation: [-back[0], -back[1], -back[2]] };
}

const midpoint = ({ min, max }: { min: Vec3; max: Vec3 }): Vec3 => [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];

function sameRigid(a: Rigid, b: Rigid): boolean {
  return (
    a.rotation.every((v, i) => Math.abs(v - b.rotation[i]!) < 1e-9) && a.translation.every((v, i) => Math.abs(v - b.translation[i]!) < 1e-6)
  );
}

/** The quaternion's sign that keeps interpolation on the short way from the previous key. */
function continuous(previous: Quaternion | undefined, next: Quaternion): Quaternion {
  if (!previous) return next;
  const d = previous[0] * next[0] + previous[1] * next[1] + previous[2] * next[2] + previous[3] * next[3];
  return d < 0 ? [-next[0], -next[1], -next[2], -next[3]] : next;
}
