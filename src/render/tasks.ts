// The work a render child does, by name: each task is one call into a pure module (the image
// analysis, src/print, the sheet layout in src/dielines) with structured-clone-able input. Options
// objects pass through whole, so what the renderers learn to read needs no change here or in the
// pool. Loaded only in children.
import { symbolOutcome, type BarcodeSpec } from '../barcodes/index.js';
import { analyseImage, type ImageInput } from '../lib/image-analysis.js';
import { SVG_IMAGE } from '../lib/image-type.js';
import {
  renderPreviewPng,
  writePrintPdf,
  renderTextureMaps,
  type ImageCacheSettings,
  type Placement,
  type PrintOptions,
  type PrintSurface,
} from '../print/index.js';
import type { PreviewOptions, TextureLook } from '../print/preview.js';
import type { TextureAtlas } from '../print/atlas.js';
import type { Bounds, Dieline } from '../dielines/index.js';
import { blankShape, layoutSheet, type SheetSpec } from '../dielines/layout.js';
import { renderSheetCf2, renderSheetDxf } from '../dielines/sheet-cad.js';
import { renderSheetPdf } from '../dielines/sheet-pdf.js';
import { boundedSvg } from './svg-filters.js';
import { measureInk } from '../print/ink-coverage.js';
import type { PrintCondition } from '../print/conditions.js';
import type { ResolvedAsset } from '../print/types.js';
import type { FontFace } from '../print/fonts.js';
import { outlineSvg } from '../print/svg-text.js';

interface PrintInput {
  placement: Placement;
  options: PrintOptions;
  /** Where this machine keeps converted images between prints (src/print/image-cache.ts); none: not kept. */
  imageCache?: ImageCacheSettings | null;
}

interface TextureTask {
  placement: Placement<PrintSurface>;
  sizePx: number;
  window?: Bounds;
  look: TextureLook;
  /** A box's texture atlas (the model's cells). */
  atlas?: TextureAtlas;
}

export const TASKS = {
  /**
   * An upload's facts and thumbnail; an SVG is held to the cost model (svg-filters.ts) before it is
   * rasterised, and its text outlined with the owner's fonts (fonts) and the bundled ones.
   */
  'image.analyse': async ({ input, mimeType, fonts }: { input: ImageInput; mimeType: string; fonts?: readonly FontFace[] }) => {
    if (mimeType === SVG_IMAGE.mime && Buffer.isBuffer(input)) {
      const bounded = boundedSvg(input);
      // The thumbnail shows the text as the print outlines it, with the owner's fonts. A file
      // resvg cannot read is refused by the analysis itself, as unreadable.
      const outlined = await outlineSvg(bounded, fonts ?? []).then(
        (result) => Buffer.from(result.svg),
        () => null,
      );
      return outlined ? analyseImage(bounded, mimeType, outlined) : analyseImage(bounded, mimeType);
    }
    return analyseImage(input, mimeType);
  },
  /** A checked barcode request's symbol (BWIPP's encoding takes up to a second for a long QR code). */
  'barcode.make': ({ spec }: { spec: BarcodeSpec }) => symbolOutcome(spec),
  'print.preview': ({
    placement,
    widthPx,
    look,
  }: {
    placement: Placement<PrintSurface>;
    widthPx: number;
    look?: Pick<PreviewOptions, 'substrate' | 'effects' | 'translucentInk'>;
  }) => renderPreviewPng(placement, widthPx, look),
  /** A blank laid out n-up on a press sheet, and that sheet as a PDF or its n-up die as DXF or CF2 when asked. */
  'sheet.layout': async ({ dieline, sheet, file }: { dieline: Dieline; sheet: SheetSpec; file: 'pdf' | 'dxf' | 'cf2' | null }) => {
    const layout = layoutSheet(blankShape(dieline), sheet);
    if (file === 'pdf') return { layout, file: await renderSheetPdf(dieline, layout) };
    if (file === 'dxf') return { layout, file: renderSheetDxf(dieline, layout, sheet.gapMm) };
    if (file === 'cf2') return { layout, file: renderSheetCf2(dieline, layout, sheet.gapMm) };
    return { layout, file: null };
  },
  /** The preflight's image work: each raster image's highest total ink in the condition. */
  'print.inkCoverage': ({ assets, condition }: { assets: ResolvedAsset[]; condition: PrintCondition }) => measureInk(assets, condition),
  'print.texture': ({ placement, sizePx, window, look, atlas }: TextureTask) => renderTextureMaps(placement, sizePx, window, look, atlas),
} as const;

/**
 * Renders whose result is a file: the child writes it at the path the pool gives (`file`) and
 * answers with its size, so a print of large photos never crosses the IPC channel (pool.runToFile).
 */
export const FILE_TASKS = {
  'print.pdf': ({ placement, options, imageCache }: PrintInput, file: string) =>
    writePrintPdf(placement, options, imageCache ?? null, file),
} as const;

export type Tasks = typeof TASKS;
export type TaskName = keyof Tasks;
export type TaskInput<N extends TaskName> = Parameters<Tasks[N]>[0];
export type TaskOutput<N extends TaskName> = Awaited<ReturnType<Tasks[N]>>;
export type FileTaskName = keyof typeof FILE_TASKS;
export type FileTaskInput<N extends FileTaskName> = Parameters<(typeof FILE_TASKS)[N]>[0];
