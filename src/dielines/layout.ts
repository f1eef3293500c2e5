/**
 * Sheet layout (n-up): how many copies of a blank a press sheet holds, and where. Pure geometry on
 * the blank's cut outlines, in millimetres, sheet origin top-left, y down; the gripper strip runs
 * along the top edge and holds no copy.
 *
 * Copies sit in rows. A row repeats a pattern at the smallest period that keeps `gap` between
 * neighbouring outlines: one orientation (0° or 90°), or that orientation alternating with its
 * 180° turn (0°/180° or 90°/270°) copy by copy. Each row is then dropped onto the one above,
 * shifted sideways by δ, with the same pattern or (single orientations) turned 180°, until its
 * outlines come within `gap` of the row above: outlines with flaps interlock, which a plain grid
 * of bounding boxes does not allow. The sideways shift is searched; the best count wins. Distances
 * are measured between the true outlines (each edge widened into a capsule of radius `gap`), so
 * copies never overlap. `margin` keeps copies off the side, tail and trim edges, `gripper` off the
 * top edge; `grain` fixes which way the blank's height runs.
 */
import { distanceToBoundary, pointInPolygon, polygonArea } from './geometry.js';
import type { Dieline, Point } from './types.js';

/** `along`/`across`: the blank's height runs along or across the sheet's longer side (a square sheet's width). */
export type Grain = 'any' | 'along' | 'across';

export const GRAINS: readonly Grain[] = ['any', 'along', 'across'];

export interface SheetSpec {
  widthMm: number;
  heightMm: number;
  gripperMm: number;
  gapMm: number;
  /** Side lay, tail and trim edges; default 5. */
  marginMm?: number;
  grain?: Grain;
}

export const DEFAULT_MARGIN_MM = 5;

export interface LayoutCopy {
  /** Top-left of the copy's rotated bounding box on the sheet, mm, y down. */
  x: number;
  y: number;
  /** Clockwise turn of the blank as the sheet is seen. */
  rotationDeg: 0 | 90 | 180 | 270;
}

export interface SheetLayout {
  across: number;
  down: number;
  count: number;
  /** True when the copies are turned a quarter (90° or 270°). */
  rotated: boolean;
  /** count × cut-outline area ÷ sheet area. */
  utilisation: number;
  sheet: { widthMm: number; heightMm: number };
  copies: LayoutCopy[];
}

/** A blank as closed outlines, with its bounding box at the origin. */
export interface BlankShape {
  outlines: Point[][];
  width: number;
  height: number;
}

/** The blank's cut outlines, as the layout places them. */
export function blankShape(dieline: Dieline): BlankShape {
  // Nicked outlines are open runs; the pieces then carry the whole outline.
  const outlines = dieline.pieces.some((piece) => piece.outline)
    ? dieline.pieces.map((piece) => piece.outline!)
    : dieline.paths.filter((path) => path.type === 'cut' && path.role === 'outline').map((path) => path.points);
  return { outlines, width: dieline.blank.width, height: dieline.blank.height };
}

export class BlankTooLargeError extends Error {
  constructor() {
    super('The blank does not fit on the sheet.');
    this.name = 'BlankTooLargeError';
  }
}

/** How many sideways shifts between rows are tried. */
const SHIFT_STEPS = 24;
/** Copies side by side in a row are tried this many steps of a blank's height apart, up and down. */
const PAIR_OFFSET_STEPS = 8;
const PAIR_SHIFT_STEPS = 12;
/** How many of those offsets get the full search of shifts between rows. */
const PAIR_SEARCHED = 2;

/** The shape turned clockwise (y down) by `degrees`, bounding box back at the origin. */
function rotateShape(shape: BlankShape, degrees: 0 | 90 | 180 | 270): BlankShape {
  const { width: w, height: h } = shape;
  const map: Record<typeof degrees, (p: Point) => Point> = {
    0: ([x, y]) => [x, y],
    90: ([x, y]) => [h - y, x],
    180: ([x, y]) => [w - x, h - y],
    270: ([x, y]) => [y, w - x],
  };
  const quarter = degrees === 90 || degrees === 270;
  return { outlines: shape.outlines.map((outline) => outline.map(map[degrees])), width: quarter ? h : w, height: quarter ? w : h };
}

