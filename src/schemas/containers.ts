// The container print options (labelStyle, overlapMm, fitMm, seamMm), shared by the dieline,
// print, preview, preflight and project model query strings. A template they do not apply to
// answers 400.
import { Type } from '@sinclair/typebox';
import { StringEnum } from './common.js';
import {
  FIT_DEFAULT_MM,
  FIT_LIMITS,
  LABEL_STYLES,
  OVERLAP_DEFAULT_MM,
  OVERLAP_LIMITS,
  SEAM_LIMITS,
  SLEEVE_SEAM_DEFAULT_MM,
  TUBE_SEAM_DEFAULT_MM,
} from '../dielines/containers/index.js';

export const ContainerOptionsProperties = {
  labelStyle: Type.Optional(
    StringEnum(LABEL_STYLES, {
      default: 'label',
      description:
        'round-bottle and cosmetic-jar only: label (wrap-around label, default) or sleeve (shrink sleeve). Other templates: 400.',
    }),
  ),
  overlapMm: Type.Optional(
    Type.Number({
      minimum: OVERLAP_LIMITS.min,
      maximum: OVERLAP_LIMITS.max,
      default: OVERLAP_DEFAULT_MM,
      description:
        `Wrap-around label only: the overlap strip at the label's right-hand end, ` +
        `in millimetres (${OVERLAP_LIMITS.min}–${OVERLAP_LIMITS.max}).`,
    }),
  ),
  fitMm: Type.Optional(
    Type.Number({
      minimum: FIT_LIMITS.min,
      maximum: FIT_LIMITS.max,
      default: FIT_DEFAULT_MM,
      description: `Shrink sleeve only: the fit allowance added to the layflat, in millimetres (${FIT_LIMITS.min}–${FIT_LIMITS.max}).`,
    }),
  ),
  seamMm: Type.Optional(
    Type.Number({
      minimum: SEAM_LIMITS.min,
      maximum: SEAM_LIMITS.max,
      description:
        `Shrink sleeve (default ${SLEEVE_SEAM_DEFAULT_MM}) and squeeze-tube laminate (default ${TUBE_SEAM_DEFAULT_MM}): ` +
        `the seam strip, in millimetres (${SEAM_LIMITS.min}–${SEAM_LIMITS.max}).`,
    }),
  ),
};
