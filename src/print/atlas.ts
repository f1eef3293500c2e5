/**
 * A box model's texture atlas: each printed panel's region of the printed sheet (its outline's
 * bounding box) packed into one square texture at one common density, the largest at which every
 * region fits. Each cell carries a gutter of a few texels of the sheet around its panel (the bleed,
 * the neighbouring panel across a crease), so filtering and mip-mapping at a panel's edge sample what
 * is printed next to it rather than another cell. A cell may hold its region turned a quarter turn.
 * Pure and deterministic: the model (its UVs) and the texture renderer (its cells) compute the same
 * layout from the same regions.
 */
import { LRUCache } from 'lru-cache';
import type { Bounds, Point } from '../dielines/index.js';
import { kept } from './memo.js';

/** A printed region of the sheet, in sheet millimetres. */
export interface AtlasRegion {
  id: string;
  bounds: Bounds;
}

export interface AtlasCell {
  id: string;
  /** The sheet region the cell shows, gutter included (mm), `pxPerMm` texels to the millimetre. */
  source: Bounds;
  /** The cell in the texture, texels from its top-left corner (integers). */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The region turned a quarter turn clockwise: its x runs down the texture, its y right to left. */
  rotated: boolean;
}

export interface TextureAtlas {
  /** The texture's side, px (it is square). */
  sizePx: number;
  /** Texels per sheet millimetre, the same in every cell. */
  pxPerMm: number;
  /** Texels of sheet around each region on every side. */
  gutterPx: number;
  cells: AtlasCell[];
}

/** Binary-search steps for the density: the last one moves it by 2⁻²⁰ of the upper bound. */
const SEARCH_STEPS = 20;

/** Texels of gutter around each cell: enough for the first mip levels. */
export function atlasGutterPx(sizePx: number): number {
  return Math.max(2, Math.round(sizePx / 1024));
}

/** The regions packed at the largest common density that fits them all into `sizePx`². */
export function packAtlas(regions: readonly AtlasRegion[], sizePx: number): TextureAtlas {
  const gutterPx = atlasGutterPx(sizePx);
  const area = regions.reduce((sum, region) => sum + region.bounds.width * region.bounds.height, 0);
  // No packing beats a full square.
  let high = area > 0 ? Math.sqrt((sizePx * sizePx) / area) : sizePx;
  let low = 0;
  let best = layout(regions, sizePx, gutterPx, 0);
  if (!best) throw new Error(`${regions.length} atlas regions cannot fit in ${sizePx} px with their gutters`);
  for (let step = 0; step < SEARCH_STEPS; step++) {
    const middle = (low + high) / 2;
    const packed = layout(regions, sizePx, gutterPx, middle);
    if (packed) {
      low = middle;
      best = packed;
    } else {
      high = middle;
    }
  }
  return best;
}

/** Layouts kept: a model is rebuilt at the same size far more often than a new size comes. */
const memo = new LRUCache<string, TextureAtlas>({ max: 256 });

/** packAtlas, remembered for the same regions and size (the packing takes up to about 0.1 s). */
export function packAtlasCached(regions: readonly AtlasRegion[], sizePx: number): TextureAtlas {
  return kept<string, TextureAtlas>(memo, JSON.stringify([sizePx, regions]), () => packAtlas(regions, sizePx));
}

/** Where a sheet point (mm) of the cell's region lands in the texture, as glTF UVs (v down). */
export function atlasUv(atlas: TextureAtlas, cell: AtlasCell, [x, y]: Point): [number, number] {
  const dx = (x - cell.source.x) * atlas.pxPerMm;
  const dy = (y - cell.source.y) * atlas.pxPerMm;
  const [tx, ty] = cell.rotated ? [cell.width - dy, dx] : [dx, dy];
  return [(cell.x + tx) / atlas.sizePx, (cell.y + ty) / atlas.sizePx];
}

/** The atlas at `pxPerMm`, or null when its cells do not fit in one square of `sizePx`. */
function layout(regions: readonly AtlasRegion[], sizePx: number, gutterPx: number, pxPerMm: number): TextureAtlas | null {
  const sizes = regions.map((region) => ({
    width: Math.ceil(region.bounds.width * pxPerMm) + 2 * gutterPx,
    height: Math.ceil(region.bounds.height * pxPerMm) + 2 * gutterPx,
  }));
  const placed = packRectangles(sizes, sizePx);
  if (!placed) return null;
  const cells = regions.map((region, index): AtlasCell => {
    const { width, height } = sizes[index]!;
    const { x, y, rotated } = placed[index]!;
    // The cell's sides in px are whole: the region grows by the rounding and the gutter, centred.
    const grow = (px: number, mm: number) => (pxPerMm > 0 ? (px / pxPerMm - mm) / 2 : 0);
    const source: Bounds = {
      x: region.bounds.x - grow(width, region.bounds.width),
      y: region.bounds.y - grow(height, region.bounds.height),
      width: pxPerMm > 0 ? width / pxPerMm : region.bounds.width,
      height: pxPerMm > 0 ? height / pxPerMm : region.bounds.height,
    };
    return { id: region.id, source, x, y, width: rotated ? height : width, height: rotated ? width : height, rotated };
  });
  return { sizePx, pxPerMm, gutterPx, cells };
}

