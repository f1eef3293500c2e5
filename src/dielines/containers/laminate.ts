/**
 * Squeeze tube, laminate: the flat laminate is C plus the side-seam overlap wide and the tube sleeve
 * long (from the shoulder to the open end, as the 3D model builds it). The open end is crimped and
 * sealed after filling; the eye mark the filling line registers on sits at the open end, on its own
 * layer, printed above the artwork. Aluminium and extruded tubes are printed in the round: the same
 * layout serves as a 360° band, with no side seam.
 */
import { tubeBody } from './figures.js';
import { layoutPath, rect, SAFE_MARGIN_MM, type ContainerLayout, type LayoutContext } from './layout.js';
import { buildWrap } from './wrap.js';

export const TUBE_SEAM_DEFAULT_MM = 3;
export const EYE_MARK = { widthMm: 5, heightMm: 10, fromSeamMm: 10 } as const;
/** ABL/PBL laminate. */
const LAMINATE_CALIPER_MM = 0.3;

export function buildTubeLaminate(context: LayoutContext, seamMm: number): ContainerLayout {
  const { dims } = context;
  const c = Math.PI * dims.widthMm;
  const { bodyBottom, bodyTop } = tubeBody(dims.heightMm);
  const length = dims.heightMm - bodyBottom;
  const crimp = dims.heightMm - bodyTop;
  const eyeRight = c - EYE_MARK.fromSeamMm;
  const eyeMark = layoutPath('eyemark', rect(eyeRight - EYE_MARK.widthMm, 0, eyeRight, EYE_MARK.heightMm), true, { panelId: 'back' });
  return buildWrap({
    ...context,
    style: 'tube-laminate',
    styleName: 'Squeeze tube laminate',
    thicknessMm: LAMINATE_CALIPER_MM,
    piece: { id: 'laminate', name: 'Laminate' },
    strip: { widthMm: seamMm, zone: 'seal' },
    height: length,
    cutCornerRadius: 0,
    zones: [{ zone: 'seal', y0: 0, y1: crimp }],
    safe: { y0: crimp + SAFE_MARGIN_MM, y1: length - SAFE_MARGIN_MM },
    extraPaths: [eyeMark],
    parameters: {
      seamMm,
      laminateWidthMm: c + seamMm,
      sleeveLengthMm: length,
      crimpMm: crimp,
      eyeMarkWidthMm: EYE_MARK.widthMm,
      eyeMarkHeightMm: EYE_MARK.heightMm,
    },
    texture: { y0: crimp, y1: length },
  });
}
