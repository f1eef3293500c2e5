/**
 * Preflight checks that read the structure under the artwork: cut edges and their safe margin
 * (SAFE_ZONE), creases, wrap folds and slots between panels (CROSSES_FOLD), the bleed outline
 * (CLIPPED) and glue areas (GLUE_AREA, backgrounds included).
 *
 * Every test works in a placed image's own frame, where the image is the axis-aligned rectangle
 * [-w/2, w/2] × [-h/2, h/2]: a line "runs through the image" when part of it lies strictly inside
 * that rectangle shrunk by EPSILON_MM, so artwork that only touches a line is not reported.
 */
import { distanceToSegment, pointInPolygon } from '../dielines/geometry.js';
import type { DielinePath, Point } from '../dielines/index.js';
import { FOLDING_RULE_TYPES } from '../dielines/types.js';
import { imageCorners } from './placement.js';
import { artworkFinding } from './types.js';
import type { BackgroundPaint, Finding, Placement, PlacedImage, PrintSurface, Rgb } from './types.js';

/** Where the print puts ink on glue areas: `knockout` leaves them blank, `print` prints over them. */
export const GLUE_AREAS_MODES = ['knockout', 'print'] as const;
export type GlueAreasMode = (typeof GLUE_AREAS_MODES)[number];
export const DEFAULT_GLUE_AREAS: GlueAreasMode = 'knockout';

/** Safe margin inside every cut edge when the surface does not state its own. */
export const DEFAULT_SAFE_MARGIN_MM = 3;

export interface StructureOptions {
  glueAreas?: GlueAreasMode;
}

/** Coordinates are rounded to 1 µm: closer than this counts as touching. */
const EPSILON_MM = 0.01;

/** A line segment with its bounding box, computed once per check. */
interface Segment {
  a: Point;
  b: Point;
  box: Box;
}

/** A closed polygon as segments, with its bounding box. */
interface Outline {
  points: readonly Point[];
  segments: Segment[];
  box: Box;
}

/** A placed image's frame: blank point ↦ image-local point, and its bounding box on the blank. */
interface ImageFrame {
  image: PlacedImage;
  halfWidth: number;
  halfHeight: number;
  box: Box;
  toLocal(p: Point): Point;
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function frameOf(image: PlacedImage): ImageFrame {
  const [cx, cy] = image.center;
  const a = (-image.rotationDeg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return {
    image,
    halfWidth: image.width / 2,
    halfHeight: image.height / 2,
    box: boxOf(imageCorners(image)),
    // The inverse of the image's clockwise turn (placement.ts `rotate` by -rotationDeg).
    toLocal: ([x, y]) => [(x - cx) * c - (y - cy) * s, (x - cx) * s + (y - cy) * c],
  };
}

function boxOf(points: readonly Point[]): Box {
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const [x, y] of points) {
    box.minX = Math.min(box.minX, x);
    box.minY = Math.min(box.minY, y);
    box.maxX = Math.max(box.maxX, x);
    box.maxY = Math.max(box.maxY, y);
  }
  return box;
}

/** The two boxes come within `gap` of each other. */
function near(a: Box, b: Box, gap = 0): boolean {
  return a.minX - gap <= b.maxX && b.minX - gap <= a.maxX && a.minY - gap <= b.maxY && b.minY - gap <= a.maxY;
}

function segmentsOf(points: readonly Point[], closed: boolean): Segment[] {
  const out: Segment[] = [];
  const n = points.length;
  for (let i = 0; i < (closed ? n : n - 1); i++) {
    const a = points[i]!;
    const b = points[(i + 1) % n]!;
    out.push({ a, b, box: boxOf([a, b]) });
  }
  return out;
}

function outlineOf(points: readonly Point[]): Outline {
  return { points, segments: segmentsOf(points, true), box: boxOf(points) };
}

/** Liang–Barsky: does a–b (image-local) have a part of positive length strictly inside the image? */
function runsThrough(frame: ImageFrame, { a, b, box }: Segment): boolean {
  if (!near(frame.box, box)) return false;
  const hw = frame.halfWidth - EPSILON_MM;
  const hh = frame.halfHeight - EPSILON_MM;
  if (hw <= 0 || hh <= 0) return false;
  const p = frame.toLocal(a);
  const q = frame.toLocal(b);
  const dx = q[0] - p[0];
  const dy = q[1] - p[1];
  let t0 = 0;
  let t1 = 1;
  for (const [denominator, numerator] of [
    [-dx, p[0] + hw],
    [dx, hw - p[0]],
    [-dy, p[1] + hh],
    [dy, hh - p[1]],
  ] as const) {
    if (denominator === 0) {
      if (numerator <= 0) return false;
      continue;
    }
    const t = numerator / denominator;
    if (denominator < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 >= t1) return false;
  }
  return (t1 - t0) * Math.hypot(dx, dy) > EPSILON_MM;
}

/** The image shares area with the polygon (not just an edge or a corner). */
function overlaps(frame: ImageFrame, outline: Outline): boolean {
  if (!near(frame.box, outline.box)) return false;
  return pointInPolygon(frame.image.center, outline.points) || outline.segments.some((segment) => runsThrough(frame, segment));
}

/** Distance from a segment that does not run through the image to the image rectangle. */
function distanceOutside(frame: ImageFrame, { a, b }: Segment): number {
  const { halfWidth: hw, halfHeight: hh } = frame;
  const p = frame.toLocal(a);
  const q = frame.toLocal(b);
  const toRect = ([x, y]: Point) => Math.hypot(Math.max(Math.abs(x) - hw, 0), Math.max(Math.abs(y) - hh, 0));
  const corners: Point[] = [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]];
  return Math.min(toRect(p), toRect(q), ...corners.map((corner) => distanceToSegment(corner, p, q)));
}

