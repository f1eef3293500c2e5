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
import { assertSvgFiltersBounded } from './svg-filters.js';
import type { FontFace } from '../print/fonts.js';
import { outlineSvg } from '../print/svg-text.js';

export const TASKS = {
  /**
   * An upload's facts and thumbnail; an SVG's filters are checked before it is rasterised, and its
   * text outlined with the owner's fonts (fonts) and the bundled ones.
   */
  'image.analyse': async ({ input, mimeType, fonts }: { input: ImageInput; mimeType: string; fonts?: readonly FontFace[] }) => {
    if (mimeType === SVG_IMAGE.mime && Buffer.isBuffer(input)) {
      assertSvgFiltersBounded(input);
      // The thumbnail shows the text as the print outlines it, with the owner's fonts.
      return analyseImage(input, mimeType, Buffer.from((await outlineSvg(input, fonts ?? [])).svg));
    }
    return analyseImage(input, mimeType);
  },
  'print.pdf': ({ placement, options }: { placement: Placement; options: PrintOptions }) => renderPrintPdf(placement, options),
  'print.preview': ({ placement, widthPx, look }: { placement: Placement<PrintSurface>; widthPx: number; look?: Pick<PreviewOptions, 'substrate' | 'effects' | 'translucentInk'> }) =>
    renderPreviewPng(placement, widthPx, look),
  /** A blank laid out n-up on a press sheet, and that sheet's PDF when `pdf`. */
  'sheet.layout': async ({ dieline, sheet, pdf }: { dieline: Dieline; sheet: SheetSpec; pdf: boolean }) => {
    const layout = layoutSheet(blankShape(dieline), sheet);
    return { layout, pdf: pdf ? await renderSheetPdf(dieline, layout) : null };
  },
  'print.texture': ({ placement, sizePx, window, look }: { placement: Placement<PrintSurface>; sizePx: number; window?: Bounds; look: TextureLook }) =>
    renderTextureMaps(placement, sizePx, window, look),
} as const;

export type Tasks = typeof TASKS;
export type TaskName = keyof Tasks;
export type TaskInput<N extends TaskName> = Parameters<Tasks[N]>[0];
export type TaskOutput<N extends TaskName> = Awaited<ReturnType<Tasks[N]>>;
