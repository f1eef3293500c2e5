/**
 * Building blocks of the container layouts: rectangles and rounded rectangles as polylines, panels
 * with frames, paths, and the final `Dieline` (rounded to 0.001 mm). Millimetres, origin at the
 * layout's top-left, y down, printed side up.
 */
import { SAFE_MARGIN_MM } from '../assemble.js';
import { rect } from '../draft.js';
import { pathData, round3 } from '../format.js';
import { boundsOf } from '../geometry.js';
import type {
  Bounds,
  BoxDimensions,
  ContainerStyleId,
  Dieline,
  DielinePanel,
  DielinePath,
  DielinePathType,
  FrameRotation,
  PanelRole,
  Point,
  ZoneKind,
} from '../types.js';

/** Curves are polylines within this distance of the true arc. */
const ARC_TOLERANCE_MM = 0.05;

/** A container's print layout, with what the print and 3D pipelines need beyond the dieline. */
export interface ContainerLayout {
  dieline: Dieline;
  /** Round containers: the design repeats with this period (the circumference), so it wraps across the ends. */
  wrapWidth?: number;
  /** The region of the layout the 3D model's printed part shows (its texture), mm on the layout. */
  textureWindow: Bounds;
}

export { rect };

/** Points on a circular arc from angle a0 to a1 (radians; y down, so positive turns clockwise), both ends included. */
export function arc(cx: number, cy: number, r: number, a0: number, a1: number): Point[] {
  const step = r > ARC_TOLERANCE_MM ? 2 * Math.acos(1 - ARC_TOLERANCE_MM / r) : Math.PI / 2;
  const count = Math.max(1, Math.ceil(Math.abs(a1 - a0) / step));
  const points: Point[] = [];
  for (let i = 0; i <= count; i++) {
    const a = a0 + ((a1 - a0) * i) / count;
    points.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return points;
}

/** A rectangle with corners of radius r, clockwise from the top-left corner's end. */
export function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number): Point[] {
  if (r <= 0) return rect(x0, y0, x1, y1);
  const h = Math.PI / 2;
  return [
    ...arc(x1 - r, y0 + r, r, -h, 0),
    ...arc(x1 - r, y1 - r, r, 0, h),
    ...arc(x0 + r, y1 - r, r, h, 2 * h),
    ...arc(x0 + r, y0 + r, r, 2 * h, 3 * h),
  ];
}

const roundPoints = (points: readonly Point[]): Point[] => points.map(([x, y]) => [round3(x), round3(y)]);

export function layoutPath(
  type: DielinePathType,
  points: readonly Point[],
  closed: boolean,
  extra: Pick<DielinePath, 'role' | 'pieceId' | 'panelId' | 'zone'> = {},
): DielinePath {
  const rounded = roundPoints(points);
  return { type, closed, points: rounded, d: pathData(rounded, closed), ...extra };
}

export const zonePath = (zone: ZoneKind, points: readonly Point[], panelId: string, closed = true): DielinePath =>
  layoutPath('zone', points, closed, { zone, panelId });

export function layoutPanel(
  id: string,
  name: string,
  role: PanelRole,
  pieceId: string,
  polygon: readonly Point[],
  frame: { center: Point; rotationDeg: FrameRotation; width: number; height: number },
): DielinePanel {
  const rounded = roundPoints(polygon);
  return {
    id,
    name,
    role,
    pieceId,
    polygon: rounded,
    bounds: boundsOf(rounded),
    frame: {
      center: [round3(frame.center[0]), round3(frame.center[1])],
      rotationDeg: frame.rotationDeg,
      width: round3(frame.width),
      height: round3(frame.height),
    },
  };
}

/** What every layout is built from: the template, the container's size and the bleed. */
export interface LayoutContext {
  templateId: string;
  dims: BoxDimensions;
  bleedMm: number;
}

/** What names a layout: its context, style, substrate and the one piece. */
export interface LayoutBase extends LayoutContext {
  style: ContainerStyleId;
  styleName: string;
  /** Nominal caliper of the substrate (film, laminate, can wall). */
  thicknessMm: number;
  piece: { id: string; name: string };
}

export interface LayoutInput extends LayoutBase {
  width: number;
  height: number;
  parameters: Record<string, number>;
  panels: DielinePanel[];
  paths: DielinePath[];
}

export function assembleLayout(input: LayoutInput): Dieline {
  const { width, height, bleedMm } = input;
  const parameters = Object.fromEntries(Object.entries(input.parameters).map(([key, value]) => [key, round3(value)]));
  return {
    templateId: input.templateId,
    style: input.style,
    styleName: input.styleName,
    units: 'mm',
    thicknessMm: input.thicknessMm,
    bleedMm,
    safeMarginMm: SAFE_MARGIN_MM,
    blank: { width: round3(width), height: round3(height) },
    artboard: { x: -bleedMm, y: -bleedMm, width: round3(width + 2 * bleedMm), height: round3(height + 2 * bleedMm) },
    dimensions: { inside: { ...input.dims }, outside: { ...input.dims } },
    parameters,
    pieces: [{ id: input.piece.id, name: input.piece.name, bounds: { x: 0, y: 0, width: round3(width), height: round3(height) } }],
    panels: input.panels,
    paths: input.paths,
  };
}

export { SAFE_MARGIN_MM };