/** The blank placed on the sheet as a copy says. */
function placeShape(shape: BlankShape, copy: LayoutCopy): Point[][] {
  return rotateShape(shape, copy.rotationDeg).outlines.map((outline) => outline.map(([x, y]): Point => [x + copy.x, y + copy.y]));
}

interface Edge {
  a: Point;
  b: Point;
  length: number;
  minX: number;
  maxX: number;
}

interface Prepared {
  outlines: readonly Point[][];
  /** Vertices with nothing of the shape straight above them: only these can touch a shape above. */
  topVertices: Point[];
  /** Vertices with nothing of the shape straight below them: only these can touch a shape below. */
  bottomVertices: Point[];
  edges: Edge[];
  width: number;
  height: number;
  /** Edges by vertical strip of width BIN_MM, so a vertical line only meets the edges near it. */
  bins: Map<number, Edge[]>;
  /** The bins hold every edge within this distance of them. */
  reach: number;
}

const BIN_MM = 8;

function prepare(outlines: readonly Point[][], width: number, height: number, reach = 0): Prepared {
  const edges: Edge[] = [];
  for (const outline of outlines) {
    for (let i = 0; i < outline.length; i++) {
      const a = outline[i]!;
      const b = outline[(i + 1) % outline.length]!;
      edges.push({ a, b, length: Math.hypot(b[0] - a[0], b[1] - a[1]), minX: Math.min(a[0], b[0]), maxX: Math.max(a[0], b[0]) });
    }
  }
  const bins = new Map<number, Edge[]>();
  for (const edge of edges) {
    for (let bin = Math.floor((edge.minX - reach) / BIN_MM); bin <= Math.floor((edge.maxX + reach) / BIN_MM); bin++) {
      const list = bins.get(bin);
      if (list) list.push(edge);
      else bins.set(bin, [edge]);
    }
  }
  const vertices = outlines.flat();
  return {
    outlines,
    topVertices: vertices.filter((vertex) => !crossedBeyond(bins.get(Math.floor(vertex[0] / BIN_MM)) ?? NO_EDGES, vertex, -1)),
    bottomVertices: vertices.filter((vertex) => !crossedBeyond(bins.get(Math.floor(vertex[0] / BIN_MM)) ?? NO_EDGES, vertex, 1)),
    edges,
    width,
    height,
    bins,
    reach,
  };
}

/**
 * Whether an edge (of those binned where the vertex is) crosses the vertical line through `vertex`
 * above it (direction −1, y down) or below it (+1). A vertex with its own outline beyond it never decides a drop: the outline point
 * beyond it meets the other shape first.
 */
function crossedBeyond(edges: readonly Edge[], vertex: Point, direction: -1 | 1): boolean {
  const x = vertex[0];
  const y = vertex[1];
  for (const edge of edges) {
    if (x < edge.minX || x > edge.maxX) continue;
    const ax = edge.a[0];
    const ay = edge.a[1];
    const bx = edge.b[0];
    const by = edge.b[1];
    if (ax === bx) {
      if ((ay - y) * direction > 1e-9 || (by - y) * direction > 1e-9) return true;
      continue;
    }
    const crossing = ay + ((x - ax) / (bx - ax)) * (by - ay);
    if ((crossing - y) * direction > 1e-9) return true;
  }
  return false;
}

const NO_EDGES: readonly Edge[] = [];

const transpose = (outlines: readonly Point[][]): Point[][] => outlines.map((outline) => outline.map(([x, y]): Point => [y, x]));

