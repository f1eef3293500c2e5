/**
 * Building blocks for flap shapes: arcs approximated by polylines, rounded corners, and an
 * outline accumulator. Curves are emitted as polylines whose chords stay within
 * ARC_TOLERANCE_MM of the true arc, far inside die-making tolerance (about ±0.25 mm).
 */
import { add, cross, distance, dot, normalize, samePoint, scale, sub } from './geometry.js';
import type { Point } from './types.js';

export const ARC_TOLERANCE_MM = 0.05;
const MAX_ARC_SEGMENTS = 48;

/** Points on a circular arc from `startAngle` to `endAngle` (radians), both ends included. */
export function arcPoints(center: Point, radius: number, startAngle: number, endAngle: number): Point[] {
  const sweep = endAngle - startAngle;
  const step = radius > ARC_TOLERANCE_MM ? 2 * Math.acos(1 - ARC_TOLERANCE_MM / radius) : Math.PI;
  const segments = Math.min(MAX_ARC_SEGMENTS, Math.max(1, Math.ceil(Math.abs(sweep) / step)));
  const points: Point[] = [];
  for (let k = 0; k <= segments; k++) {
    const angle = startAngle + (sweep * k) / segments;
    points.push([center[0] + radius * Math.cos(angle), center[1] + radius * Math.sin(angle)]);
  }
  return points;
}

export interface Corner {
  point: Point;
  /** Fillet radius; 0 or absent keeps the corner sharp. First and last corners are never rounded. */
  radius?: number;
}

/** An open polyline through the corners with the requested fillets. */
export function roundedPolyline(corners: readonly Corner[]): Point[] {
  const out: Point[] = [];
  corners.forEach((corner, index) => {
    const radius = corner.radius ?? 0;
    const previous = corners[index - 1];
    const next = corners[index + 1];
    if (radius <= 0 || !previous || !next) {
      out.push(corner.point);
      return;
    }
    out.push(...filletPoints(previous.point, corner.point, next.point, radius));
  });
  return out;
}

function filletPoints(previous: Point, corner: Point, next: Point, requestedRadius: number): Point[] {
  const toPrevious = normalize(sub(previous, corner));
  const toNext = normalize(sub(next, corner));
  const cosine = Math.max(-1, Math.min(1, dot(toPrevious, toNext)));
  const halfAngle = Math.acos(cosine) / 2;
  if (halfAngle < 1e-6 || Math.PI / 2 - halfAngle < 1e-6) return [corner];
  // The tangent points may use at most half of each adjacent edge.
  const maxTangent = Math.min(distance(previous, corner), distance(next, corner)) / 2;
  const radius = Math.min(requestedRadius, maxTangent * Math.tan(halfAngle));
  const tangentLength = radius / Math.tan(halfAngle);
  const start = add(corner, scale(toPrevious, tangentLength));
  const end = add(corner, scale(toNext, tangentLength));
  const bisector = normalize(add(toPrevious, toNext));
  const center = add(corner, scale(bisector, radius / Math.sin(halfAngle)));
  const a0 = Math.atan2(start[1] - center[1], start[0] - center[0]);
  let a1 = Math.atan2(end[1] - center[1], end[0] - center[0]);
  // Sweep the short way round, in the direction the corner turns.
  const turnsClockwise = cross(sub(corner, previous), sub(next, corner)) > 0;
  if (turnsClockwise && a1 < a0) a1 += 2 * Math.PI;
  if (!turnsClockwise && a1 > a0) a1 -= 2 * Math.PI;
  return arcPoints(center, radius, a0, a1);
}

/**
 * Maps flap-local points `[s, h]` (s along the hinge from `from`, h away from the panel, i.e. to
 * the left of travel on screen) onto the sheet.
 */
export function placeAlongHinge(from: Point, to: Point, local: readonly Point[]): Point[] {
  const u = normalize(sub(to, from));
  const n: Point = [u[1], -u[0]];
  return local.map(([s, h]): Point => [from[0] + u[0] * s + n[0] * h, from[1] + u[1] * s + n[1] * h]);
}

/** The same profile walked from the other end of a hinge of length `length`. */
export function reverseProfile(profile: readonly Point[], length: number): Point[] {
  return profile.map(([s, h]): Point => [length - s, h]).reverse();
}

/** Accumulates an outline, skipping points that repeat the previous one. */
export class OutlineBuilder {
  private readonly points: Point[] = [];

  to(...points: Point[]): this {
    for (const p of points) {
      const last = this.points[this.points.length - 1];
      if (!last || !samePoint(last, p, 1e-9)) this.points.push(p);
    }
    return this;
  }

  close(): Point[] {
    const out = [...this.points];
    while (out.length > 1 && samePoint(out[0]!, out[out.length - 1]!, 1e-9)) out.pop();
    return out;
  }
}
