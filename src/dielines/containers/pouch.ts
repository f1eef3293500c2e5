/**
 * Stand-up pouch with a Doyen bottom, made from one web: the film stacks `front` (W × H), the
 * bottom gusset (W × G, folded at its centre line into the pouch) and `back` (W × H, upside down on
 * the web: its top edge is the web's bottom edge). W = widthMm, H = heightMm (overall, flat),
 * G = depthMm (the whole gusset). Side seals 8 mm, top seal 10 mm, the bottom seal band rising G/2
 * at the sides of front and back and curving down to its centre band, sealed against the gusset's
 * mirror-image band. A 10 mm zipper zone 25 mm below the top edge, tear notches in both side seals
 * between the top seal and the zipper. Outline, notches and corner radii are the CutContour. The
 * bag-making line registers on an eye mark in the front's top seal, EYE_MARK.fromSeamMm in from the
 * right edge (the tube laminate's mark, on its own layer).
 */
import { requireAtLeast } from '../limits.js';
import { EYE_MARK } from './laminate.js';
import type { DielinePath, Point } from '../types.js';
import {
  arc,
  assembleLayout,
  layoutPanel,
  layoutPath,
  rect,
  roundedRect,
  SAFE_MARGIN_MM,
  zonePath,
  type ContainerLayout,
  type LayoutContext,
} from './layout.js';

export const POUCH = {
  sideSealMm: 8,
  topSealMm: 10,
  zipperFromTopMm: 25,
  zipperMm: 10,
  /** The bottom seal's band at the centre, below its corner curves. */
  bottomCentreSealMm: 6,
  cornerRadiusMm: 5,
  notchDepthMm: 4,
  notchWidthMm: 3,
} as const;
/** PET/PE laminate. */
const FILM_CALIPER_MM = 0.12;

/** Mirrors a polygon about the horizontal line y = axis. */
const mirror = (points: readonly Point[], axis: number): Point[] => points.map(([x, y]) => [x, 2 * axis - y]);

/**
 * The front's bottom seal (y down, front's bottom edge at y = h): up G/2 at the side seals, then a
 * quarter circle down to the centre band, across, and up again.
 */
function bottomSeal(w: number, h: number, g: number): Point[] {
  const s = POUCH.sideSealMm;
  const rise = g / 2;
  const centre = Math.min(POUCH.bottomCentreSealMm, rise);
  const r = Math.max(0, Math.min(rise - centre, (w - 2 * s) / 2));
  const top = h - rise;
  const points: Point[] = [[0, h], [0, top], [s, top]];
  if (r > 0) points.push(...arc(s + r, top, r, Math.PI, Math.PI / 2).slice(1));
  points.push([s + r, h - centre], [w - s - r, h - centre]);
  if (r > 0) points.push(...arc(w - s - r, top, r, Math.PI / 2, 0).slice(1));
  points.push([w - s, top], [w, top], [w, h]);
  return points;
}

/** The web's outline: rounded corners, and a V tear notch in each side seal at the front's and back's `notchY`. */
function outline(w: number, total: number, notchY: number): Point[] {
  const base = roundedRect(0, 0, w, total, POUCH.cornerRadiusMm);
  const { notchDepthMm: depth, notchWidthMm: width } = POUCH;
  const result: Point[] = [];
  const notchesRight = [notchY, total - notchY];
  const notchesLeft = [total - notchY, notchY];
  for (let i = 0; i < base.length; i++) {
    const a = base[i]!;
    const b = base[(i + 1) % base.length]!;
    result.push(a);
    const on = (p: Point, x: number) => Math.abs(p[0] - x) < 1e-9;
    if (on(a, w) && on(b, w) && b[1] > a[1]) {
      for (const y of notchesRight) result.push([w, y - width / 2], [w - depth, y], [w, y + width / 2]);
    }
    if (on(a, 0) && on(b, 0) && b[1] < a[1]) {
      for (const y of notchesLeft) result.push([0, y + width / 2], [depth, y], [0, y - width / 2]);
    }
  }
  return result;
}

