/**
 * Bottle and jar, wrap-around label: the circumference C = π d plus the overlap, as tall as the
 * label band the 3D model shows. Die-cut with 2 mm corners; the overlap strip at the right-hand end
 * lies over the left-hand end, the ends meeting at the back centre.
 */
import { LATHE_LABELS } from './figures.js';
import { SAFE_MARGIN_MM, type ContainerLayout, type LayoutContext } from './layout.js';
import { buildWrap } from './wrap.js';

export const LABEL_CORNER_RADIUS_MM = 2;
/** Paper or film label stock. */
const LABEL_CALIPER_MM = 0.08;

export function buildWrapLabel(context: LayoutContext, kind: 'bottle' | 'jar', overlapMm: number): ContainerLayout {
  const band = LATHE_LABELS[kind](context.dims);
  const height = band.top - band.bottom;
  return buildWrap({
    ...context,
    style: 'wrap-label',
    styleName: `Wrap-around ${kind} label`,
    thicknessMm: LABEL_CALIPER_MM,
    piece: { id: 'label', name: 'Label' },
    strip: { widthMm: overlapMm, zone: 'overlap' },
    height,
    cutCornerRadius: LABEL_CORNER_RADIUS_MM,
    safe: { y0: SAFE_MARGIN_MM, y1: height - SAFE_MARGIN_MM },
    parameters: {
      overlapMm,
      labelWidthMm: Math.PI * context.dims.widthMm + overlapMm,
      labelHeightMm: height,
      labelBottomMm: band.bottom,
      cornerRadiusMm: LABEL_CORNER_RADIUS_MM,
    },
    texture: { y0: 0, y1: height },
  });
}
