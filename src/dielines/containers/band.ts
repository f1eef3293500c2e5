/**
 * Beverage can, the 360° decoration band printed on the formed body: C plus a print overlap where
 * the image's start and end meet, as tall as the decorated body (base to the top of the neck). The
 * neck is formed after printing and the base is domed: both zones distort and are marked. A can is
 * not die-cut: the band's outline is its trim, with no CutContour.
 */
import { CAN_BASE_MM, CAN_NECK_MM, CAN_RIM_MM } from './figures.js';
import { SAFE_MARGIN_MM, type ContainerLayout, type LayoutContext } from './layout.js';
import { buildWrap } from './wrap.js';

export const CAN_PRINT_OVERLAP_MM = 3;
/** The flange above the neck is not decorated. */
const FLANGE_MM = CAN_RIM_MM + 1;
const CAN_WALL_MM = 0.1;

export function buildCanBand(context: LayoutContext): ContainerLayout {
  const { dims } = context;
  const height = dims.heightMm - FLANGE_MM;
  const neck = CAN_NECK_MM - FLANGE_MM;
  return buildWrap({
    ...context,
    style: 'can-band',
    styleName: 'Can decoration band',
    thicknessMm: CAN_WALL_MM,
    piece: { id: 'band', name: 'Band' },
    strip: { widthMm: CAN_PRINT_OVERLAP_MM, zone: 'overlap' },
    height,
    cutCornerRadius: null,
    zones: [
      { zone: 'neck', y0: 0, y1: neck },
      { zone: 'base', y0: height - CAN_BASE_MM, y1: height },
    ],
    safe: { y0: neck + SAFE_MARGIN_MM, y1: height - CAN_BASE_MM - SAFE_MARGIN_MM },
    parameters: {
      overlapMm: CAN_PRINT_OVERLAP_MM,
      bandWidthMm: Math.PI * dims.widthMm + CAN_PRINT_OVERLAP_MM,
      decoratedHeightMm: height,
      neckZoneMm: neck,
      baseZoneMm: CAN_BASE_MM,
    },
    texture: { y0: neck, y1: neck + (dims.heightMm - CAN_NECK_MM - CAN_BASE_MM) },
  });
}