export function buildDoyenPouch(context: LayoutContext): ContainerLayout {
  const { dims, bleedMm } = context;
  const { widthMm: w, heightMm: h, depthMm: g } = dims;
  const { sideSealMm: s, topSealMm: t, zipperFromTopMm: zTop, zipperMm: z } = POUCH;
  const m = SAFE_MARGIN_MM;
  const subject = 'a stand-up pouch';
  // The front keeps room for the top seal, zipper, the bottom seal and a printable field between them.
  requireAtLeast(
    'heightMm',
    h,
    zTop + z + g / 2 + 2 * m + 10,
    subject,
    `the zipper ends ${zTop + z} mm below the top and the bottom seal rises ${g / 2} mm.`,
  );
  const total = 2 * h + g;
  const pieceId = 'web';
  const notchY = (t + zTop) / 2;
  const front = rect(0, 0, w, h);
  const gusset = rect(0, h, w, h + g);
  const back = rect(0, h + g, w, total);
  const frontFrame = { center: [w / 2, h / 2] as Point, rotationDeg: 0 as const, width: w, height: h };
  const panels = [
    layoutPanel('front', 'Front', 'wall', pieceId, front, frontFrame),
    layoutPanel('gusset', 'Gusset', 'bottom', pieceId, gusset, { center: [w / 2, h + g / 2], rotationDeg: 0, width: w, height: g }),
    layoutPanel('back', 'Back', 'wall', pieceId, back, { center: [w / 2, h + g + h / 2], rotationDeg: 180, width: w, height: h }),
    // Saved designs placed on the old single-face label keep working: `label` is the front.
    layoutPanel('label', 'Label (front)', 'wall', pieceId, front, frontFrame),
  ];
  const seal = bottomSeal(w, h, g);
  const paths: DielinePath[] = [
    layoutPath('bleed', roundedRect(-bleedMm, -bleedMm, w + bleedMm, total + bleedMm, POUCH.cornerRadiusMm + bleedMm), true, { pieceId }),
    layoutPath('safe', rect(s + m, t + m, w - s - m, h - g / 2 - m), true, { panelId: 'front' }),
    layoutPath('safe', rect(s + m, total - (h - g / 2 - m), w - s - m, total - t - m), true, { panelId: 'back' }),
  ];
  for (const [panelId, y0, y1] of [['front', 0, h], ['gusset', h, h + g], ['back', h + g, total]] as const) {
    paths.push(zonePath('seal', rect(0, y0, s, y1), panelId), zonePath('seal', rect(w - s, y0, w, y1), panelId));
  }
  paths.push(
    zonePath('seal', rect(0, 0, w, t), 'front'),
    zonePath('seal', rect(0, total - t, w, total), 'back'),
    zonePath('seal', seal, 'front'),
    zonePath('seal', mirror(seal, h), 'gusset'),
    // The back's band is the front's mirrored about the gusset's fold; the gusset's back half the front's shifted by G.
    zonePath('seal', seal.map(([x, y]) => [x, y + g] as Point), 'gusset'),
    zonePath('seal', mirror(seal, h + g / 2), 'back'),
    zonePath('zipper', rect(0, zTop, w, zTop + z), 'front'),
    zonePath('zipper', rect(0, total - zTop - z, w, total - zTop), 'back'),
    zonePath('fold', [[0, h + g / 2], [w, h + g / 2]], 'gusset', false),
    layoutPath('cut', outline(w, total, notchY), true, { role: 'outline', pieceId }),
    layoutPath(
      'eyemark',
      rect(w - EYE_MARK.fromSeamMm - EYE_MARK.widthMm, 0, w - EYE_MARK.fromSeamMm, Math.min(EYE_MARK.heightMm, t)),
      true,
      { panelId: 'front' },
    ),
  );
  return {
    dieline: assembleLayout({
      ...context,
      style: 'doyen-pouch',
      styleName: 'Stand-up pouch, Doyen bottom',
      thicknessMm: FILM_CALIPER_MM,
      piece: { id: pieceId, name: 'Web' },
      width: w,
      height: total,
      parameters: {
        webWidthMm: w,
        webLengthMm: total,
        sideSealMm: s,
        topSealMm: t,
        bottomSealMm: g / 2,
        zipperTopMm: zTop,
        zipperMm: z,
        tearNotchMm: notchY,
        cornerRadiusMm: POUCH.cornerRadiusMm,
        eyeMarkWidthMm: EYE_MARK.widthMm,
        eyeMarkHeightMm: Math.min(EYE_MARK.heightMm, t),
      },
      panels,
      paths,
    }),
    textureWindow: { x: 0, y: 0, width: w, height: total },
  };
}