/** The edges whose x-range comes within the shape's reach of the vertical line at `x`. */
function edgesNear(shape: Prepared, x: number): readonly Edge[] {
  return shape.bins.get(Math.floor(x / BIN_MM)) ?? NO_EDGES;
}

/**
 * Where the vertical line at `x` crosses the capsule of radius `r` around edge a–b (y down): the
 * bottom of the crossing when `bottom`, else its top; −Infinity (bottom) or +Infinity (top) when
 * the line misses the capsule, which never raises a drop offset.
 * Called millions of times per layout, so it allocates nothing.
 */
function capsuleCrossing(x: number, edge: Edge, r: number, bottom: boolean): number {
  // The extreme crossing so far: ±Infinity until one is found.
  let best = bottom ? -Infinity : Infinity;
  const ax = edge.a[0];
  const ay = edge.a[1];
  const bx = edge.b[0];
  const by = edge.b[1];
  for (let k = 0; k < 2; k++) {
    const cx = k === 0 ? ax : bx;
    const cy = k === 0 ? ay : by;
    const dx = x - cx;
    if (Math.abs(dx) <= r) {
      const half = Math.sqrt(r * r - dx * dx);
      best = bottom ? Math.max(best, cy + half) : Math.min(best, cy - half);
    }
  }
  const length = edge.length;
  if (length > 0) {
    const ux = (bx - ax) / length;
    const uy = (by - ay) / length;
    // Across the edge: ux·(y − ay) − uy·(x − ax) within ±r; along it: ux·(x − ax) + uy·(y − ay) within [0, length].
    let lo = -Infinity;
    let hi = Infinity;
    const across = -uy * (x - ax);
    if (Math.abs(ux) < 1e-12) {
      if (Math.abs(across) > r) return best;
    } else {
      const y1 = ay + (-r - across) / ux;
      const y2 = ay + (r - across) / ux;
      lo = Math.min(y1, y2);
      hi = Math.max(y1, y2);
    }
    const along = ux * (x - ax);
    if (Math.abs(uy) < 1e-12) {
      if (along < 0 || along > length) return best;
    } else {
      const y1 = ay + (0 - along) / uy;
      const y2 = ay + (length - along) / uy;
      lo = Math.max(lo, Math.min(y1, y2));
      hi = Math.min(hi, Math.max(y1, y2));
    }
    if (lo <= hi && Number.isFinite(lo) && Number.isFinite(hi)) best = bottom ? Math.max(best, hi) : Math.min(best, lo);
  }
  return best;
}

/**
 * The lowest offset v (y down) at which `lower`, shifted by (dx, v) and rising from far below,
 * first comes within `gap` of `upper`; −Infinity when they never meet.
 */
function dropOffset(upper: Prepared, lower: Prepared, dx: number, gap: number): number {
  const r = Math.max(gap, 1e-6);
  if (upper.reach < r || lower.reach < r) throw new Error('shapes prepared for a smaller gap');
  let v = -Infinity;
  const rising = lower.topVertices;
  for (let i = 0; i < rising.length; i++) {
    const qy = rising[i]![1];
    const x = rising[i]![0] + dx;
    const near = edgesNear(upper, x);
    for (let j = 0; j < near.length; j++) {
      const edge = near[j]!;
      if (x < edge.minX - r || x > edge.maxX + r) continue;
      const bottom = capsuleCrossing(x, edge, r, true);
      if (bottom - qy > v) v = bottom - qy;
    }
  }
  const falling = upper.bottomVertices;
  for (let i = 0; i < falling.length; i++) {
    const py = falling[i]![1];
    const x = falling[i]![0] - dx;
    const near = edgesNear(lower, x);
    for (let j = 0; j < near.length; j++) {
      const edge = near[j]!;
      if (x < edge.minX - r || x > edge.maxX + r) continue;
      const top = capsuleCrossing(x, edge, r, false);
      if (py - top > v) v = py - top;
    }
  }
  return v;
}

