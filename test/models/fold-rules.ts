// §19's rules for a box's fold, measured on the GLB as a player would play it: the `fold` clip
// sampled at any time (linear translations, spherical rotations, node hierarchy), each panel's
// mid-surface recovered from its mesh (the mean of its printed and unprinted faces) and mapped back
// onto the dieline's panel outline, so the board is judged against the dieline itself.
import type { Document, Node } from '@gltf-transform/core';
import type { Dieline, DielinePanel, Point } from '../../src/dielines/index.js';
import { FOLDING_RULE_TYPES } from '../../src/dielines/types.js';

type V = [number, number, number];
type Q = [number, number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);

/** Touching is allowed: closer than this counts as entering. */
const EPS_MM = 0.02;

export function clipEnd(doc: Document): number {
  const clip = doc.getRoot().listAnimations().find((animation) => animation.getName() === 'fold')!;
  const input = clip.listSamplers()[0]!.getInput()!;
  return input.getElement(input.getCount() - 1, [0])[0]!;
}

/** Poses every animated node at `time` seconds as glTF players do (LINEAR: lerp, slerp). */
export function poseAtTime(doc: Document, time: number): void {
  const clip = doc.getRoot().listAnimations().find((animation) => animation.getName() === 'fold')!;
  for (const channel of clip.listChannels()) {
    const sampler = channel.getSampler()!;
    const input = sampler.getInput()!;
    const output = sampler.getOutput()!;
    const n = input.getCount();
    let k = 0;
    while (k < n - 2 && input.getElement(k + 1, [0])[0]! <= time) k++;
    const t0 = input.getElement(k, [0])[0]!;
    const t1 = input.getElement(Math.min(k + 1, n - 1), [0])[0]!;
    const u = t1 > t0 ? Math.max(0, Math.min(1, (time - t0) / (t1 - t0))) : 0;
    const node = channel.getTargetNode()!;
    if (channel.getTargetPath() === 'rotation') {
      node.setRotation(slerp(output.getElement(k, [0, 0, 0, 0]) as Q, output.getElement(Math.min(k + 1, n - 1), [0, 0, 0, 0]) as Q, u));
    } else {
      const a = output.getElement(k, [0, 0, 0]) as V;
      const b = output.getElement(Math.min(k + 1, n - 1), [0, 0, 0]) as V;
      node.setTranslation([a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u]);
    }
  }
}

function slerp(a: Q, b: Q, u: number): Q {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s: Q = d < 0 ? [-b[0], -b[1], -b[2], -b[3]] : b;
  d = Math.abs(d);
  if (d > 0.9995) {
    const q = a.map((v, i) => v + (s[i]! - v) * u) as Q;
    const l = Math.hypot(...q);
    return q.map((v) => v / l) as Q;
  }
  const theta = Math.acos(d);
  const wa = Math.sin((1 - u) * theta) / Math.sin(theta);
  const wb = Math.sin(u * theta) / Math.sin(theta);
  return a.map((v, i) => v * wa + s[i]! * wb) as Q;
}

/** A panel's board in the current pose: blank point ↦ world mm, the printed face's normal. */
export interface Board {
  panel: DielinePanel;
  node: Node;
  /** Blank (x, y) on the mid-surface ↦ world mm. */
  at(p: Point): V;
  /** Unit normal of the printed face. */
  printed: V;
  origin: V;
  u: V;
  v: V;
}

