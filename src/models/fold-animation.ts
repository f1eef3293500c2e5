/**
 * The `fold` animation of a box: the blank lying flat (t = 0) folding into the closed box (the last
 * keyframe is the closed pose exactly). Panels fold in the order a packer folds them: the body's
 * walls and glue flaps, then the inner walls and dust flaps, then the bottom, then lid and tuck;
 * a box whose fold root is its front panel is folded lying on that face and stood up at the end.
 * Every panel turns about its own crease; the pose is sampled per panel node as rotation and
 * translation keyframes (linear), so any glTF player plays it without morph targets or skins.
 */
import type { Dieline, DielinePanel, PanelRole } from '../dielines/index.js';
import { folding, foldRoots, type FoldedPanel } from './fold.js';
import { add, apply, axisAngle, compose, cross, dot, length, normalize, quaternion, sub, type Rigid, type Vec3 } from './math.js';

export type Quaternion = [number, number, number, number];

export interface NodeTrack {
  /** The panel node's name (its panelId). */
  node: string;
  rotations: Quaternion[];
  /** Metres. */
  translations: Vec3[];
}

export interface NodeAnimation {
  name: 'fold';
  /** Keyframe times in seconds, increasing from 0. */
  times: number[];
  tracks: NodeTrack[];
}

interface Stage {
  roles: ReadonlySet<PanelRole>;
  seconds: number;
}

const STAGES: Stage[] = [
  { roles: new Set<PanelRole>(['wall', 'glue-flap', 'glue-tab', 'corner-flap', 'rim']), seconds: 1.2 },
  { roles: new Set<PanelRole>(['inner-wall', 'dust-flap', 'minor-flap', 'lock-flap']), seconds: 0.9 },
  { roles: new Set<PanelRole>(['bottom', 'major-flap']), seconds: 0.8 },
  { roles: new Set<PanelRole>(['lid', 'closure', 'tuck']), seconds: 1 },
];
const STAND_UP_SECONDS = 0.8;
const SAMPLES_PER_STAGE = 8;
const DOWN: Vec3 = [0, -1, 0];

const ease = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x));

function stageOf(panel: DielinePanel): number {
  const index = STAGES.findIndex((stage) => stage.roles.has(panel.role));
  return index < 0 ? 0 : index;
}

/**
 * `node` maps a panel and its blank → model transform (mm) to the panel node's transform
 * (metres), as the closed model's nodes are made.
 */
export function foldAnimation(dieline: Dieline, node: (panel: DielinePanel, transform: Rigid) => Rigid): NodeAnimation {
  const roots = new Set(foldRoots(dieline.style));
  // Only the stages this style has panels for: no pause in the film.
  const used = new Set(dieline.panels.filter((panel) => !roots.has(panel.id)).map(stageOf));
  const starts: number[] = [];
  const durations: number[] = [];
  let clock = 0;
  STAGES.forEach((stage, i) => {
    starts.push(clock);
    durations.push(used.has(i) ? stage.seconds : 0);
    clock += durations[i]!;
  });
  const fold = folding(dieline);
  const standUp = standUpMotion(dieline, fold(() => 1));
  const standStart = clock;
  const end = standUp ? clock + STAND_UP_SECONDS : clock;

  const times: number[] = [];
  for (let i = 0; i < STAGES.length; i++) {
    if (durations[i] === 0) continue;
    for (let k = 0; k < SAMPLES_PER_STAGE; k++) times.push(starts[i]! + (durations[i]! * k) / SAMPLES_PER_STAGE);
  }
  if (standUp) for (let k = 0; k < SAMPLES_PER_STAGE; k++) times.push(standStart + (STAND_UP_SECONDS * k) / SAMPLES_PER_STAGE);
  times.push(end);

  const tracks = new Map<string, NodeTrack>();
  for (const time of times) {
    const progress = (panel: DielinePanel) => {
      const stage = stageOf(panel);
      return durations[stage] === 0 ? 1 : ease((time - starts[stage]!) / durations[stage]!);
    };
    const lying = standUp ? 1 - ease((time - standStart) / STAND_UP_SECONDS) : 0;
    for (const { panel, transform } of fold(progress)) {
      const placed = standUp && lying > 0 ? compose(standUp(lying), transform) : transform;
      const pose = node(panel, placed);
      let track = tracks.get(panel.id);
      if (!track) tracks.set(panel.id, (track = { node: panel.id, rotations: [], translations: [] }));
      track.rotations.push(continuous(track.rotations.at(-1), quaternion(pose.rotation)));
      track.translations.push(pose.translation);
    }
  }
  return { name: 'fold', times, tracks: [...tracks.values()] };
}

/**
 * When the fold root stands upright in the closed box (a front panel), the blank starts lying on
 * that panel's printed face: a turn about the root's lowest edge, `lying` = 1 flat on it, 0 upright.
 */
function standUpMotion(dieline: Dieline, closed: FoldedPanel[]): ((lying: number) => Rigid) | null {
  const rootId = foldRoots(dieline.style)[0];
  const root = closed.find(({ panel }) => panel.id === rootId);
  if (!root) return null;
  const outward = normalize(apply(root.transform.rotation, [0, 0, -1]));
  const axisRaw = cross(outward, DOWN);
  if (length(axisRaw) < 0.5) return null; // the root already lies flat (a bottom)
  const axis = normalize(axisRaw);
  const angle = Math.acos(Math.max(-1, Math.min(1, dot(outward, DOWN))));
  let pivot: Vec3 = [0, Infinity, 0];
  for (const [x, y] of root.panel.polygon) {
    const p = add(apply(root.transform.rotation, [x, y, 0]), root.transform.translation);
    if (p[1] < pivot[1]) pivot = p;
  }
  return (lying) => {
    const rotation = axisAngle(axis, angle * lying);
    return { rotation, translation: sub(pivot, apply(rotation, pivot)) };
  };
}

/** The quaternion's sign that keeps linear interpolation on the short way from the previous key. */
function continuous(previous: Quaternion | undefined, next: Quaternion): Quaternion {
  if (!previous) return next;
  const d = previous[0] * next[0] + previous[1] * next[1] + previous[2] * next[2] + previous[3] * next[3];
  return d < 0 ? [-next[0], -next[1], -next[2], -next[3]] : next;
}

