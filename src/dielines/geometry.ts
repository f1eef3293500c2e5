/**
 * Pure 2-D helpers for polylines and polygons in millimetres (y down). A polygon is an array of
 * vertices without the closing repeat. Outlines are built clockwise as seen on screen, which gives
 * a positive shoelace area with y pointing down.
 */
import type { Bounds, Point } from './types.js';

export function add(a: Point, b: Point): Point {
  return [a[0] + b[0], a[1] + b[1]];
}

export function sub(a: Point, b: Point): Point {
  return [a[0] - b[0], a[1] - b[1]];
}

export function scale(a: Point, k: number): Point {
  return [a[0] * k, a[1] * k];
}

export function dot(a: Point, b: Point): number {
  return a[0] * b[0] + a[1] * b[1];
}

export function cross(a: Point, b: Point): number {
  return a[0] * b[1] - a[1] * b[0];
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

export function normalize(a: Point): Point {
  const length = Math.hypot(a[0], a[1]);
  return length === 0 ? [0, 0] : [a[0] / length, a[1] / length];
}

export function samePoint(a: Point, b: Point, tolerance = 1e-9): boolean {
  return Math.abs(a[0] - b[0]) <= tolerance && Math.abs(a[1] - b[1]) <= tolerance;
}

/** Shoelace area; positive for polygons drawn clockwise on screen (y down). */
export function signedArea(polygon: readonly Point[]): number {
  let sum = 0;
  for (let i = 0, n = polygon.length; i < n; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % n]!;
    sum += a[0] * b[1] - b[0] * a[1];
  }
  return sum / 2;
}

export function polygonArea(polygon: readonly Point[]): number {
  return Math.abs(signedArea(polygon));
}

export function boundsOf(points: readonly Point[]): Bounds {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of points) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

export function distanceToSegment(p: Point, a: Point, b: Point): number {
  const ab = sub(b, a);
  const lengthSquared = dot(ab, ab);
  if (lengthSquared === 0) return distance(p, a);
  const t = Math.max(0, Math.min(1, dot(sub(p, a), ab) / lengthSquared));
  return distance(p, [a[0] + ab[0] * t, a[1] + ab[1] * t]);
}

/** Shortest distance from a point to the edges of a closed polygon. */
export function distanceToBoundary(p: Point, polygon: readonly Point[]): number {
  let best = Infinity;
  for (let i = 0, n = polygon.length; i < n; i++) {
    const d = distanceToSegment(p, polygon[i]!, polygon[(i + 1) % n]!);
    if (d < best) best = d;
  }
  return best;
}

/** Even-odd ray cast. Points on the boundary may go either way: test those with `distanceToBoundary`. */
export function pointInPolygon(p: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, n = polygon.length, j = n - 1; i < n; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Inside or within `tolerance` of the boundary. */
export function pointInOrOnPolygon(p: Point, polygon: readonly Point[], tolerance: number): boolean {
  return distanceToBoundary(p, polygon) <= tolerance || pointInPolygon(p, polygon);
}

/**
 * A point shared by segments a–b and c–d (crossing, touching or overlapping), or null.
 * For collinear overlaps the first overlapping endpoint is returned.
 */
export function segmentIntersection(a: Point, b: Point, c: Point, d: Point, tolerance = 1e-9): Point | null {
  if (
    Math.max(a[0], b[0]) < Math.min(c[0], d[0]) - tolerance ||
    Math.max(c[0], d[0]) < Math.min(a[0], b[0]) - tolerance ||
    Math.max(a[1], b[1]) < Math.min(c[1], d[1]) - tolerance ||
    Math.max(c[1], d[1]) < Math.min(a[1], b[1]) - tolerance
  ) {
    return null;
  }
  const r = sub(b, a);
  const s = sub(d, c);
  const denominator = cross(r, s);
  const ac = sub(c, a);
  const lengthR = Math.hypot(r[0], r[1]);
  const lengthS = Math.hypot(s[0], s[1]);
  if (Math.abs(denominator) <= tolerance * Math.max(lengthR, lengthS, 1e-12)) {
    // Parallel: only collinear overlaps count.
    for (const [p, q0, q1] of [
      [c, a, b],
      [d, a, b],
      [a, c, d],
      [b, c, d],
    ] as const) {
      if (distanceToSegment(p, q0, q1) <= tolerance) return p;
    }
    return null;
  }
  const t = cross(ac, s) / denominator;
  const u = cross(ac, r) / denominator;
  const slackT = tolerance / Math.max(lengthR, 1e-12);
  const slackU = tolerance / Math.max(lengthS, 1e-12);
  if (t < -slackT || t > 1 + slackT || u < -slackU || u > 1 + slackU) return null;
  return [a[0] + r[0] * t, a[1] + r[1] * t];
}

export interface SelfIntersection {
  /** Edge i runs from vertex i to vertex i + 1. */
  i: number;
  j: number;
  point: Point;
}

/**
 * The first pair of edges that meet other than at their shared vertex, scanning edge i from
 * `fromEdge`. Adjacent edges count when they fold back over each other.
 */
export function findSelfIntersection(
  polygon: readonly Point[],
  tolerance = 1e-9,
  fromEdge = 0,
): SelfIntersection | null {
  const n = polygon.length;
  // Edge bounding boxes, so most pairs are rejected without a full intersection test.
  const box = new Float64Array(4 * n);
  for (let k = 0; k < n; k++) {
    const a = polygon[k]!;
    const b = polygon[(k + 1) % n]!;
    box[4 * k] = Math.min(a[0], b[0]) - tolerance;
    box[4 * k + 1] = Math.max(a[0], b[0]) + tolerance;
    box[4 * k + 2] = Math.min(a[1], b[1]) - tolerance;
    box[4 * k + 3] = Math.max(a[1], b[1]) + tolerance;
  }
  for (let i = Math.max(0, fromEdge); i < n; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % n]!;
    const minX = box[4 * i]!;
    const maxX = box[4 * i + 1]!;
    const minY = box[4 * i + 2]!;
    const maxY = box[4 * i + 3]!;
    for (let j = i + 1; j < n; j++) {
      if (box[4 * j]! > maxX || box[4 * j + 1]! < minX || box[4 * j + 2]! > maxY || box[4 * j + 3]! < minY) continue;
      const c = polygon[j]!;
      const d = polygon[(j + 1) % n]!;
      const adjacentAfter = j === i + 1;
      const adjacentBefore = i === 0 && j === n - 1;
      if (adjacentAfter || adjacentBefore) {
        // Shared vertex is b (=c) or a (=d); they only intersect if they overlap backwards.
        const [shared, p, q] = adjacentAfter ? [b, a, d] : [a, b, c];
        const u = sub(p, shared);
        const v = sub(q, shared);
        if (Math.abs(cross(normalize(u), normalize(v))) <= 1e-12 && dot(u, v) > 0) {
          const nearer = Math.hypot(u[0], u[1]) < Math.hypot(v[0], v[1]) ? p : q;
          return { i, j, point: nearer };
        }
        continue;
      }
      const point = segmentIntersection(a, b, c, d, tolerance);
      if (point) return { i, j, point };
    }
  }
  return null;
}

