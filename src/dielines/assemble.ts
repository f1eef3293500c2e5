/**
 * Turns a style's raw geometry into the public `Dieline`: moves it so the blank starts at the
 * origin, rounds every coordinate to 3 decimals, and derives the bleed, safe and path data.
 */
import type { StyleGeometry } from './draft.js';
import { nickPolygon, type NickSpec } from './nicks.js';
import { pathData, round3 } from './format.js';
import {
  boundsOf,
  dedupe,
  distanceToBoundary,
  isSimplePolygon,
  offsetPolygon,
  offsetVertices,
  pointInPolygon,
  signedArea,
} from './geometry.js';
import type {
  Bounds,
  BoxDimensions,
  Dieline,
  DielinePanel,
  DielinePath,
  DielinePiece,
  DielineStyleId,
  FrameRotation,
  PanelFrame,
  Point,
} from './types.js';

/** Inset of the safe zone inside every panel (EU/US convention: 3–5 mm). */
export const SAFE_MARGIN_MM = 3;

export interface AssembleInput {
  templateId: string;
  style: DielineStyleId;
  styleName: string;
  thicknessMm: number;
  bleedMm: number;
  inside: BoxDimensions;
  geometry: StyleGeometry;
  /** Gaps in the cut lines; the pieces then carry their whole outline. */
  nicks?: NickSpec;
}

export function assembleDieline(input: AssembleInput): Dieline {
  const { geometry, bleedMm } = input;
  const extent = boundsOf(geometry.pieces.flatMap((piece) => piece.outline));
  const place = (p: Point): Point => [round3(p[0] - extent.x), round3(p[1] - extent.y)];
  const placePolygon = (polygon: readonly Point[]): Point[] => dedupe(polygon.map(place), 0);

  const pieces = geometry.pieces.map((piece) => ({
    id: piece.id,
    name: piece.name,
    outline: placePolygon(piece.outline),
    holes: piece.holes.map(placePolygon),
  }));

  const panels: DielinePanel[] = geometry.panels.map((panel) => {
    const polygon = placePolygon(panel.polygon);
    return {
      id: panel.id,
      name: panel.name,
      role: panel.role,
      pieceId: panel.pieceId,
      polygon,
      bounds: roundedBounds(polygon),
      frame: frameOf(polygon, panel.rotationDeg),
    };
  });

  const paths: DielinePath[] = [];
  let nicked = false;
  for (const piece of pieces) {
    for (const [role, polygon] of [['outline', piece.outline] as const, ...piece.holes.map((hole) => ['hole', hole] as const)]) {
      const cut = input.nicks ? nickPolygon(polygon, input.nicks) : { closed: true, runs: [polygon] };
      nicked ||= !cut.closed;
      for (const run of cut.runs) {
        paths.push(pathOf('cut', run, cut.closed, { role, pieceId: piece.id }));
      }
    }
  }
  for (const slit of geometry.slits ?? []) {
    paths.push(pathOf('cut', [place(slit.from), place(slit.to)], false, { role: 'slit', pieceId: slit.pieceId }));
  }
  for (const [from, to] of geometry.creases) paths.push(pathOf('crease', [place(from), place(to)], false));
  for (const rule of geometry.rules ?? []) paths.push(pathOf(rule.type, [place(rule.from), place(rule.to)], false));
  for (const [from, to] of geometry.folds ?? []) paths.push(pathOf('fold', [place(from), place(to)], false));
  for (const glue of geometry.glueAreas) paths.push(pathOf('glue', placePolygon(glue.polygon), true, { panelId: glue.panelId }));
  for (const piece of pieces) {
    const bleed = bleedMm > 0 ? dedupe(offsetPolygon(piece.outline, bleedMm).map(roundPoint), 0) : piece.outline;
    paths.push(pathOf('bleed', bleed, true, { pieceId: piece.id }));
  }
  for (const panel of panels) {
    // Glue areas must stay free of ink, so they get no artwork safe zone.
    if (panel.role === 'glue-flap' || panel.role === 'glue-tab') continue;
    const safe = safeZone(panel.polygon, SAFE_MARGIN_MM);
    if (safe) paths.push(pathOf('safe', safe, true, { panelId: panel.id }));
  }

  const dieline: Dieline = {
    templateId: input.templateId,
    style: input.style,
    styleName: input.styleName,
    units: 'mm',
    thicknessMm: round3(input.thicknessMm),
    bleedMm: round3(bleedMm),
    safeMarginMm: SAFE_MARGIN_MM,
    blank: { width: round3(extent.width), height: round3(extent.height) },
    artboard: {
      x: round3(-bleedMm),
      y: round3(-bleedMm),
      width: round3(extent.width + 2 * bleedMm),
      height: round3(extent.height + 2 * bleedMm),
    },
    dimensions: { inside: roundDimensions(input.inside), outside: roundDimensions(geometry.outside) },
    parameters: Object.fromEntries(
      Object.entries(geometry.parameters).map(([key, value]): [string, number] => [key, round3(value)]),
    ),
    pieces: pieces.map(
      (piece): DielinePiece => ({
        id: piece.id,
        name: piece.name,
        bounds: roundedBounds(piece.outline),
        ...(nicked ? { outline: piece.outline } : {}),
      }),
    ),
    panels,
    paths,
  };
  return dieline;
}