export function boards(doc: Document, dieline: Dieline): Board[] {
  return dieline.panels.map((panel) => {
    const node = doc.getRoot().listNodes().find((candidate) => candidate.getName() === panel.id);
    if (!node) throw new Error(`no node ${panel.id}`);
    const [print, inside] = node.getMesh()!.listPrimitives() as [
      import('@gltf-transform/core').Primitive,
      import('@gltf-transform/core').Primitive,
    ];
    const m = node.getWorldMatrix();
    const world = (p: V): V => [
      (m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12]) * 1000,
      (m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13]) * 1000,
      (m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]) * 1000,
    ];
    const mid = (i: number): V => {
      const a = print.getAttribute('POSITION')!.getElement(i, [0, 0, 0]) as V;
      const b = inside.getAttribute('POSITION')!.getElement(i, [0, 0, 0]) as V;
      return world([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2]);
    };
    const outerNormal = sub(
      world(print.getAttribute('POSITION')!.getElement(0, [0, 0, 0]) as V),
      world(inside.getAttribute('POSITION')!.getElement(0, [0, 0, 0]) as V),
    );
    // Affine map from three well-spread outline vertices.
    const poly = panel.polygon;
    const i0 = 0;
    let i1 = 1;
    for (let i = 1; i < poly.length; i++) if (dist2(poly[i]!, poly[i0]!) > dist2(poly[i1]!, poly[i0]!)) i1 = i;
    let i2 = 1;
    let best = -1;
    for (let i = 1; i < poly.length; i++) {
      const area = Math.abs(cross2(sub2(poly[i1]!, poly[i0]!), sub2(poly[i]!, poly[i0]!)));
      if (area > best) [best, i2] = [area, i];
    }
    const [a, b, c] = [poly[i0]!, poly[i1]!, poly[i2]!];
    const [wa, wb, wc] = [mid(i0), mid(i1), mid(i2)];
    const e1 = sub2(b, a);
    const e2 = sub2(c, a);
    const det = cross2(e1, e2);
    const d1 = sub(wb, wa);
    const d2 = sub(wc, wa);
    // [U V] · [e1 e2] = [d1 d2]
    const u: V = [0, 1, 2].map((k) => (d1[k]! * e2[1] - d2[k]! * e1[1]) / det) as V;
    const v: V = [0, 1, 2].map((k) => (d2[k]! * e1[0] - d1[k]! * e2[0]) / det) as V;
    const at = (p: Point): V => [0, 1, 2].map((k) => wa[k]! + u[k]! * (p[0] - a[0]) + v[k]! * (p[1] - a[1])) as V;
    const origin = at([0, 0]);
    const n = norm(outerNormal);
    return { panel, node, at, printed: [outerNormal[0] / n, outerNormal[1] / n, outerNormal[2] / n], origin, u, v };
  });
}

const sub2 = (a: Point, b: Point): Point => [a[0] - b[0], a[1] - b[1]];
const cross2 = (a: Point, b: Point) => a[0] * b[1] - a[1] * b[0];
const dist2 = (a: Point, b: Point) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2;

export interface Crease {
  parent: string;
  child: string;
  ends: [Point, Point];
}

/** Each node's crease with the node it hangs under, found on the dieline. */
export function hingeCreases(dieline: Dieline, doc: Document): Crease[] {
  const byId = new Map(dieline.panels.map((panel) => [panel.id, panel]));
  const creases = dieline.paths.filter((path) => FOLDING_RULE_TYPES.includes(path.type) || path.type === 'fold');
  const out: Crease[] = [];
  for (const panel of dieline.panels) {
    const node = doc.getRoot().listNodes().find((candidate) => candidate.getName() === panel.id)!;
    const parentNode = node.getParentNode();
    const parent = parentNode ? byId.get(parentNode.getName()) : undefined;
    if (!parent) continue;
    const crease = creases.find((path) => path.points.every((p) => onOutline(p, panel.polygon) && onOutline(p, parent.polygon)));
    if (!crease) throw new Error(`no crease between ${parent.id} and ${panel.id}`);
    out.push({ parent: parent.id, child: panel.id, ends: [crease.points[0]!, crease.points.at(-1)!] });
  }
  return out;
}

function onOutline(p: Point, polygon: readonly Point[]): boolean {
  return polygon.some((a, i) => segmentDistance(p, a, polygon[(i + 1) % polygon.length]!) < 0.01);
}

function segmentDistance(p: Point, a: Point, b: Point): number {
  const d = sub2(b, a);
  const l = d[0] * d[0] + d[1] * d[1];
  const s = l === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / l));
  return Math.hypot(p[0] - a[0] - s * d[0], p[1] - a[1] - s * d[1]);
}

/** How far apart the two panels' cross-sections are at the crease's ends and middle, mm. */
export function hingeGap(crease: Crease, byId: Map<string, Board>): number {
  const [a, b] = crease.ends;
  const points: Point[] = [a, b, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]];
  return Math.max(...points.map((p) => norm(sub(byId.get(crease.child)!.at(p), byId.get(crease.parent)!.at(p)))));
}

function insidePolygon(p: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distanceToOutline(p: Point, polygon: readonly Point[]): number {
  let best = Infinity;
  for (let i = 0; i < polygon.length; i++) best = Math.min(best, segmentDistance(p, polygon[i]!, polygon[(i + 1) % polygon.length]!));
  return best;
}

/** Points of the panel's outline and interior (blank mm): vertices, edges every `edgeStep`, a grid every `gridStep`. */
export function samplePoints(panel: DielinePanel, gridStep = 5, edgeStep = 1): Point[] {
  const polygon = panel.polygon;
  const points: Point[] = [];
  polygon.forEach((a, i) => {
    const b = polygon[(i + 1) % polygon.length]!;
    const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / edgeStep));
    for (let k = 0; k < n; k++) points.push([a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n]);
  });
  const xs = polygon.map((p) => p[0]);
  const ys = polygon.map((p) => p[1]);
  for (let x = Math.min(...xs) + gridStep / 2; x < Math.max(...xs); x += gridStep) {
    for (let y = Math.min(...ys) + gridStep / 2; y < Math.max(...ys); y += gridStep) {
      if (insidePolygon([x, y], polygon)) points.push([x, y]);
    }
  }
  return points;
}