export function isSimplePolygon(polygon: readonly Point[], tolerance = 1e-9): boolean {
  return polygon.length >= 3 && findSelfIntersection(polygon, tolerance) === null;
}

/** Drops consecutive duplicates (and a closing repeat of the first point). */
export function dedupe(points: readonly Point[], tolerance = 1e-9): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (!last || !samePoint(last, p, tolerance)) out.push(p);
  }
  while (out.length > 1 && samePoint(out[0]!, out[out.length - 1]!, tolerance)) out.pop();
  return out;
}

/**
 * Offsets a simple polygon by `offset` (positive = outwards, negative = inwards) with mitred
 * joins, bevelled beyond `miterLimit` × |offset|. Where the offset folds over itself (notches
 * and slots narrower than twice the offset), the loops are cut away so the result stays simple.
 */
export function offsetPolygon(polygon: readonly Point[], offset: number, miterLimit = 2): Point[] {
  if (offset === 0 || polygon.length < 3) return polygon.map((p): Point => [p[0], p[1]]);
  return removeLoops(offsetVertices(polygon, offset, miterLimit), signedArea(polygon) >= 0 ? 1 : -1);
}

/**
 * The offset outline before global loops are cut away: consecutive offset edges meet at mitred
 * (or bevelled) joins. An offset edge that comes out reversed has been swallowed by its
 * neighbours (e.g. a small step beside a notch); such edges are dropped one at a time in the
 * order in which they vanish as the offset grows, the neighbours then meeting directly.
 * For a convex polygon inset without dropped edges, vertex i of the input stays vertex i.
 */
export function offsetVertices(polygon: readonly Point[], offset: number, miterLimit = 2): Point[] {
  return new OffsetRing(dedupe(polygon), offset, miterLimit).vertices();
}

/** The edges of a polygon moved along their normals, as a ring that can drop vanished edges. */
class OffsetRing {
  private readonly n: number;
  private readonly directions: Point[] = [];
  private readonly normals: Point[] = [];
  private readonly previousOf: number[] = [];
  private readonly nextOf: number[] = [];
  private readonly orientation: number;

  constructor(
    private readonly source: readonly Point[],
    private readonly offset: number,
    private readonly miterLimit: number,
  ) {
    const n = source.length;
    this.n = n;
    this.orientation = signedArea(source) >= 0 ? 1 : -1;
    for (let i = 0; i < n; i++) {
      const u = normalize(sub(source[(i + 1) % n]!, source[i]!));
      this.directions.push(u);
      this.normals.push([u[1] * this.orientation, -u[0] * this.orientation]);
      this.previousOf.push((i - 1 + n) % n);
      this.nextOf.push((i + 1) % n);
    }
  }

