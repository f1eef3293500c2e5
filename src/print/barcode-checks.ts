/**
 * Preflight of placed barcodes (assets the service made, which carry their symbol's facts):
 * - BARCODE_SIZE: the placed magnification (EAN/UPC) or module outside the type's range, compared
 *   rounded to 3 decimals;
 * - BARCODE_QUIET_ZONE: the symbol with its quiet zones (the whole asset) leaves its panel, a crease
 *   or fold runs through it, or another artwork touches it;
 * - BARCODE_CONTRAST: the background under it reflects red light poorly (linear sRGB R below 0.5:
 *   red-light scanners see such a colour as dark as the bars), or an effect replaces its black.
 */
import { isMagnified, MAGNIFICATION_RANGE, MODULE_RANGES, EAN_UPC_NOMINAL_X_MM, type BarcodeFacts } from '../barcodes/types.js';
import { pointInPolygon, segmentIntersection } from '../dielines/geometry.js';
import type { Point } from '../dielines/index.js';
import { gradientLine } from './background.js';
import { imageCorners } from './placement.js';
import type { BackgroundPaint, DesignState, Finding, PieceLayers, PlacedImage, Placement, PrintSurface, Rgb } from './types.js';

/** A red-light scanner needs the background to reflect at least this much red (linear sRGB). */
export const MIN_BACKGROUND_RED = 0.5;
/** Effects that put something else than the symbol's ink where its bars are. */
const REPLACING_EFFECTS = new Set(['foil-gold', 'foil-silver']);
/** Closer than this counts as touching (1 µm rounding of the blank's coordinates). */
const EPSILON_MM = 0.001;

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export function barcodeFindings(placement: Placement<PrintSurface>, state: DesignState): Finding[] {
  const findings: Finding[] = [];
  const effects = new Map((state.artworks ?? []).map((artwork) => [artwork.id, (artwork as { effect?: unknown }).effect]));
  for (const layers of placement.pieces) {
    for (const image of layers.images) {
      const facts = image.asset.barcode;
      if (!facts) continue;
      const about = { artworkId: image.artworkId, panelId: image.panelId };
      const name = `${image.artworkId} on ${image.panelId}`;
      const size = sizeFinding(image, facts, name);
      if (size) findings.push({ severity: 'error', code: 'BARCODE_SIZE', message: size, ...about });
      const quiet = quietZoneProblem(image, layers, placement.dieline);
      if (quiet) findings.push({ severity: 'error', code: 'BARCODE_QUIET_ZONE', message: `${name}: ${quiet}`, ...about });
      const contrast = contrastProblem(image, layers.background, effects.get(image.artworkId), layers);
      if (contrast) findings.push({ severity: 'error', code: 'BARCODE_CONTRAST', message: `${name}: ${contrast}`, ...about });
    }
  }
  return findings;
}

/** The symbol's size as placed: the asset's module × printed width / made width. */
function sizeFinding(image: PlacedImage, facts: BarcodeFacts, name: string): string | null {
  const placedModule = (facts.moduleMm * image.width) / facts.widthMm;
  if (isMagnified(facts.type)) {
    const magnification = round3(placedModule / EAN_UPC_NOMINAL_X_MM);
    if (magnification >= MAGNIFICATION_RANGE.min && magnification <= MAGNIFICATION_RANGE.max) return null;
    return `${name} places the ${facts.type} at magnification ${magnification}; ` +
      `${MAGNIFICATION_RANGE.min} to ${MAGNIFICATION_RANGE.max.toFixed(1)} scans reliably.`;
  }
  const range = MODULE_RANGES[facts.type as keyof typeof MODULE_RANGES];
  const module = round3(placedModule);
  if (module >= range.min && module <= range.max) return null;
  return `${name} places the ${facts.type} with a module of ${module} mm; ${range.min} to ${range.max} mm is allowed.`;
}

/** The image rectangle shrunk by EPSILON_MM: what must stay clear, touching excepted where it may. */
function insetCorners(image: PlacedImage, inset: number): Point[] {
  return imageCorners({ ...image, width: Math.max(image.width - 2 * inset, 0), height: Math.max(image.height - 2 * inset, 0) });
}

function crosses(a: Point, b: Point, polygon: readonly Point[]): boolean {
  if (pointInPolygon(a, polygon) || pointInPolygon(b, polygon)) return true;
  return polygon.some((p, i) => segmentIntersection(a, b, p, polygon[(i + 1) % polygon.length]!) !== null);
}

