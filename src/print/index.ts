/**
 * From design to print: placement (EditorState → positioned layers), preflight, the print PDF and
 * the preview PNG. Pure of HTTP and database: the caller resolves the owner's assets.
 */
export { assetNameFromUrl, referencedAssetNames } from './image-url.js';
export { MAX_GRADIENT_STOPS } from './background.js';
export { MAX_IMAGE_PIXELS, MAX_SCALE, MAX_TOTAL_PIXELS, MIN_SCALE, MINIMUM_DPI, placeDesign, RECOMMENDED_DPI } from './placement.js';
export { dielineSizeFinding, noDielineFinding, preflightPlacement, report, type PreflightReport } from './preflight.js';
export { renderPrintPdf, writePrintPdf, type PrintOptions } from './pdf.js';
export type { ImageCacheSettings } from './image-cache.js';
export {
  CONDITION_KEYS,
  conditionForMaterial,
  DEFAULT_CONDITION,
  PRINT_CONDITIONS,
  printCondition,
  type PrintCondition,
} from './conditions.js';
export { DEFAULT_GLUE_AREAS, GLUE_AREAS_MODES, type GlueAreasMode, type StructureOptions } from './preflight-structure.js';
export {
  PREVIEW_DEFAULT_WIDTH,
  PREVIEW_MAX_WIDTH,
  PREVIEW_MIN_WIDTH,
  renderPreviewPng,
  renderTextureJpeg,
  renderTextureMaps,
  type TextureLook,
  type TextureMaps,
} from './preview.js';
export type { PrintColorSpace } from './images.js';
export type * from './types.js';