/** Vertical step from a row of `upper` (pitch `pitch`, at x = k·pitch) to a row of `lower` shifted by `shift`. */
function rowStep(upper: Prepared, lower: Prepared, pitch: number, shift: number, gap: number): number {
  let v = -Infinity;
  const reach = Math.max(upper.width, lower.width) + gap;
  const first = Math.floor((shift - reach) / pitch);
  const last = Math.ceil((shift + reach) / pitch);
  for (let k = first; k <= last; k++) v = Math.max(v, dropOffset(upper, lower, shift - k * pitch, gap));
  return v;
}

interface Candidate {
  grid?: boolean;
  count: number;
  across: number;
  down: number;
  quarter: boolean;
  copies: LayoutCopy[];
}

type Turn = LayoutCopy['rotationDeg'];

/** What a row repeats every `period` mm: one copy, or a copy and its 180° turn side by side. */
interface RowPattern {
  /** dy ≥ 0: a member may sit lower in its row, so turned copies interlock side by side. */
  members: { rotationDeg: Turn; dx: number; dy: number }[];
  period: number;
  /** The pattern's outlines (members placed), prepared for drops. */
  shape: Prepared;
}

function pattern(members: RowPattern['members'], shapes: ReadonlyMap<Turn, BlankShape>, period: number, reach: number): RowPattern {
  const outlines = members.flatMap((member) =>
    shapes.get(member.rotationDeg)!.outlines.map((outline) => outline.map(([x, y]): Point => [x + member.dx, y + member.dy])),
  );
  const first = shapes.get(members[0]!.rotationDeg)!;
  const width = Math.max(...members.map((member) => member.dx)) + first.width;
  const height = Math.max(...members.map((member) => member.dy)) + first.height;
  return { members, period, shape: prepare(outlines, width, height, reach) };
}

/** Lays rows of `patterns[0]` and `patterns[1]` (alternating; the same when they are) down the sheet. */
function fillSheet(
  sheet: Required<SheetSpec>,
  size: { width: number; height: number },
  patterns: readonly [RowPattern, RowPattern],
  shift: number,
  steps: readonly [number, number],
  quarter: boolean,
): Candidate {
  const copies: LayoutCopy[] = [];
  const period = Math.min(patterns[0].period, patterns[1].period);
  if (!(steps[0] > 0.001 && steps[1] > 0.001 && period > 0.001 && Number.isFinite(steps[0] + steps[1]))) {
    return { count: 0, across: 0, down: 0, quarter, copies };
  }
  const left = sheet.marginMm;
  const right = sheet.widthMm - sheet.marginMm;
  let across = 0;
  let down = 0;
  let y = sheet.gripperMm;
  for (let row = 0; y + size.height <= sheet.heightMm - sheet.marginMm + 1e-9; row++) {
    const rowPattern = patterns[row % 2]!;
    const offset = row % 2 === 0 ? 0 : shift;
    let inRow = 0;
    // Start a whole period left of the margin so a shifted row fills in from the edge.
    for (let base = left + offset - Math.ceil(offset / rowPattern.period) * rowPattern.period; base <= right; base += rowPattern.period) {
      for (const member of rowPattern.members) {
        const x = base + member.dx;
        if (x < left - 1e-9 || x + size.width > right + 1e-9) continue;
        if (y + member.dy + size.height > sheet.heightMm - sheet.marginMm + 1e-9) continue;
        copies.push({ x: round(x), y: round(y + member.dy), rotationDeg: member.rotationDeg });
        inRow++;
      }
    }
    if (inRow > 0) down++;
    across = Math.max(across, inRow);
    y += steps[row % 2]!;
  }
  return { count: copies.length, across, down, quarter, copies };
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * Outlines at least `gap` apart (less a rounding allowance), pairwise. Copies repeat in rows, so
 * most neighbouring pairs stand in the same relation (the same turns and offset): each relation
 * is measured once.
 */
function separated(shape: BlankShape, copies: readonly LayoutCopy[], gap: number): boolean {
  const boxes = copies.map((copy) => {
    const quarter = copy.rotationDeg % 180 !== 0;
    return { x: copy.x, y: copy.y, w: quarter ? shape.height : shape.width, h: quarter ? shape.width : shape.height };
  });
  const turned = new Map<LayoutCopy['rotationDeg'], Prepared>();
  const at = (copy: LayoutCopy, x: number, y: number): Prepared => {
    const outlines = placeShape(shape, { x, y, rotationDeg: copy.rotationDeg });
    return prepare(outlines, 0, 0);
  };
  const measured = new Set<string>();
  const allowance = 0.01;
  for (let i = 0; i < copies.length; i++) {
    for (let j = i + 1; j < copies.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.x > b.x + b.w + gap || b.x > a.x + a.w + gap || a.y > b.y + b.h + gap || b.y > a.y + a.h + gap) continue;
      const first = copies[i]!;
      const second = copies[j]!;
      const relation = `${first.rotationDeg} ${second.rotationDeg} ${round(second.x - first.x)} ${round(second.y - first.y)}`;
      if (measured.has(relation)) continue;
      measured.add(relation);
      let origin = turned.get(first.rotationDeg);
      if (!origin) turned.set(first.rotationDeg, (origin = at(first, 0, 0)));
      const other = at(second, second.x - first.x, second.y - first.y);
      if (outlineDistance(origin, other) < gap - allowance) return false;
      // Touching outlines (no gap) are at distance 0 whether they touch or cross: no vertex may lie inside the other.
      if (gap <= allowance && (overlapsInside(origin, other) || overlapsInside(other, origin))) return false;
    }
  }
  return true;
}

