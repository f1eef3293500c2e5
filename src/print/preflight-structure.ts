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
import { rotate } from './placement.js';
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

type Segment = readonly [Point, Point];

/** A placed image's frame: blank point ↦ image-local point. */
interface ImageFrame {
  image: PlacedImage;
  halfWidth: number;
  halfHeight: number;
  toLocal(p: Point): Point;
}

function frameOf(image: PlacedImage): ImageFrame {
  const [cx, cy] = image.center;
  return {
    image,
    halfWidth: image.width / 2,
    halfHeight: image.height / 2,
    toLocal: ([x, y]) => rotate([x - cx, y - cy], -image.rotationDeg),
  };
}

function segmentsOf(points: readonly Point[], closed: boolean): Segment[] {
  const out: Segment[] = [];
  const n = points.length;
  for (let i = 0; i < (closed ? n : n - 1); i++) out.push([points[i]!, points[(i + 1) % n]!]);
  return out;
}

/** Liang–Barsky: does a–b (image-local) have a part of positive length strictly inside the image? */
function runsThrough(frame: ImageFrame, [a, b]: Segment): boolean {
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
function overlaps(frame: ImageFrame, polygon: readonly Point[]): boolean {
  return pointInPolygon(frame.image.center, polygon) || segmentsOf(polygon, true).some((segment) => runsThrough(frame, segment));
}

/** Distance from a segment that does not run through the image to the image rectangle. */
function distanceOutside(frame: ImageFrame, [a, b]: Segment): number {
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

function gluePhrase(mode: GlueAreasMode): string {
  return mode === 'knockout' ? 'it is knocked out there (glueAreas=knockout)' : 'glued areas should stay free of ink';
}

function listed(ids: readonly string[]): string {
  return ids.length === 1 ? ids[0]! : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}

export function structureFindings(placement: Placement<PrintSurface>, options: StructureOptions = {}): Finding[] {
  const surface = placement.dieline;
  // A wrapping label repeats along x: its seam is no edge. Its own checks belong to the label.
  if (surface.wrapWidth) return [];
  const mode = options.glueAreas ?? DEFAULT_GLUE_AREAS;
  const glueSeverity = mode === 'knockout' ? 'info' : 'warning';
  const margin = (surface as { safeMarginMm?: number }).safeMarginMm ?? DEFAULT_SAFE_MARGIN_MM;
  const glueAreas = surface.paths.filter((path) => path.type === 'glue');
  const folds = surface.paths.filter((path) => path.type === 'crease' || path.type === 'fold').flatMap((path) => segmentsOf(path.points, path.closed));
  const findings: Finding[] = [];

  const background = placement.pieces.find((piece) => piece.background !== null)?.background ?? null;
  if (background && backgroundInks(background)) {
    for (const glue of glueAreas) {
      findings.push({
        severity: glueSeverity,
        code: 'GLUE_AREA',
        message: `The background covers the glue area of ${glue.panelId}; ${gluePhrase(mode)}.`,
        panelId: glue.panelId!,
      });
    }
  }

  const panels = new Map(surface.panels.map((panel) => [panel.id, panel]));
  for (const layers of placement.pieces) {
    const pieceId = layers.piece.id;
    const cutPaths = surface.paths.filter((path) => path.type === 'cut' && path.pieceId === pieceId);
    const outline = cutPaths.find((path) => path.role === 'outline');
    const holes = cutPaths.filter((path) => path.role === 'hole');
    const cuts = cutPaths.flatMap((path) => segmentsOf(path.points, true));
    const bleed = segmentsOf(layers.bleed, true);
    const piecePanels = surface.panels.filter((panel) => panel.pieceId === pieceId);

    for (const image of layers.images) {
      const frame = frameOf(image);
      const about = { artworkId: image.artworkId, panelId: image.panelId };
      const name = `${image.artworkId} on ${image.panelId}`;

      if (bleed.some((segment) => runsThrough(frame, segment))) {
        findings.push({ severity: 'warning', code: 'CLIPPED', message: `${name} runs past the bleed of ${pieceId}, so part of it is cut off.`, ...about });
      }

      if (outline && !cuts.some((segment) => runsThrough(frame, segment)) && insideTrim(image.center, outline, holes)) {
        const nearest = Math.min(...cuts.map((segment) => distanceOutside(frame, segment)));
        if (nearest < margin - EPSILON_MM) {
          findings.push({
            severity: 'warning',
            code: 'SAFE_ZONE',
            message: `${name} comes within ${formatMm(nearest)} mm of a cut edge; keep artwork ${formatMm(margin)} mm inside the trim or extend it into the bleed.`,
            ...about,
          });
        }
      }

      const own = panels.get(image.panelId);
      const others = piecePanels.filter((panel) => panel.id !== own?.id && overlaps(frame, panel.polygon)).map((panel) => panel.id);
      if (others.length > 0 || folds.some((segment) => runsThrough(frame, segment))) {
        findings.push({
          severity: 'info',
          code: 'CROSSES_FOLD',
          message:
            others.length > 0
              ? `${name} crosses a fold or a slot onto ${listed(others)}; check how it reads on the folded box.`
              : `${name} crosses a fold; check how it reads on the folded box.`,
          ...about,
        });
      }

      for (const glue of glueAreas) {
        if (!overlaps(frame, glue.points)) continue;
        findings.push({
          severity: glueSeverity,
          code: 'GLUE_AREA',
          message: `${image.artworkId} covers the glue area of ${glue.panelId}; ${gluePhrase(mode)}.`,
          artworkId: image.artworkId,
          panelId: glue.panelId!,
        });
      }
    }
  }
  return findings;
}

function insideTrim(p: Point, outline: DielinePath, holes: readonly DielinePath[]): boolean {
  return pointInPolygon(p, outline.points) && !holes.some((hole) => pointInPolygon(p, hole.points));
}

function formatMm(value: number): string {
  return String(Math.round(value * 10) / 10);
}
