/**
 * Dieline geometry for the box templates: generation (pure geometry), SVG and PDF rendering.
 * No HTTP or database code lives here.
 */
export { DielineError, DielineSizeError, DielineUnsupportedError, type DielineParameter } from './errors.js';
export { DEFAULT_BLEED_MM, dielineTemplateInfo, generateDieline, type DielineTemplateInfo } from './generate.js';
export type { Range, StyleLimits } from './limits.js';
export { renderDielinePdf } from './pdf.js';
export { DIELINE_STYLES, isDielineTemplate } from './registry.js';
export {
  DIELINE_FORMATS,
  dielineFileName,
  isDielineFormat,
  renderDieline,
  type DielineFormat,
  type RenderedDieline,
} from './render.js';
export { renderDielineSvg, type SvgRenderOptions } from './svg.js';
export { defaultThicknessMm } from './thickness.js';
export { SAFE_MARGIN_MM } from './assemble.js';
export type {
  Bounds,
  BoxDimensions,
  Dieline,
  DielineOptions,
  DielinePanel,
  DielinePath,
  DielinePathType,
  DielinePiece,
  DielineStyleId,
  FrameRotation,
  PanelFrame,
  PanelRole,
  Point,
  ZoneKind,
} from './types.js';