const isWhite = (color: Rgb) => color[0] === 255 && color[1] === 255 && color[2] === 255;

/** Whether a background puts ink anywhere: white is no ink. */
function backgroundInks(background: BackgroundPaint): boolean {
  if (background.kind === 'color') return !isWhite(background.color);
  if (background.kind === 'gradient') return background.stops.some((stop) => !isWhite(stop.color));
  return true;
}

const glueSeverity = (mode: GlueAreasMode) => (mode === 'knockout' ? 'info' : 'warning');

function gluePhrase(mode: GlueAreasMode): string {
  return mode === 'knockout' ? 'it is knocked out there (glueAreas=knockout)' : 'glued areas should stay free of ink';
}

function listed(ids: readonly string[]): string {
  return ids.length === 1 ? ids[0]! : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}

interface GlueArea {
  panelId: string;
  outline: Outline;
}

/** What the checks read of one piece, built once for all its images. */
interface PieceStructure {
  pieceId: string;
  outline: DielinePath | undefined;
  holes: DielinePath[];
  cuts: Segment[];
  bleed: Segment[];
  panels: { id: string; outline: Outline }[];
}

interface Context {
  folds: Segment[];
  glueAreas: GlueArea[];
  margin: number;
  mode: GlueAreasMode;
}

export function structureFindings(placement: Placement<PrintSurface>, options: StructureOptions = {}): Finding[] {
  const surface = placement.dieline;
  // A wrapping label repeats along x: its seam is no edge. Its own checks belong to the label.
  if (surface.wrapWidth) return [];
  const context: Context = {
    folds: surface.paths
      .filter((path) => FOLDING_RULE_TYPES.includes(path.type) || path.type === 'fold')
      .flatMap((path) => segmentsOf(path.points, path.closed)),
    glueAreas: surface.paths
      .filter((path) => path.type === 'glue')
      .map((path) => ({ panelId: path.panelId!, outline: outlineOf(path.points) })),
    // A box's dieline states its safe margin; other print surfaces take the default.
    margin: (surface as { safeMarginMm?: number }).safeMarginMm ?? DEFAULT_SAFE_MARGIN_MM,
    mode: options.glueAreas ?? DEFAULT_GLUE_AREAS,
  };
  const findings: Finding[] = [];
  const background = placement.pieces.find((piece) => piece.background !== null)?.background ?? null;
  if (background && backgroundInks(background)) {
    for (const glue of context.glueAreas) {
      findings.push({
        severity: glueSeverity(context.mode),
        code: 'GLUE_AREA',
        message: `The background covers the glue area of ${glue.panelId}; ${gluePhrase(context.mode)}.`,
        panelId: glue.panelId,
      });
    }
  }
  for (const layers of placement.pieces) {
    const piece = pieceStructure(surface, layers.piece.id, layers.bleed);
    for (const image of layers.images) findings.push(...imageFindings(image, piece, context));
  }
  return findings;
}