function quietZoneProblem(image: PlacedImage, layers: PieceLayers, surface: PrintSurface): string | null {
  const inner = insetCorners(image, EPSILON_MM);
  const panel = surface.panels.find((candidate) => candidate.id === image.panelId);
  if (panel) {
    const edges = panel.polygon.map((p, i) => [p, panel.polygon[(i + 1) % panel.polygon.length]!] as const);
    const outside = inner.some((corner) => !pointInPolygon(corner, panel.polygon)) || edges.some(([a, b]) => crosses(a, b, inner));
    if (outside) return `its quiet zones leave the panel ${panel.id}; keep the whole symbol inside it.`;
  }
  const folds = surface.paths.filter((path) => path.type === 'crease' || path.type === 'fold');
  for (const fold of folds) {
    const n = fold.points.length;
    for (let i = 0; i < (fold.closed ? n : n - 1); i++) {
      if (crosses(fold.points[i]!, fold.points[(i + 1) % n]!, inner)) {
        return 'a crease runs through the symbol or its quiet zones; move it onto one panel face.';
      }
    }
  }
  const outer = imageCorners(image);
  const other = layers.images.find(
    (candidate) => candidate !== image && candidate.artworkId !== image.artworkId && touches(outer, imageCorners(candidate)),
  );
  if (other) return `${other.artworkId} touches the symbol or its quiet zones; keep other artwork clear of them.`;
  return null;
}

/** Two rectangles (convex) overlap or touch: no axis of their edges separates them by more than EPSILON_MM. */
function touches(a: readonly Point[], b: readonly Point[]): boolean {
  for (const polygon of [a, b]) {
    for (let i = 0; i < polygon.length; i++) {
      const [x1, y1] = polygon[i]!;
      const [x2, y2] = polygon[(i + 1) % polygon.length]!;
      const length = Math.hypot(x2 - x1, y2 - y1);
      if (length === 0) continue;
      const axis: Point = [(y1 - y2) / length, (x2 - x1) / length];
      const project = (points: readonly Point[]) => points.map(([x, y]) => x * axis[0] + y * axis[1]);
      const pa = project(a);
      const pb = project(b);
      if (Math.max(...pa) < Math.min(...pb) - EPSILON_MM || Math.max(...pb) < Math.min(...pa) - EPSILON_MM) return false;
    }
  }
  return true;
}

/** Linear-light red of an 8-bit sRGB colour (IEC 61966-2-1). */
export function linearRed([r]: Rgb): number {
  const c = r / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

const hex = (color: Rgb) => `#${color.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

function contrastProblem(image: PlacedImage, background: BackgroundPaint | null, effect: unknown, layers: PieceLayers): string | null {
  if (typeof effect === 'string' && REPLACING_EFFECTS.has(effect)) {
    return `the ${effect} effect replaces the symbol's black; a barcode prints in black ink only.`;
  }
  if (!background || background.kind === 'image') return null;
  const darkest = backgroundUnder(image, background, layers).reduce((worst, color) =>
    linearRed(color) < linearRed(worst) ? color : worst,
  );
  const red = linearRed(darkest);
  if (red >= MIN_BACKGROUND_RED) return null;
  return `the background under it (${hex(darkest)}, red reflectance ${red.toFixed(2)}) ` +
    `is too dark for a red-light scanner; it needs at least ${MIN_BACKGROUND_RED}.`;
}

/** The background's colours under the symbol: the flat colour, or the gradient at its corners and centre. */
function backgroundUnder(image: PlacedImage, background: Exclude<BackgroundPaint, { kind: 'image' }>, layers: PieceLayers): Rgb[] {
  if (background.kind === 'color') return [background.color];
  const xs = layers.bleed.map(([x]) => x);
  const ys = layers.bleed.map(([, y]) => y);
  const box = {
    x: Math.min(...xs),
    y: Math.min(...ys),
    width: Math.max(...xs) - Math.min(...xs),
    height: Math.max(...ys) - Math.min(...ys),
  };
  const [[x1, y1], [x2, y2]] = gradientLine(background.angleDeg, box);
  const length2 = (x2 - x1) ** 2 + (y2 - y1) ** 2 || 1;
  const samples = [...imageCorners(image), image.center];
  return samples.map(([x, y]) => {
    const t = Math.min(1, Math.max(0, ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / length2));
    return colourAt(background.stops, t);
  });
}

function colourAt(stops: readonly { offset: number; color: Rgb }[], t: number): Rgb {
  if (t <= stops[0]!.offset) return stops[0]!.color;
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1]!;
    const b = stops[i]!;
    if (t <= b.offset) {
      const k = b.offset === a.offset ? 1 : (t - a.offset) / (b.offset - a.offset);
      return a.color.map((c, j) => Math.round(c + (b.color[j]! - c) * k)) as unknown as Rgb;
    }
  }
  return stops.at(-1)!.color;
}