/** The bounding box's centre; width and height swap when the upright frame is turned a quarter. */
function frameOf(polygon: readonly Point[], rotationDeg: FrameRotation): PanelFrame {
  const b = boundsOf(polygon);
  const quarter = rotationDeg === 90 || rotationDeg === 270;
  return {
    center: [round3(b.x + b.width / 2), round3(b.y + b.height / 2)],
    rotationDeg,
    width: round3(quarter ? b.height : b.width),
    height: round3(quarter ? b.width : b.height),
  };
}

type PathTags = Pick<DielinePath, 'role' | 'pieceId' | 'panelId'>;

function pathOf(type: DielinePath['type'], points: Point[], closed: boolean, extra: PathTags = {}): DielinePath {
  return { type, closed, points, d: pathData(points, closed), ...extra };
}

function roundPoint(p: Point): Point {
  return [round3(p[0]), round3(p[1])];
}

function roundedBounds(points: readonly Point[]): Bounds {
  const b = boundsOf(points);
  return { x: round3(b.x), y: round3(b.y), width: round3(b.width), height: round3(b.height) };
}

function roundDimensions(d: BoxDimensions): BoxDimensions {
  return { widthMm: round3(d.widthMm), heightMm: round3(d.heightMm), depthMm: round3(d.depthMm) };
}

/** The panel inset by `margin`, or null when the panel is too small to keep a safe zone. */
function safeZone(polygon: readonly Point[], margin: number): Point[] | null {
  if (isConvex(polygon)) {
    // A mitred inset of a convex polygon is valid when no edge vanished or flipped direction.
    const inset = offsetVertices(polygon, -margin).map(roundPoint);
    if (inset.length === polygon.length && edgesKeepDirection(polygon, inset)) return inset;
  }
  const inset = dedupe(offsetPolygon(polygon, -margin).map(roundPoint), 0);
  if (inset.length < 3 || signedArea(inset) * signedArea(polygon) <= 0) return null;
  for (const p of inset) {
    if (!pointInPolygon(p, polygon) || distanceToBoundary(p, polygon) < margin - 0.002) return null;
  }
  return isSimplePolygon(inset, 1e-6) ? inset : null;
}

function isConvex(polygon: readonly Point[]): boolean {
  let sign = 0;
  for (let i = 0, n = polygon.length; i < n; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % n]!;
    const c = polygon[(i + 2) % n]!;
    const turn = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (Math.abs(turn) < 1e-9) continue;
    if (sign === 0) sign = Math.sign(turn);
    else if (Math.sign(turn) !== sign) return false;
  }
  return true;
}

function edgesKeepDirection(original: readonly Point[], inset: readonly Point[]): boolean {
  // offsetPolygon keeps vertex i of a convex polygon at index i, so edge i maps to edge i.
  for (let i = 0, n = original.length; i < n; i++) {
    const a = original[i]!;
    const b = original[(i + 1) % n]!;
    const c = inset[i]!;
    const d = inset[(i + 1) % n]!;
    if ((b[0] - a[0]) * (d[0] - c[0]) + (b[1] - a[1]) * (d[1] - c[1]) <= 0) return false;
  }
  return true;
}
