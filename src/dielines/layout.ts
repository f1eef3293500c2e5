/**
 * Sheet layout (n-up): how many copies of a blank a press sheet holds, and where. Pure geometry on
 * the blank's cut outlines, in millimetres, sheet origin top-left, y down; the gripper strip runs
 * along the top edge and holds no copy.
 *
 * Copies sit in rows. A row repeats one orientation (0° or 90°) at the smallest pitch that keeps
 * `gap` between neighbouring outlines. Each row is then dropped onto the one above, shifted
 * sideways by δ and either in the same orientation or turned 180°, until its outlines come within
 * `gap` of the row above: outlines with flaps interlock, which a plain grid of bounding boxes does
 * not allow. The sideways shift is searched; the best count wins. Distances are measured between
 * the true outlines (each edge widened into a capsule of radius `gap`), so copies never overlap.
 */
import { polygonArea } from './geometry.js';
import type { Dieline, Point } from './types.js';

export interface SheetSpec {
  widthMm: number;
  heightMm: number;
  gripperMm: number;
  gapMm: number;
}

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
  const outlines = dieline.paths.filter((path) => path.type === 'cut' && path.role === 'outline').map((path) => path.points);
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
  vertices: Point[];
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
  return { vertices: outlines.flat(), edges, width, height, bins, reach };
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
  const [ax, ay] = edge.a;
  const [bx, by] = edge.b;
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
  for (const [qx, qy] of lower.vertices) {
    const x = qx + dx;
    for (const edge of edgesNear(upper, x)) {
      if (x < edge.minX - r || x > edge.maxX + r) continue;
      const bottom = capsuleCrossing(x, edge, r, true);
      if (bottom - qy > v) v = bottom - qy;
    }
  }
  for (const [px, py] of upper.vertices) {
    const x = px - dx;
    for (const edge of edgesNear(lower, x)) {
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

/** Lays rows of `a` and `b` (alternating; the same when b is a) down the sheet. */
function fillSheet(
  sheet: SheetSpec,
  size: { width: number; height: number },
  pitch: number,
  shift: number,
  steps: [number, number],
  rotations: [LayoutCopy['rotationDeg'], LayoutCopy['rotationDeg']],
): Candidate {
  const copies: LayoutCopy[] = [];
  if (!(steps[0] > 0.001 && steps[1] > 0.001 && pitch > 0.001 && Number.isFinite(steps[0] + steps[1]))) {
    return { count: 0, across: 0, down: 0, quarter: false, copies };
  }
  let across = 0;
  let down = 0;
  let y = sheet.gripperMm;
  for (let row = 0; y + size.height <= sheet.heightMm + 1e-9; row++) {
    const x0 = row % 2 === 0 ? 0 : shift;
    let inRow = 0;
    for (let x = x0; x + size.width <= sheet.widthMm + 1e-9; x += pitch) {
      copies.push({ x: round(x), y: round(y), rotationDeg: rotations[row % 2]! });
      inRow++;
    }
    if (inRow > 0) down++;
    across = Math.max(across, inRow);
    y += steps[row % 2]!;
  }
  return { count: copies.length, across, down, quarter: rotations[0] === 90, copies };
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
      if (outlineDistance(origin, at(second, second.x - first.x, second.y - first.y)) < gap - allowance) return false;
    }
  }
  return true;
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

/** Candidates in one orientation: rows of the same turn and rows alternating with its 180° turn. */
function candidatesFor(shape: BlankShape, quarter: 0 | 90, sheet: SheetSpec): Candidate[] {
  const a = rotateShape(shape, quarter);
  const b = rotateShape(shape, quarter === 0 ? 180 : 270);
  if (a.width > sheet.widthMm + 1e-9 || a.height > sheet.heightMm - sheet.gripperMm + 1e-9) return [];
  const gap = sheet.gapMm;
  const reach = Math.max(gap, 1e-6) + 1e-6;
  const pa = prepare(a.outlines, a.width, a.height, reach);
  const pb = prepare(b.outlines, b.width, b.height, reach);
  // Side by side within a row: the same drop, across (x and y swapped).
  const across = prepare(transpose(a.outlines), a.height, a.width, reach);
  const pitch = Math.max(dropOffset(across, across, 0, gap), 1e-3);
  const size = { width: a.width, height: a.height };
  const out: Candidate[] = [];
  // A plain grid of bounding boxes is always one of the answers.
  out.push({ ...fillSheet(sheet, size, a.width + gap, 0, [a.height + gap, a.height + gap], [quarter, quarter]), grid: true });
  const sameStep = rowStep(pa, pa, pitch, 0, gap);
  for (let k = 0; k < SHIFT_STEPS; k++) {
    const shift = (pitch * k) / SHIFT_STEPS;
    // Same orientation, zig-zag shift: rows two apart line up exactly.
    const s1 = rowStep(pa, pa, pitch, shift, gap);
    const s2 = rowStep(pa, pa, pitch, -shift, gap);
    const minSum = sameStep;
    out.push(fillSheet(sheet, size, pitch, shift, [s1, Math.max(s2, minSum - s1)], [quarter, quarter]));
    // Alternating 180° turns.
    const t1 = rowStep(pa, pb, pitch, shift, gap);
    const t2 = rowStep(pb, pa, pitch, -shift, gap);
    const bStep = rowStep(pb, pb, pitch, 0, gap);
    const sum = Math.max(sameStep, bStep);
    const turned = quarter === 0 ? 180 : 270;
    out.push(fillSheet(sheet, size, pitch, shift, [t1, Math.max(t2, sum - t1)], [quarter, turned]));
  }
  return out;
}

/** The layout with the most copies; a plain grid wins ties, then 0° before 90°. */
export function layoutSheet(shape: BlankShape, sheet: SheetSpec): SheetLayout {
  const candidates = [...candidatesFor(shape, 0, sheet), ...candidatesFor(shape, 90, sheet)].filter((c) => c.count > 0);
  if (candidates.length === 0) throw new BlankTooLargeError();
  // Stable: among equal counts the earlier (grid first, 0° first, smaller shift) is kept.
  const ranked = candidates.map((candidate, index) => ({ candidate, index })).sort((p, q) => q.candidate.count - p.candidate.count || Number(q.candidate.grid ?? false) - Number(p.candidate.grid ?? false) || p.index - q.index);
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