interface Size {
  width: number;
  height: number;
}

interface Rect extends Size {
  x: number;
  y: number;
}

interface Placed {
  x: number;
  y: number;
  rotated: boolean;
}

/** Scores of a free rectangle for a size (lower is better): Jylänki's MaxRects rules. */
type Rule = (free: Rect, width: number, height: number, placed: readonly Rect[], side: number) => [number, number];

const RULES: readonly Rule[] = [
  // Best short side fit.
  (free, w, h) => [Math.min(free.width - w, free.height - h), Math.max(free.width - w, free.height - h)],
  // Bottom-left: the lowest top edge, then the leftmost.
  (free, _w, h) => [free.y + h, free.x],
  // Best area fit.
  (free, w, h) => [free.width * free.height - w * h, Math.min(free.width - w, free.height - h)],
  // Contact point: the longest edge touching the square's sides or placed cells.
  (free, w, h, placed, side) => [-contact(free.x, free.y, w, h, placed, side), free.y + h],
];

/** Orders to try, largest first by each key. */
const ORDERS: ReadonlyArray<(size: Size) => number> = [
  (s) => s.width * s.height,
  (s) => Math.max(s.width, s.height),
  (s) => s.width + s.height,
  (s) => s.height,
  (s) => s.width,
];

/** Every size placed without overlap in a `side`² square (first rule and order that fits), or null. */
function packRectangles(sizes: readonly Size[], side: number): Placed[] | null {
  if (sizes.some((size) => Math.max(size.width, size.height) > side)) return null;
  for (const order of ORDERS) {
    const sequence = sizes.map((_, index) => index).sort((a, b) => order(sizes[b]!) - order(sizes[a]!) || a - b);
    for (const rule of RULES) {
      const placed = maxRects(sizes, sequence, side, rule);
      if (placed) return placed;
    }
  }
  return null;
}

/** MaxRects: each size in `sequence` into the free rectangle its rule scores best, either way round. */
function maxRects(sizes: readonly Size[], sequence: readonly number[], side: number, rule: Rule): Placed[] | null {
  let free: Rect[] = [{ x: 0, y: 0, width: side, height: side }];
  const used: Rect[] = [];
  const out: Placed[] = new Array<Placed>(sizes.length);
  for (const index of sequence) {
    const { width, height } = sizes[index]!;
    let best: { rect: Rect; rotated: boolean; score: [number, number] } | null = null;
    for (const candidate of free) {
      for (const rotated of width === height ? [false] : [false, true]) {
        const w = rotated ? height : width;
        const h = rotated ? width : height;
        if (w > candidate.width || h > candidate.height) continue;
        const score = rule(candidate, w, h, used, side);
        if (!best || score[0] < best.score[0] || (score[0] === best.score[0] && score[1] < best.score[1])) {
          best = { rect: { x: candidate.x, y: candidate.y, width: w, height: h }, rotated, score };
        }
      }
    }
    if (!best) return null;
    used.push(best.rect);
    out[index] = { x: best.rect.x, y: best.rect.y, rotated: best.rotated };
    free = prune(free.flatMap((rect) => split(rect, best.rect)));
  }
  return out;
}

/** The free rectangle less `used`: itself when apart, else the up to four maximal rectangles around it. */
function split(rect: Rect, used: Rect): Rect[] {
  const apart = used.x >= rect.x + rect.width || used.x + used.width <= rect.x;
  if (apart || used.y >= rect.y + rect.height || used.y + used.height <= rect.y) return [rect];
  const out: Rect[] = [];
  if (used.x > rect.x) out.push({ ...rect, width: used.x - rect.x });
  if (used.x + used.width < rect.x + rect.width) {
    out.push({ ...rect, x: used.x + used.width, width: rect.x + rect.width - used.x - used.width });
  }
  if (used.y > rect.y) out.push({ ...rect, height: used.y - rect.y });
  if (used.y + used.height < rect.y + rect.height) {
    out.push({ ...rect, y: used.y + used.height, height: rect.y + rect.height - used.y - used.height });
  }
  return out;
}

/** Drops free rectangles inside another (the first of two equal ones stays). */
function prune(rects: Rect[]): Rect[] {
  const inside = (a: Rect, b: Rect) => a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;
  return rects.filter((rect, i) => !rects.some((other, j) => j !== i && inside(rect, other) && (!inside(other, rect) || j < i)));
}

/** How much of a cell's outline at (x, y) touches the square's sides or placed cells. */
function contact(x: number, y: number, w: number, h: number, placed: readonly Rect[], side: number): number {
  let length = 0;
  if (x === 0 || x + w === side) length += h;
  if (y === 0 || y + h === side) length += w;
  const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  for (const rect of placed) {
    if (rect.x === x + w || rect.x + rect.width === x) length += overlap(y, y + h, rect.y, rect.y + rect.height);
    if (rect.y === y + h || rect.y + rect.height === y) length += overlap(x, x + w, rect.x, rect.x + rect.width);
  }
  return length;
}
