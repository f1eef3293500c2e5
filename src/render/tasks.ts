// The work a render child does, by name: each task is one call into a pure module (the image
// analysis, src/print, the sheet layout in src/dielines) with structured-clone-able input. Options
// objects pass through whole, so what the renderers learn to read needs no change here or in the
// pool. Loaded only in children.
import { analyseImage, type ImageInput } from '../lib/image-analysis.js';
import { SVG_IMAGE } from '../lib/image-type.js';
import { renderPreviewPng, renderPrintPdf, renderTextureMaps, type Placement, type PrintOptions, type PrintSurface } from '../print/index.js';
import type { PreviewOptions, TextureLook } from '../print/preview.js';
import type { Bounds, Dieline } from '../dielines/index.js';
import { blankShape, layoutSheet, type SheetSpec } from '../dielines/layout.js';
import { renderSheetPdf } from '../dielines/sheet-pdf.js';
import { boundedSvg } from './svg-filters.js';
import { measureInk } from '../print/ink-coverage.js';
import type { PrintCondition } from '../print/conditions.js';
import type { ResolvedAsset } from '../print/types.js';

export const TASKS = {
  /** An upload's facts and thumbnail; an SVG is held to the cost model (svg-filters.ts) before it is rasterised. */
  'image.analyse': async ({ input, mimeType }: { input: ImageInput; mimeType: string }) =>
    analyseImage(mimeType === SVG_IMAGE.mime && Buffer.isBuffer(input) ? boundedSvg(input) : input, mimeType),
  'print.pdf': ({ placement, options }: { placement: Placement; options: PrintOptions }) => renderPrintPdf(placement, options),
  'print.preview': ({ placement, widthPx, look }: { placement: Placement<PrintSurface>; widthPx: number; look?: Pick<PreviewOptions, 'substrate' | 'effects' | 'translucentInk'> }) =>
    renderPreviewPng(placement, widthPx, look),
  /** A blank laid out n-up on a press sheet, and that sheet's PDF when `pdf`. */
  'sheet.layout': async ({ dieline, sheet, pdf }: { dieline: Dieline; sheet: SheetSpec; pdf: boolean }) => {
    const layout = layoutSheet(blankShape(dieline), sheet);
    return { layout, pdf: pdf ? await renderSheetPdf(dieline, layout) : null };
  },
  /** The preflight's image work: each raster image's highest total ink in the condition. */
  'print.inkCoverage': ({ assets, condition }: { assets: ResolvedAsset[]; condition: PrintCondition }) => measureInk(assets, condition),
  'print.texture': ({ placement, sizePx, window, look }: { placement: Placement<PrintSurface>; sizePx: number; window?: Bounds; look: TextureLook }) =>
    renderTextureMaps(placement, sizePx, window, look),
} as const;

export type Tasks = typeof TASKS;
export type TaskName = keyof Tasks;
export type TaskInput<N extends TaskName> = Parameters<Tasks[N]>[0];
export type TaskOutput<N extends TaskName> = Awaited<ReturnType<Tasks[N]>>;
