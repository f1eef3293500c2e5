/**
 * The layout every round container shares: a band `period` (the circumference it wraps) plus a
 * strip at the right-hand end that lies over the left-hand end, so the ends meet at the back
 * centre (x = 0 ≡ period). Panels: `label` (the whole layout; its frame is the circumference,
 * centred on the front), `front` (the half centred on the front, x = period / 2) and `back` (the
 * other half, centred on the seam; its artwork continues across the two ends).
 */
import type { DielinePath, Point, ZoneKind } from '../types.js';
import {
  assembleLayout,
  layoutPanel,
  type LayoutBase,
  layoutPath,
  rect,
  roundedRect,
  SAFE_MARGIN_MM,
  zonePath,
  type ContainerLayout,
} from './layout.js';

/** A zone across the whole band between two heights (mm from the layout's top edge). */
export interface BandZone {
  zone: ZoneKind;
  y0: number;
  y1: number;
}

export interface WrapSpec extends LayoutBase {
  /** Default: the circumference C = π × widthMm. */
  period?: number;
  strip: { widthMm: number; zone: ZoneKind };
  height: number;
  /** Die-cut outline with this corner radius; null: the outline is a trim, no CutContour. */
  cutCornerRadius: number | null;
  /** Heights left unprinted at the top and bottom edge (no ink, so the bleed stops there); default 0. */
  unprintedMm?: number;
  /** The strip is left unprinted (a solvent seam). */
  stripUnprinted?: boolean;
  zones?: BandZone[];
  /** Safe area's top and bottom (the sides follow the strip and the seam). */
  safe: { y0: number; y1: number };
  extraPaths?: DielinePath[];
  parameters: Record<string, number>;
  /** The band the 3D model shows: y0, y1 on the layout. */
  texture: { y0: number; y1: number };
}

export function buildWrap(spec: WrapSpec): ContainerLayout {
  const { height: h, bleedMm: b, unprintedMm = 0, stripUnprinted = false, zones = [] } = spec;
  const c = Math.PI * spec.dims.widthMm;
  const p = spec.period ?? c;
  const strip = spec.strip.widthMm;
  const width = p + strip;
  const pieceId = spec.piece.id;
  const band = (x0: number, x1: number): Point[] => rect(x0, 0, x1, h);
  // A wall from x0 to x1 whose upright frame, centred at x = cx, is frameWidth wide.
  const wall = (id: string, name: string, x0: number, x1: number, cx: number, frameWidth: number) =>
    layoutPanel(id, name, 'wall', pieceId, band(x0, x1), { center: [cx, h / 2], rotationDeg: 0, width: frameWidth, height: h });
  const panels = [
    wall('label', 'Label', 0, width, p / 2, p),
    wall('front', 'Front', p / 4, (3 * p) / 4, p / 2, p / 2),
    wall('back', 'Back', (3 * p) / 4, width, p, p / 2),
  ];
  const paths: DielinePath[] = [];
  const printTop = unprintedMm > 0 ? unprintedMm : -b;
  const printBottom = unprintedMm > 0 ? h - unprintedMm : h + b;
  const printRight = stripUnprinted ? p : width + b;
  const radius = spec.cutCornerRadius ?? 0;
  const bleed =
    unprintedMm > 0 || stripUnprinted
      ? rect(-b, printTop, printRight, printBottom)
      : roundedRect(-b, -b, width + b, h + b, radius > 0 ? radius + b : 0);
  paths.push(layoutPath('bleed', bleed, true, { pieceId }));
  const m = SAFE_MARGIN_MM;
  paths.push(layoutPath('safe', rect(strip + m, spec.safe.y0, p - m, spec.safe.y1), true, { panelId: 'label' }));
  if (strip > 0) paths.push(zonePath(spec.strip.zone, band(p, width), 'back'));
  if (unprintedMm > 0) {
    paths.push(zonePath('unprinted', rect(0, 0, width, unprintedMm), 'label'));
    paths.push(zonePath('unprinted', rect(0, h - unprintedMm, width, h), 'label'));
  }
  for (const zone of zones) paths.push(zonePath(zone.zone, rect(0, zone.y0, width, zone.y1), 'label'));
  paths.push(...(spec.extraPaths ?? []));
  if (spec.cutCornerRadius !== null) paths.push(layoutPath('cut', roundedRect(0, 0, width, h, radius), true, { role: 'outline', pieceId }));
  return {
    dieline: assembleLayout({ ...spec, width, height: h, panels, paths, parameters: { circumferenceMm: c, ...spec.parameters } }),
    wrapWidth: p,
    textureWindow: { x: 0, y: spec.texture.y0, width: p, height: spec.texture.y1 - spec.texture.y0 },
  };
}