function pieceStructure(surface: PrintSurface, pieceId: string, bleed: readonly Point[]): PieceStructure {
  const cutPaths = surface.paths.filter((path) => path.type === 'cut' && path.pieceId === pieceId);
  return {
    pieceId,
    outline: cutPaths.find((path) => path.role === 'outline'),
    holes: cutPaths.filter((path) => path.role === 'hole'),
    cuts: cutPaths.flatMap((path) => segmentsOf(path.points, true)),
    bleed: segmentsOf(bleed, true),
    panels: surface.panels
      .filter((panel) => panel.pieceId === pieceId)
      .map((panel) => ({ id: panel.id, outline: outlineOf(panel.polygon) })),
  };
}

function imageFindings(image: PlacedImage, piece: PieceStructure, { folds, glueAreas, margin, mode }: Context): Finding[] {
  const findings: Finding[] = [];
  const frame = frameOf(image);
  const name = `${image.artworkId} on ${image.panelId}`;

  if (piece.bleed.some((segment) => runsThrough(frame, segment))) {
    const message = `${name} runs past the bleed of ${piece.pieceId}, so part of it is cut off.`;
    findings.push(artworkFinding(image, 'warning', 'CLIPPED', message));
  }

  const { outline, holes, cuts } = piece;
  if (outline && !cuts.some((segment) => runsThrough(frame, segment)) && insideTrim(image.center, outline, holes)) {
    let nearest = Infinity;
    for (const segment of cuts) {
      // Segments farther than the margin cannot set the finding.
      if (near(frame.box, segment.box, margin)) nearest = Math.min(nearest, distanceOutside(frame, segment));
    }
    if (nearest < margin - EPSILON_MM) {
      const message =
        `${name} comes within ${formatMm(nearest)} mm of a cut edge; ` +
        `keep artwork ${formatMm(margin)} mm inside the trim or extend it into the bleed.`;
      findings.push(artworkFinding(image, 'warning', 'SAFE_ZONE', message));
    }
  }

  const others = piece.panels.filter((panel) => panel.id !== image.panelId && overlaps(frame, panel.outline)).map((panel) => panel.id);
  if (others.length > 0 || folds.some((segment) => runsThrough(frame, segment))) {
    const message =
      others.length > 0
        ? `${name} crosses a fold or a slot onto ${listed(others)}; check how it reads on the folded box.`
        : `${name} crosses a fold; check how it reads on the folded box.`;
    findings.push(artworkFinding(image, 'info', 'CROSSES_FOLD', message));
  }

  for (const glue of glueAreas) {
    if (!overlaps(frame, glue.outline)) continue;
    findings.push({
      severity: glueSeverity(mode),
      code: 'GLUE_AREA',
      message: `${image.artworkId} covers the glue area of ${glue.panelId}; ${gluePhrase(mode)}.`,
      artworkId: image.artworkId,
      panelId: glue.panelId,
    });
  }
  return findings;
}

function insideTrim(p: Point, outline: DielinePath, holes: readonly DielinePath[]): boolean {
  return pointInPolygon(p, outline.points) && !holes.some((hole) => pointInPolygon(p, hole.points));
}

function formatMm(value: number): string {
  return String(Math.round(value * 10) / 10);
}