  vertices(): Point[] {
    const { n } = this;
    const vanishesAt = Array.from({ length: n }, (_, k) => this.vanishing(k));
    let remaining = n;
    let first = 0;
    while (remaining > 3) {
      let k = -1;
      for (let i = 0; i < n; i++) if (vanishesAt[i]! < Infinity && (k < 0 || vanishesAt[i]! < vanishesAt[k]!)) k = i;
      if (k < 0) break;
      const before = this.previousOf[k]!;
      const after = this.nextOf[k]!;
      this.nextOf[before] = after;
      this.previousOf[after] = before;
      vanishesAt[k] = Infinity;
      remaining--;
      if (first === k) first = after;
      vanishesAt[before] = this.vanishing(before);
      vanishesAt[after] = this.vanishing(after);
    }
    const out: Point[] = [];
    let k = first;
    for (let count = 0; count < remaining; count++, k = this.nextOf[k]!) {
      out.push(...this.join(this.previousOf[k]!, k, this.offset));
    }
    return dedupe(out);
  }

  /** Fraction of the offset at which edge k vanishes (its length is linear in the offset), or Infinity. */
  private vanishing(k: number): number {
    const atOffset = this.edgeLength(k, this.offset);
    if (atOffset >= -1e-9) return Infinity;
    const atZero = this.edgeLength(k, 0);
    return atZero / (atZero - atOffset);
  }

  /** Length of offset edge k along its own direction, at offset d. */
  private edgeLength(k: number, d: number): number {
    const from = this.join(this.previousOf[k]!, k, d);
    return dot(sub(this.join(k, this.nextOf[k]!, d)[0]!, from[from.length - 1]!), this.directions[k]!);
  }

  private lineStart(k: number, d: number): Point {
    return add(this.source[k]!, scale(this.normals[k]!, d));
  }

  private lineEnd(k: number, d: number): Point {
    return add(this.source[(k + 1) % this.n]!, scale(this.normals[k]!, d));
  }

  /** Where offset edge a hands over to offset edge b at offset d (one point, or two for a bevel). */
  private join(a: number, b: number, d: number): Point[] {
    if ((a + 1) % this.n !== b) {
      const hit = lineIntersection(this.lineStart(a, d), this.directions[a]!, this.lineStart(b, d), this.directions[b]!);
      return hit ? [hit] : [this.lineEnd(a, d), this.lineStart(b, d)];
    }
    const u1 = this.directions[a]!;
    const u2 = this.directions[b]!;
    const n1 = this.normals[a]!;
    const n2 = this.normals[b]!;
    const turn = cross(u1, u2) * this.orientation;
    if (Math.abs(turn) < 1e-12 && dot(u1, u2) > 0) return [this.lineEnd(a, d)];
    const opensGap = turn * this.offset > 0;
    const denominator = 1 + dot(n1, n2);
    const miter = denominator > 1e-9 ? scale(add(n1, n2), 1 / denominator) : null;
    // Mitre up to miterLimit × offset where the corner opens; concave corners keep the mitre
    // unless the edges nearly fold back on each other.
    const limit = opensGap ? this.miterLimit : 8;
    if (miter && Math.hypot(miter[0], miter[1]) <= limit) return [add(this.source[b]!, scale(miter, d))];
    return [this.lineEnd(a, d), this.lineStart(b, d)];
  }
}

function lineIntersection(p: Point, u: Point, q: Point, v: Point): Point | null {
  const denominator = cross(u, v);
  if (Math.abs(denominator) < 1e-12) return null;
  const s = cross(sub(q, p), v) / denominator;
  return [p[0] + u[0] * s, p[1] + u[1] * s];
}

/** Cuts self-intersection loops away, keeping the largest part with the original orientation. */
function removeLoops(polygon: Point[], orientation: number): Point[] {
  let current = polygon;
  let fromEdge = 0;
  for (let guard = 0; guard < 4 * polygon.length + 8; guard++) {
    const hit = findSelfIntersection(current, 1e-9, fromEdge);
    if (!hit) return current;
    const { i, j, point } = hit;
    const inner = dedupe([point, ...current.slice(i + 1, j + 1)]);
    const outer = dedupe([...current.slice(j + 1), ...current.slice(0, i + 1), point]);
    const innerArea = signedArea(inner) * orientation;
    const outerArea = signedArea(outer) * orientation;
    const keepOuter = outerArea > 0 && (innerArea <= 0 || outerArea >= innerArea);
    if (keepOuter) {
      // Edges before i were already checked against everything still present.
      current = [...current.slice(0, i + 1), point, ...current.slice(j + 1)];
      current = dedupe(current);
      fromEdge = Math.max(0, i - 1);
    } else {
      current = inner;
      fromEdge = 0;
    }
    if (current.length < 3) return current;
  }
  return current;
}