export interface Entry {
  /** The panel whose mid-surface enters. */
  panel: string;
  /** The panel whose board it enters. */
  board: string;
  /** How deep, mm: half a caliper minus the distance from the board's mid-plane. */
  depth: number;
}

/**
 * The deepest point where a panel's mid-surface enters another panel's board (strictly inside its
 * outline and closer than half a caliper to its mid-plane), or null. Within one caliper of a crease
 * the board is bent round the crease, not flat: that band is counted neither as the entering
 * panel's mid-surface nor as the entered board.
 */
export function deepestEntry(all: Board[], dieline: Dieline, samples: Map<string, Point[]>): Entry | null {
  const thicknessMm = dieline.thicknessMm;
  const bends = panelCreases(dieline);
  const holes = panelHoles(dieline);
  const inHole = (id: string, p: Point) => holes.get(id)!.some((hole) => insidePolygon(p, hole));
  const half = thicknessMm / 2;
  let worst: Entry | null = null;
  const world = new Map(all.map((board) => [board.panel.id, samples.get(board.panel.id)!.map((p) => board.at(p))]));
  const boxes = new Map([...world].map(([id, points]) => [id, bounds(points)]));
  for (const board of all) {
    const n = cross(board.u, board.v);
    const normal: V = [n[0] / norm(n), n[1] / norm(n), n[2] / norm(n)];
    const uu = dot(board.u, board.u);
    const vv = dot(board.v, board.v);
    const bBox = boxes.get(board.panel.id)!;
    for (const other of all) {
      if (other === board) continue;
      const oBox = boxes.get(other.panel.id)!;
      if (!overlaps(bBox, oBox, half)) continue;
      const blank = samples.get(other.panel.id)!;
      const points = world.get(other.panel.id)!;
      const consider = (q: V, blankPoint: Point) => {
        const rel = sub(q, board.origin);
        const z = dot(rel, normal);
        if (Math.abs(z) >= half - EPS_MM) return;
        if (nearCrease(blankPoint, bends.get(other.panel.id)!, thicknessMm) || inHole(other.panel.id, blankPoint)) return;
        const local: Point = [dot(rel, board.u) / uu, dot(rel, board.v) / vv];
        if (nearCrease(local, bends.get(board.panel.id)!, thicknessMm)) return;
        if (passingChamfer(other.panel, blankPoint, board.panel, local, bends, thicknessMm)) return;
        const outside = !insidePolygon(local, board.panel.polygon) || distanceToOutline(local, board.panel.polygon) <= EPS_MM;
        if (outside || inHole(board.panel.id, local)) return;
        const depth = half - Math.abs(z);
        if (!worst || depth > worst.depth) worst = { panel: other.panel.id, board: board.panel.id, depth };
      };
      for (let i = 0; i < points.length; i++) consider(points[i]!, blank[i]!);
      // Where the other panel crosses this board's mid-plane: its outline edges' crossings, filled.
      const on = cross(other.u, other.v);
      if (Math.abs(dot(on, normal)) < 0.999) {
        crossings(other, normal, board.origin, (blankPoint) => consider(other.at(blankPoint), blankPoint));
      }
    }
  }
  return worst;
}

/** Holes in a panel (slots for locking tabs): closed cuts lying inside its outline. */
function panelHoles(dieline: Dieline): Map<string, Point[][]> {
  const cuts = dieline.paths.filter((path) => path.type === 'cut' && path.points.length >= 3);
  return new Map(
    dieline.panels.map((panel) => [
      panel.id,
      cuts
        .filter((cut) => cut.points.every((p) => insidePolygon(p, panel.polygon) && distanceToOutline(p, panel.polygon) > EPS_MM))
        .map((cut) => cut.points as Point[]),
    ]),
  );
}

/** Every panel's creases (blank mm): the crease and fold lines on its outline. */
function panelCreases(dieline: Dieline): Map<string, Array<[Point, Point]>> {
  const lines = dieline.paths
    .filter((path) => FOLDING_RULE_TYPES.includes(path.type) || path.type === 'fold')
    .map((path) => [path.points[0]!, path.points.at(-1)!] as [Point, Point]);
  return new Map(
    dieline.panels.map((panel) => [panel.id, lines.filter(([a, b]) => onOutline(a, panel.polygon) && onOutline(b, panel.polygon))]),
  );
}

