/**
 * Recovers lines and circular arcs from a dieline path for the CAD formats (DXF, CF2), where a
 * die maker expects an arc to stay an arc. The generator draws every arc with `arcPoints`: equal
 * chords turning by equal angles, each within ARC_TOLERANCE_MM of the true arc. A run of at least
 * two such chords is written as one arc through the run's points; everything else stays a line.
 * Works in any orientation: callers pass points already in their output frame (e.g. y up).
 */
import { ARC_TOLERANCE_MM } from './profile.js';
import type { Point } from './types.js';

export interface LineSegment {
  kind: 'line';
  start: Point;
  end: Point;
}

/** A circular arc from `start` to `end` about `center`; `ccw` in a y-up frame. Full circle when start equals end. */
export interface ArcSegment {
  kind: 'arc';
  start: Point;
  end: Point;
  center: Point;
  radius: number;
  ccw: boolean;
  /** Signed sweep in radians (positive counter-clockwise in a y-up frame); ±2π for a full circle. */
  sweep: number;
}

export type CurveSegment = LineSegment | ArcSegment;

// Coordinates are rounded to 1 µm, so equal chords differ by a few µm and their turns by a little.
const CHORD_TOLERANCE_MM = 0.006;
const TURN_TOLERANCE_RAD = 0.02;
/** Collinear chords are a straight line, not an arc. */
const MIN_TURN_RAD = 0.004;
/** arcPoints never turns by more than this between chords for radii of 0.2 mm and up. */
const MAX_TURN_RAD = 1.3;
/** How far a run's points may sit from the fitted circle. */
const FIT_TOLERANCE_MM = 0.01;

function turnAngle(a: Point, b: Point, c: Point): number {
  const u: Point = [b[0] - a[0], b[1] - a[1]];
  const v: Point = [c[0] - b[0], c[1] - b[1]];
  return Math.atan2(u[0] * v[1] - u[1] * v[0], u[0] * v[0] + u[1] * v[1]);
}

function chord(a: Point, b: Point): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/** Whether the chords a→b and b→c could be consecutive chords of one arcPoints arc. */
function arcJoint(a: Point, b: Point, c: Point): number | null {
  const turn = turnAngle(a, b, c);
  if (Math.abs(turn) < MIN_TURN_RAD || Math.abs(turn) > MAX_TURN_RAD) return null;
  if (Math.abs(chord(a, b) - chord(b, c)) > CHORD_TOLERANCE_MM) return null;
  // The sagitta of each chord stays within the generator's tolerance (plus rounding).
  const radius = chord(a, b) / (2 * Math.sin(Math.abs(turn) / 2));
  if (radius * (1 - Math.cos(Math.abs(turn) / 2)) > ARC_TOLERANCE_MM + 0.002) return null;
  return turn;
}

function circumcenter(a: Point, b: Point, c: Point): Point | null {
  const d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]));
  if (Math.abs(d) < 1e-12) return null;
  const a2 = a[0] * a[0] + a[1] * a[1];
  const b2 = b[0] * b[0] + b[1] * b[1];
  const c2 = c[0] * c[0] + c[1] * c[1];
  return [
    (a2 * (b[1] - c[1]) + b2 * (c[1] - a[1]) + c2 * (a[1] - b[1])) / d,
    (a2 * (c[0] - b[0]) + b2 * (a[0] - c[0]) + c2 * (b[0] - a[0])) / d,
  ];
}

/** An arc through `run` (at least three points), or null when the points are not on one circle. */
function fitArc(run: readonly Point[], closedLoop: boolean): ArcSegment | null {
  const first = run[0]!;
  const last = run[run.length - 1]!;
  const middle = run[Math.floor(run.length / 3)]!;
  const third = closedLoop ? run[Math.floor((2 * run.length) / 3)]! : last;
  const center = circumcenter(first, middle, third);
  if (!center) return null;
  const radius = chord(center, first);
  if (run.some((p) => Math.abs(chord(center, p) - radius) > FIT_TOLERANCE_MM)) return null;
  let sweep = 0;
  for (let i = 1; i < run.length; i++) {
    const a = run[i - 1]!;
    const b = run[i]!;
    sweep += Math.atan2(
      (a[0] - center[0]) * (b[1] - center[1]) - (a[1] - center[1]) * (b[0] - center[0]),
      (a[0] - center[0]) * (b[0] - center[0]) + (a[1] - center[1]) * (b[1] - center[1]),
    );
  }
  if (closedLoop) sweep = Math.sign(sweep) * 2 * Math.PI;
  return { kind: 'arc', start: first, end: closedLoop ? first : last, center, radius, ccw: sweep > 0, sweep };
}

/** Lines and arcs along an open polyline. */
function openSegments(points: readonly Point[]): CurveSegment[] {
  const out: CurveSegment[] = [];
  let i = 0;
  const n = points.length;
  while (i < n - 1) {
    // Extend a run of arc joints starting at chord i.
    let j = i + 1;
    let turn: number | null = null;
    while (j < n - 1) {
      const next = arcJoint(points[j - 1]!, points[j]!, points[j + 1]!);
      if (next === null) break;
      if (turn !== null && (Math.sign(next) !== Math.sign(turn) || Math.abs(next - turn) > TURN_TOLERANCE_RAD)) break;
      if (turn !== null && Math.abs(chord(points[j]!, points[j + 1]!) - chord(points[i]!, points[i + 1]!)) > CHORD_TOLERANCE_MM) break;
      turn ??= next;
      j++;
    }
    const arc = j - i >= 2 ? fitArc(points.slice(i, j + 1), false) : null;
    if (arc) {
      out.push(arc);
      i = j;
    } else {
      const [start, end] = [points[i]!, points[i + 1]!];
      if (start[0] !== end[0] || start[1] !== end[1]) out.push({ kind: 'line', start, end });
      i++;
    }
  }
  return out;
}

/** Lines and arcs along a path, in the order drawn; a closed path ends where it starts. */
export function curveSegments(points: readonly Point[], closed: boolean): CurveSegment[] {
  if (!closed || points.length < 3) return openSegments(points);
  const n = points.length;
  // Start the walk at a vertex that cannot be inside an arc, so no arc is split at the seam.
  let seam = -1;
  for (let k = 0; k < n && seam < 0; k++) {
    if (arcJoint(points[(k + n - 1) % n]!, points[k]!, points[(k + 1) % n]!) === null) seam = k;
  }
  if (seam < 0) {
    const circle = fitArc([...points, points[0]!], true);
    if (circle) return [circle];
    seam = 0;
  }
  const walk = [...points.slice(seam), ...points.slice(0, seam), points[seam]!];
  return openSegments(walk);
}
