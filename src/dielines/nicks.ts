/**
 * Nicks: short gaps left in a cut line so the blank stays in the sheet through the press and
 * strips out afterwards. Each straight cut edge longer than NICK_EDGE_MIN_MM gets `count` gaps of
 * `width`, evenly spaced (at k / (count + 1) of the edge), so none comes within 5 mm of a corner.
 * A closed outline with nicks becomes open runs from one gap to the next.
 */
import { round3 } from './format.js';
import type { Range } from './limits.js';
import type { Point } from './types.js';

/** Only edges longer than this are nicked. */
export const NICK_EDGE_MIN_MM = 50;
export const NICK_COUNT_LIMITS: Range = { min: 0, max: 4 };
export const NICK_WIDTH_LIMITS: Range = { min: 0.3, max: 1 };
export const DEFAULT_NICK_WIDTH_MM = 0.5;

export interface NickSpec {
  count: number;
  width: number;
}

/** Direction change (radians) under which consecutive segments count as one straight edge. */
const STRAIGHT_TOLERANCE = 1e-6;

interface Gap {
  /** Index of the polygon vertex the gap's edge run starts at, and the gap's distance from it along the run. */
  start: Point;
  end: Point;
  /** Vertex index after which the gap lies (the gap is on segment index → index + 1). */
  segment: number;
  /** Distance of the gap's start from vertex `segment`. */
  offset: number;
}

function direction(a: Point, b: Point): number {
  return Math.atan2(b[1] - a[1], b[0] - a[0]);
}

function sameDirection(a: number, b: number): boolean {
  const d = Math.abs(a - b) % (2 * Math.PI);
  return Math.min(d, 2 * Math.PI - d) < STRAIGHT_TOLERANCE;
}

const lerp = (a: Point, b: Point, t: number): Point => [round3(a[0] + (b[0] - a[0]) * t), round3(a[1] + (b[1] - a[1]) * t)];

/** The gaps of a closed polygon, in walking order. */
function gapsOf(polygon: readonly Point[], spec: NickSpec): Gap[] {
  const n = polygon.length;
  const segment = (i: number): [Point, Point] => [polygon[i]!, polygon[(i + 1) % n]!];
  const dirs = polygon.map((_, i) => direction(...segment(i)));
  // Start on a segment that begins a straight run, so no run wraps past index 0.
  let first = 0;
  while (first < n && sameDirection(dirs[first]!, dirs[(first - 1 + n) % n]!)) first++;
  if (first === n) return [];
  const gaps: Gap[] = [];
  for (let k = 0; k < n; ) {
    const i0 = (first + k) % n;
    let count = 1;
    while (count < n - k && sameDirection(dirs[(i0 + count) % n]!, dirs[i0]!)) count++;
    const lengths = Array.from({ length: count }, (_, j) => {
      const [a, b] = segment((i0 + j) % n);
      return Math.hypot(b[0] - a[0], b[1] - a[1]);
    });
    const total = lengths.reduce((sum, value) => sum + value, 0);
    if (total > NICK_EDGE_MIN_MM) {
      for (let m = 1; m <= spec.count; m++) {
        const centre = (total * m) / (spec.count + 1);
        gaps.push(locate(polygon, i0, lengths, centre - spec.width / 2, centre + spec.width / 2));
      }
    }
    k += count;
  }
  return gaps;
}

/** A gap from `from` to `to` (distances along the run starting at vertex i0); it lies on one segment. */
function locate(polygon: readonly Point[], i0: number, lengths: readonly number[], from: number, to: number): Gap {
  const n = polygon.length;
  let walked = 0;
  for (let j = 0; j < lengths.length; j++) {
    const length = lengths[j]!;
    if (from < walked + length || j === lengths.length - 1) {
      const a = polygon[(i0 + j) % n]!;
      const b = polygon[(i0 + j + 1) % n]!;
      // A gap straddling a collinear vertex is moved onto the segment holding its start.
      const s = Math.max(0, Math.min(length - (to - from), from - walked));
      return { start: lerp(a, b, s / length), end: lerp(a, b, (s + to - from) / length), segment: (i0 + j) % n, offset: s };
    }
    walked += length;
  }
  throw new Error('nick outside its edge');
}

/**
 * The cut runs of a closed polygon with nicks: the polygon itself (closed) when no edge is long
 * enough, else one open run from each gap's end to the next gap's start.
 */
export function nickPolygon(polygon: readonly Point[], spec: NickSpec): { closed: boolean; runs: Point[][] } {
  const gaps = gapsOf(polygon, spec).sort((p, q) => p.segment - q.segment || p.offset - q.offset);
  if (gaps.length === 0) return { closed: true, runs: [[...polygon]] };
  const n = polygon.length;
  const runs: Point[][] = [];
  for (let g = 0; g < gaps.length; g++) {
    const gap = gaps[g]!;
    const next = gaps[(g + 1) % gaps.length]!;
    const run: Point[] = [gap.end];
    // Vertices strictly after the gap's segment start, up to the next gap's segment start.
    let i = (gap.segment + 1) % n;
    const sameSegment = next.segment === gap.segment && next.offset > gap.offset;
    if (!sameSegment) {
      for (;;) {
        run.push(polygon[i]!);
        if (i === next.segment) break;
        i = (i + 1) % n;
      }
    }
    run.push(next.start);
    runs.push(run);
  }
  return { closed: false, runs };
}
