/**
 * Ear-clipping triangulation of a simple polygon (panels are small: tens of vertices), returning
 * vertex index triples in the polygon's own winding.
 */
import { signedArea } from '../dielines/geometry.js';
import type { Point } from '../dielines/index.js';

const turn = (a: Point, b: Point, c: Point): number => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);

function inTriangle(p: Point, a: Point, b: Point, c: Point, sign: number): boolean {
  return sign * turn(a, b, p) >= 0 && sign * turn(b, c, p) >= 0 && sign * turn(c, a, p) >= 0;
}

export function triangulate(points: readonly Point[]): Array<[number, number, number]> {
  const sign = Math.sign(signedArea(points)) || 1;
  const remaining = points.map((_, i) => i);
  const triangles: Array<[number, number, number]> = [];
  let guard = remaining.length * remaining.length;
  while (remaining.length > 3 && guard-- > 0) {
    let clipped = false;
    for (let i = 0; i < remaining.length; i++) {
      const ia = remaining[(i + remaining.length - 1) % remaining.length]!;
      const ib = remaining[i]!;
      const ic = remaining[(i + 1) % remaining.length]!;
      const a = points[ia]!;
      const b = points[ib]!;
      const c = points[ic]!;
      const t = sign * turn(a, b, c);
      if (t <= 1e-12) continue; // reflex or degenerate corner
      const blocked = remaining.some((j) => {
        const p = points[j]!;
        if (j === ia || j === ib || j === ic || [a, b, c].some((q) => p[0] === q[0] && p[1] === q[1])) return false;
        return inTriangle(p, a, b, c, sign);
      });
      if (blocked) continue;
      triangles.push([ia, ib, ic]);
      remaining.splice(i, 1);
      clipped = true;
      break;
    }
    if (!clipped) {
      // Only collinear runs are left: drop the flattest corner without emitting a triangle.
      let flattest = 0;
      let best = Infinity;
      for (let i = 0; i < remaining.length; i++) {
        const a = points[remaining[(i + remaining.length - 1) % remaining.length]!]!;
        const b = points[remaining[i]!]!;
        const c = points[remaining[(i + 1) % remaining.length]!]!;
        const t = Math.abs(turn(a, b, c));
        if (t < best) {
          best = t;
          flattest = i;
        }
      }
      remaining.splice(flattest, 1);
    }
  }
  if (remaining.length === 3 && sign * turn(points[remaining[0]!]!, points[remaining[1]!]!, points[remaining[2]!]!) > 1e-12) {
    triangles.push([remaining[0]!, remaining[1]!, remaining[2]!]);
  }
  return triangles;
}
