/**
 * Dieline geometry for the box templates: generation (pure geometry), SVG and PDF rendering.
 * No HTTP or database code lives here.
 */
export { DielineError, DielineOptionError, DielineSizeError, DielineUnsupportedError, type DielineParameter } from './errors.js';
export { DEFAULT_BLEED_MM, dielineTemplateInfo, generateDieline, type DielineTemplateInfo } from './generate.js';
export type { Range, StyleLimits } from './limits.js';
export { renderDielinePdf } from './pdf.js';
export { renderDielineDxf } from './dxf.js';
export { renderDielineCf2 } from './cf2.js';
export { DIELINE_STYLES, isDielineTemplate } from './registry.js';
export {
  DIELINE_FORMATS,
  DOWNLOAD_FORMATS,
  dielineFileName,
  isDielineFormat,
  renderDieline,
  type DielineFormat,
  type RenderedDieline,
} from './render.js';
export { renderDielineSvg, type SvgRenderOptions } from './svg.js';
export { defaultThicknessMm } from './thickness.js';
export { SAFE_MARGIN_MM } from './assemble.js';
export {
  DEFAULT_TURN_IN_MM,
  DIELINE_PARTS,
  generatePart,
  generateWrap,
  hasParts,
  TURN_IN_LIMITS,
  wrapSizes,
  type DielinePart,
  type PartOptions,
} from './wrap.js';
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