/** Whether a vertex or an edge midpoint of `b` lies inside an outline of `a`, clear of its edges. */
function overlapsInside(a: Prepared, b: Prepared): boolean {
  const outlines = a.outlines;
  const probes = b.edges.flatMap((edge): Point[] => [edge.a, [(edge.a[0] + edge.b[0]) / 2, (edge.a[1] + edge.b[1]) / 2]]);
  return probes.some((p) => outlines.some((outline) => pointInPolygon(p, outline) && distanceToBoundary(p, outline) > 0.01));
}

function segmentDistance(p: Point, q: Point, r: Point, s: Point): number {
  const d1 = [q[0] - p[0], q[1] - p[1]];
  const d2 = [s[0] - r[0], s[1] - r[1]];
  const denominator = d1[0]! * d2[1]! - d1[1]! * d2[0]!;
  if (Math.abs(denominator) > 1e-12) {
    const t = ((r[0] - p[0]) * d2[1]! - (r[1] - p[1]) * d2[0]!) / denominator;
    const u = ((r[0] - p[0]) * d1[1]! - (r[1] - p[1]) * d1[0]!) / denominator;
    if (t >= 0 && t <= 1 && u >= 0 && u <= 1) return 0;
  }
  return Math.min(pointSegment(p, r, s), pointSegment(q, r, s), pointSegment(r, p, q), pointSegment(s, p, q));
}

function pointSegment(p: Point, a: Point, b: Point): number {
  const abx = b[0] - a[0];
  const aby = b[1] - a[1];
  const lengthSquared = abx * abx + aby * aby;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / lengthSquared));
  return Math.hypot(p[0] - a[0] - abx * t, p[1] - a[1] - aby * t);
}

/** Shortest distance between two sets of closed outlines (0 when edges cross). */
function outlineDistance(a: { edges: readonly Edge[] }, b: { edges: readonly Edge[] }): number {
  let best = Infinity;
  for (const e of a.edges) {
    for (const f of b.edges) {
      if (e.minX > f.maxX + best || f.minX > e.maxX + best) continue;
      best = Math.min(best, segmentDistance(e.a, e.b, f.a, f.b));
      if (best === 0) return 0;
    }
  }
  return best;
}