/**
 * Within one caliper of a crease's line. The board bends along the whole hinge: where crease
 * relief stops the rule short of a cut (a caliper or two), or a slit lock cuts the hinge's ends
 * (up to a quarter of it each), the line still runs on along the panels' shared edge.
 */
function nearCrease(p: Point, creases: Array<[Point, Point]>, thicknessMm: number): boolean {
  return creases.some(([a, b]) => {
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const reach = Math.max(2 * thicknessMm + EPS_MM, length / 2) / Math.max(length, EPS_MM);
    const from: Point = [a[0] - (b[0] - a[0]) * reach, a[1] - (b[1] - a[1]) * reach];
    const to: Point = [b[0] + (b[0] - a[0]) * reach, b[1] + (b[1] - a[1]) * reach];
    return segmentDistance(p, from, to) <= thicknessMm + EPS_MM;
  });
}

/**
 * A tuck sliding in behind a wall passes the chamfered corners of the dust flaps beside that wall
 * (within three calipers of the flap's crease): a real closure bows there, a rigid one cannot.
 */
function passingChamfer(
  entering: DielinePanel,
  at: Point,
  entered: DielinePanel,
  local: Point,
  bends: Map<string, Array<[Point, Point]>>,
  thicknessMm: number,
): boolean {
  const [flap, point] =
    entering.role === 'dust-flap' && entered.role === 'tuck'
      ? [entering, at]
      : entering.role === 'tuck' && entered.role === 'dust-flap'
        ? [entered, local]
        : [null, null];
  if (!flap || !point) return false;
  return bends.get(flap.id)!.some(([a, b]) => segmentDistance(point, a, b) <= 3 * thicknessMm);
}

/** Calls `visit` along the segments where the panel's mid-surface crosses the plane, every 0.5 mm. */
function crossings(board: Board, normal: V, origin: V, visit: (p: Point) => void): void {
  const polygon = board.panel.polygon;
  const height = (p: Point) => dot(sub(board.at(p), origin), normal);
  const hits: Point[] = [];
  polygon.forEach((a, i) => {
    const b = polygon[(i + 1) % polygon.length]!;
    const ha = height(a);
    const hb = height(b);
    if ((ha > 0) === (hb > 0) || ha === hb) return;
    const s = ha / (ha - hb);
    hits.push([a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s]);
  });
  if (hits.length < 2) return;
  const direction = sub2(hits[1]!, hits[0]!);
  hits.sort((p, q) => (p[0] - q[0]) * direction[0] + (p[1] - q[1]) * direction[1]);
  for (let i = 0; i + 1 < hits.length; i += 2) {
    const [p, q] = [hits[i]!, hits[i + 1]!];
    const n = Math.max(1, Math.ceil(Math.hypot(q[0] - p[0], q[1] - p[1]) / 0.5));
    for (let k = 0; k <= n; k++) visit([p[0] + ((q[0] - p[0]) * k) / n, p[1] + ((q[1] - p[1]) * k) / n]);
  }
}

function bounds(points: V[]): { min: V; max: V } {
  const min: V = [Infinity, Infinity, Infinity];
  const max: V = [-Infinity, -Infinity, -Infinity];
  for (const p of points) for (let k = 0; k < 3; k++) [min[k], max[k]] = [Math.min(min[k]!, p[k]!), Math.max(max[k]!, p[k]!)];
  return { min, max };
}

function overlaps(a: { min: V; max: V }, b: { min: V; max: V }, margin: number): boolean {
  return [0, 1, 2].every((k) => a.min[k]! - margin <= b.max[k]! && b.min[k]! - margin <= a.max[k]!);
}

/**
 * Whether the panel lies over or under another layer in the closed pose: a parallel board about
 * one caliper away that it covers in part.
 */
export function coversLayer(board: Board, all: Board[], thicknessMm: number): boolean {
  const n = cross(board.u, board.v);
  const normal: V = [n[0] / norm(n), n[1] / norm(n), n[2] / norm(n)];
  return all.some((other) => {
    if (other === board) return false;
    const m = cross(other.u, other.v);
    if (Math.abs(dot(normal, m) / norm(m)) < 0.999) return false;
    const uu = dot(other.u, other.u);
    const vv = dot(other.v, other.v);
    return samplePoints(board.panel, 4, 4).some((p) => {
      const rel = sub(board.at(p), other.origin);
      const z = Math.abs(dot(rel, m) / norm(m));
      if (z > thicknessMm * 1.01 + EPS_MM || z < thicknessMm * 0.5) return false;
      const local: Point = [dot(rel, other.u) / uu, dot(rel, other.v) / vv];
      return insidePolygon(local, other.panel.polygon) && distanceToOutline(local, other.panel.polygon) > 1;
    });
  });
}