/** Shifts tried between rows of a pattern: a grid over the period plus the given exact ones. */
function shifts(period: number, exact: readonly number[] = [], steps = SHIFT_STEPS): number[] {
  return [...Array.from({ length: steps }, (_, k) => (period * k) / steps), ...exact.filter((value) => value > 0 && value < period)];
}

/** Candidates in one orientation: single-turn rows (same or alternating 180° row by row) and rows alternating copy by copy. */
function candidatesFor(shape: BlankShape, quarter: 0 | 90, sheet: Required<SheetSpec>): Candidate[] {
  const turned: Turn = quarter === 0 ? 180 : 270;
  const a = rotateShape(shape, quarter);
  const b = rotateShape(shape, turned);
  const usableWidth = sheet.widthMm - 2 * sheet.marginMm;
  const usableHeight = sheet.heightMm - sheet.gripperMm - sheet.marginMm;
  if (a.width > usableWidth + 1e-9 || a.height > usableHeight + 1e-9) return [];
  const gap = sheet.gapMm;
  const reach = Math.max(gap, 1e-6) + 1e-6;
  const shapes = new Map<Turn, BlankShape>([
    [quarter, a],
    [turned, b],
  ]);
  const size = { width: a.width, height: a.height };
  const isQuarter = quarter === 90;
  const out: Candidate[] = [];
  // A plain grid of bounding boxes is always one of the answers.
  const box = pattern([{ rotationDeg: quarter, dx: 0, dy: 0 }], shapes, a.width + gap, reach);
  out.push({ ...fillSheet(sheet, size, [box, box], 0, [a.height + gap, a.height + gap], isQuarter), grid: true });

  // Side by side within a row: the same drop, across (x and y swapped).
  const across = (upper: BlankShape, lower: BlankShape): number =>
    Math.max(
      dropOffset(
        prepare(transpose(upper.outlines), upper.height, upper.width, reach),
        prepare(transpose(lower.outlines), lower.height, lower.width, reach),
        0,
        gap,
      ),
      1e-3,
    );
  const pitch = across(a, a);
  const single = pattern([{ rotationDeg: quarter, dx: 0, dy: 0 }], shapes, pitch, reach);
  const singleTurned = pattern([{ rotationDeg: turned, dx: 0, dy: 0 }], shapes, across(b, b), reach);
  const sameStep = rowStep(single.shape, single.shape, pitch, 0, gap);
  const turnedStep = rowStep(singleTurned.shape, singleTurned.shape, singleTurned.period, 0, gap);
  for (const shift of shifts(pitch)) {
    // Same orientation, zig-zag shift: rows two apart line up exactly.
    const s1 = rowStep(single.shape, single.shape, pitch, shift, gap);
    const s2 = rowStep(single.shape, single.shape, pitch, -shift, gap);
    out.push(fillSheet(sheet, size, [single, single], shift, [s1, Math.max(s2, sameStep - s1)], isQuarter));
    // Alternating 180° turns row by row.
    const t1 = rowStep(single.shape, singleTurned.shape, pitch, shift, gap);
    const t2 = rowStep(singleTurned.shape, single.shape, pitch, -shift, gap);
    out.push(fillSheet(sheet, size, [single, singleTurned], shift, [t1, Math.max(t2, Math.max(sameStep, turnedStep) - t1)], isQuarter));
  }

  // Alternating copy by copy within the row: a, then its 180° turn beside it, raised or lowered by
  // dy so their flaps interlock, each at its closest pitch. Every dy is tried with rows stacked
  // straight; the best few are searched with sideways shifts.
  const transposed = new Map<Turn, Prepared>([
    [quarter, prepare(transpose(a.outlines), a.height, a.width, reach)],
    [turned, prepare(transpose(b.outlines), b.height, b.width, reach)],
  ]);
  const acrossAt = (upper: Turn, lower: Turn, dy: number): number =>
    Math.max(dropOffset(transposed.get(upper)!, transposed.get(lower)!, dy, gap), 1e-3);
  const usable = usableHeight - a.height;
  const pairs: { pair: RowPattern; step: number; rough: Candidate }[] = [];
  for (const [first, second] of [
    [quarter, turned],
    [turned, quarter],
  ] as const) {
    for (let k = -PAIR_OFFSET_STEPS; k <= PAIR_OFFSET_STEPS; k++) {
      const dy = (a.height * k) / PAIR_OFFSET_STEPS;
      if (Math.abs(dy) > usable + 1e-9) continue;
      const ab = acrossAt(first, second, dy);
      // The next copy of the same turn must clear this one too.
      const ba = Math.max(acrossAt(second, first, -dy), pitch - ab, singleTurned.period - ab);
      const pair = pattern(
        [
          { rotationDeg: first, dx: 0, dy: Math.max(0, -dy) },
          { rotationDeg: second, dx: ab, dy: Math.max(0, dy) },
        ],
        shapes,
        ab + ba,
        reach,
      );
      const step = rowStep(pair.shape, pair.shape, pair.period, 0, gap);
      pairs.push({ pair, step, rough: fillSheet(sheet, size, [pair, pair], 0, [step, step], isQuarter) });
    }
  }
  pairs.sort((p, q) => q.rough.count - p.rough.count || p.pair.period - q.pair.period);
  for (const { pair, step, rough } of pairs.slice(0, PAIR_SEARCHED)) {
    out.push(rough);
    const ab = pair.members[1]!.dx;
    for (const shift of shifts(pair.period, [ab, pair.period - ab], PAIR_SHIFT_STEPS)) {
      const s1 = rowStep(pair.shape, pair.shape, pair.period, shift, gap);
      const s2 = rowStep(pair.shape, pair.shape, pair.period, -shift, gap);
      out.push(fillSheet(sheet, size, [pair, pair], shift, [s1, Math.max(s2, step - s1)], isQuarter));
    }
  }
  return out;
}

/** The quarter turns the grain allows: the blank's height along the sheet's longer side is 0° on a portrait sheet. */
function allowedQuarters(sheet: Required<SheetSpec>): (0 | 90)[] {
  if (sheet.grain === 'any') return [0, 90];
  const portrait = sheet.heightMm > sheet.widthMm;
  const along: 0 | 90 = portrait ? 0 : 90;
  return [sheet.grain === 'along' ? along : along === 0 ? 90 : 0];
}

/** The layout with the most copies; a plain grid wins ties, then 0° before 90°. */
export function layoutSheet(shape: BlankShape, spec: SheetSpec): SheetLayout {
  const sheet: Required<SheetSpec> = { ...spec, marginMm: spec.marginMm ?? DEFAULT_MARGIN_MM, grain: spec.grain ?? 'any' };
  const candidates = allowedQuarters(sheet)
    .flatMap((quarter) => candidatesFor(shape, quarter, sheet))
    .filter((c) => c.count > 0);
  if (candidates.length === 0) throw new BlankTooLargeError();
  // Stable: among equal counts the earlier (grid first, 0° first, smaller shift) is kept.
  const ranked = candidates
    .map((candidate, index) => ({ candidate, index }))
    .sort((p, q) => {
      const grid = Number(q.candidate.grid ?? false) - Number(p.candidate.grid ?? false);
      return q.candidate.count - p.candidate.count || grid || p.index - q.index;
    });
  const area = shape.outlines.reduce((sum, outline) => sum + polygonArea(outline), 0);
  for (const { candidate } of ranked) {
    if (!separated(shape, candidate.copies, sheet.gapMm)) continue;
    return {
      across: candidate.across,
      down: candidate.down,
      count: candidate.count,
      rotated: candidate.quarter,
      utilisation: Math.round(((candidate.count * area) / (sheet.widthMm * sheet.heightMm)) * 10000) / 10000,
      sheet: { widthMm: sheet.widthMm, heightMm: sheet.heightMm },
      copies: candidate.copies,
    };
  }
  throw new BlankTooLargeError();
}
