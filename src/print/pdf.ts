/**
 * The print-ready PDF, PDF/X-4 for a named printing condition (see pdfx.ts): one page per piece.
 * TrimBox = the piece's blank, BleedBox = trim + bleed, MediaBox = bleed box plus room for crop
 * marks. On each page, on the Artwork layer and clipped to the piece's bleed outline (minus its
 * glue areas when they are knocked out): the background, then the artworks in order, each image
 * embedded once, SVG as vector paths. Above them, optionally, the cut and crease lines on their
 * processing-step layers (layers.ts) as the overprinting spot colours `CutContour` and `Crease`,
 * and crop marks (registration colour `All`) outside the bleed.
 * `rgb`: colours and images in the document's ICC-based sRGB. `cmyk`: converted once with the
 * condition's profile (images.ts, cmyk.ts); CMYK JPEGs pass through in both.
 * Fixed dates and a fixed image order make the bytes a function of the inputs.
 */
import {
  collectPdf,
  fixedInfo,
  pdfDocumentClass,
  POINTS_PER_MM,
  strokeDielinePaths,
  useSpotInks,
  type SpotColorDocument,
} from '../dielines/pdf.js';
import { boundsOf } from '../dielines/geometry.js';
import type { Point } from '../dielines/index.js';
import { createHash } from 'node:crypto';
import { createLimiter } from '../lib/concurrency.js';
import { gradientLine } from './background.js';
import { profileFsPath, rgbToCmyk } from './cmyk.js';
import { conditionProfile, printCondition, srgbProfile, type PrintCondition } from './conditions.js';
import { eyeMarks } from './containers.js';
import { CMYK_JPEG_QUALITY, pdfImage, type ImageTarget, type PdfImageData, type PrintColorSpace } from './images.js';
import { PrintLayers } from './layers.js';
import { declarePdfX } from './pdfx.js';
import { drawSvg, prepareSvg, type PreparedSvg, type SvgTarget } from './svg.js';
import type { BackgroundPaint, PieceLayers, Placement, ResolvedAsset, Rgb } from './types.js';

export type { GlueAreasMode } from './preflight-structure.js';
import type { GlueAreasMode } from './preflight-structure.js';

/** Plain data (structured-clone-able): a render may run in another process. */
export interface PrintOptions {
  bleedMm: number;
  marks: boolean;
  dieline: boolean;
  colorSpace: PrintColorSpace;
  /** A key of PRINT_CONDITIONS; the default condition when absent. */
  condition?: string;
  /** knockout (default): no ink on glue areas; print: the artwork covers them. */
  glueAreas?: GlueAreasMode;
  /** JPEG quality of photographs converted to CMYK (default CMYK_JPEG_QUALITY). */
  jpegQuality?: number;
}

export const SVG_MIME = 'image/svg+xml';
/** Images decoded and converted at once while a file is written. */
export const IMAGE_PREPARATION_CONCURRENCY = 2;

/** Crop marks start this far outside the bleed and are this long. */
export const MARK_GAP_MM = 2;
export const MARK_LENGTH_MM = 5;
const MARK_WIDTH_MM = 0.1;

type Color = string | number[];

/** Image XObjects (one per asset, embedded on first use) and prepared SVGs of the document. */
class AssetRegistry {
  private readonly refs = new Map<string, { name: string; ref: PDFKit.PDFKitReference }>();
  private readonly svgs = new Map<string, PreparedSvg>();
  private readonly prepared = new Map<string, Promise<PdfImageData>>();
  /** ICC-based colour spaces of the profiles images carry, one per distinct profile. */
  private readonly iccSpaces = new Map<string, unknown[]>();
  constructor(
    private readonly doc: SpotColorDocument,
    private readonly target: ImageTarget,
    private readonly svgTarget: SvgTarget,
    private readonly srgb: unknown[] | null,
    /** The widest each asset is printed, in mm: converted images are resampled from it. */
    private readonly printedWidths: ReadonlyMap<string, number>,
  ) {}

  /** Draws the asset into the rectangle (x, y, w, h) of the current y-down user space. */
  async draw(asset: ResolvedAsset, x: number, y: number, w: number, h: number): Promise<void> {
    if (asset.mimeType === SVG_MIME) {
      let prepared = this.svgs.get(asset.name);
      if (!prepared) {
        prepared = await prepareSvg(await asset.load(), this.svgTarget);
        this.svgs.set(asset.name, prepared);
      }
      this.doc.save();
      this.doc.translate(x, y);
      drawSvg(this.doc, prepared, w, h, this.svgTarget);
      this.doc.restore();
      return;
    }
    drawImage(this.doc, await this.image(asset), x, y, w, h);
  }

  /**
   * Starts preparing every raster image of the placement, IMAGE_PREPARATION_CONCURRENCY at a time
   * (sharp runs each on its own libuv thread); they are embedded in drawing order, so the bytes
   * do not depend on which finishes first.
   */
  prefetch(assets: readonly ResolvedAsset[]): void {
    const limit = createLimiter(IMAGE_PREPARATION_CONCURRENCY);
    for (const asset of assets) {
      if (asset.mimeType === SVG_MIME || this.prepared.has(asset.name)) continue;
      const data = limit(async () => pdfImage(asset, await asset.load(), this.target, this.printedWidths.get(asset.name) ?? 1));
      // Awaited when drawn; a failure surfaces there, not as an unhandled rejection here.
      data.catch(() => undefined);
      this.prepared.set(asset.name, data);
    }
  }

  private async image(asset: ResolvedAsset): Promise<string> {
    let entry = this.refs.get(asset.name);
    if (!entry) {
      const pending = this.prepared.get(asset.name) ?? pdfImage(asset, await asset.load(), this.target, this.printedWidths.get(asset.name) ?? 1);
      const image = await pending;
      this.prepared.delete(asset.name);
      entry = { name: `Im${this.refs.size + 1}`, ref: this.embed(image) };
      this.refs.set(asset.name, entry);
    }
    this.doc.page.xobjects[entry.name] = entry.ref;
    return entry.name;
  }

  private colorSpace(space: PdfImageData['colorSpace']): unknown {
    if (space === 'sRGB') return this.srgb;
    if (typeof space === 'string') return space;
    const key = createHash('sha256').update(space.icc).digest('hex');
    let iccBased = this.iccSpaces.get(key);
    if (!iccBased) {
      const stream = this.doc.ref({ N: 3, Alternate: 'DeviceRGB' });
      stream.end(space.icc);
      iccBased = ['ICCBased', stream];
      this.iccSpaces.set(key, iccBased);
    }
    return iccBased;
  }

  private embed(image: PdfImageData): PDFKit.PDFKitReference {
    const dictionary: Record<string, unknown> = {
      Type: 'XObject',
      Subtype: 'Image',
      Width: image.width,
      Height: image.height,
      BitsPerComponent: 8,
      ColorSpace: this.colorSpace(image.colorSpace),
      Filter: image.filter,
    };
    if (image.decode) dictionary.Decode = image.decode;
    if (image.smask) {
      const mask = this.doc.ref({
        Type: 'XObject',
        Subtype: 'Image',
        Width: image.width,
        Height: image.height,
        BitsPerComponent: 8,
        ColorSpace: 'DeviceGray',
        Filter: 'FlateDecode',
      });
      mask.end(image.smask);
      dictionary.SMask = mask;
    }
    const ref = this.doc.ref(dictionary);
    ref.end(image.data);
    return ref;
  }
}

/** Draws an image XObject into the rectangle (x, y, w, h) of the current y-down user space. */
function drawImage(doc: SpotColorDocument, name: string, x: number, y: number, w: number, h: number): void {
  doc.save();
  doc.transform(w, 0, 0, -h, x, y + h);
  doc.addContent(`/${name} Do`);
  doc.restore();
}

function tracePolygon(doc: SpotColorDocument, points: readonly Point[]): void {
  points.forEach(([x, y], index) => (index === 0 ? doc.moveTo(x, y) : doc.lineTo(x, y)));
  doc.closePath();
}

async function paint(color: Rgb, colorSpace: PrintColorSpace, condition: PrintCondition): Promise<Color> {
  if (colorSpace === 'cmyk') return rgbToCmyk(color, condition);
  return [...color];
}

async function drawBackground(
  doc: SpotColorDocument,
  layers: PieceLayers,
  background: BackgroundPaint,
  assets: AssetRegistry,
  colorSpace: PrintColorSpace,
  condition: PrintCondition,
): Promise<void> {
  const box = boundsOf(layers.bleed);
  if (background.kind === 'color') {
    doc.rect(box.x, box.y, box.width, box.height).fill((await paint(background.color, colorSpace, condition)) as never);
    return;
  }
  if (background.kind === 'gradient') {
    const [[x1, y1], [x2, y2]] = gradientLine(background.angleDeg, box);
    const gradient = doc.linearGradient(x1, y1, x2, y2);
    for (const stop of background.stops) gradient.stop(stop.offset, (await paint(stop.color, colorSpace, condition)) as never);
    doc.rect(box.x, box.y, box.width, box.height).fill(gradient);
    return;
  }
  const cover = coverRect(box, background.asset);
  await assets.draw(background.asset, cover.x, cover.y, cover.width, cover.height);
}

/** CSS `cover`: the asset scaled to cover the box, centred. */
function coverRect(box: { x: number; y: number; width: number; height: number }, asset: ResolvedAsset) {
  const k = Math.max(box.width / asset.widthPx, box.height / asset.heightPx);
  const width = asset.widthPx * k;
  const height = asset.heightPx * k;
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
}

/** The widest each asset is printed anywhere in the placement, in mm. */
function printedWidths(placement: Placement): Map<string, number> {
  const widths = new Map<string, number>();
  const note = (asset: ResolvedAsset, width: number) => widths.set(asset.name, Math.max(widths.get(asset.name) ?? 0, width));
  for (const layers of placement.pieces) {
    if (layers.background?.kind === 'image') note(layers.background.asset, coverRect(boundsOf(layers.bleed), layers.background.asset).width);
    for (const image of layers.images) note(image.asset, image.width);
  }
  return widths;
}

/** Every asset the placement draws, in drawing order. */
function placedAssets(placement: Placement): ResolvedAsset[] {
  const assets: ResolvedAsset[] = [];
  for (const layers of placement.pieces) {
    if (layers.background?.kind === 'image') assets.push(layers.background.asset);
    for (const image of layers.images) assets.push(image.asset);
  }
  return assets;
}

/** Glue areas on a piece: those whose centre lies within the piece's bounds. */
function glueAreasOf(placement: Placement, bounds: { x: number; y: number; width: number; height: number }): Point[][] {
  return placement.dieline.paths
    .filter((path) => path.type === 'glue')
    .map((path) => path.points)
    .filter((points) => {
      const box = boundsOf(points);
      return onPiece([[box.x, box.y], [box.x + box.width, box.y + box.height]], bounds);
    });
}

/** A stable identifier of the file: the hash of everything it is made from. */
function documentId(placement: Placement, options: PrintOptions): string {
  const assets = (layers: PieceLayers) => [
    layers.background?.kind === 'image' ? [layers.background.asset.name, layers.background.asset.sizeBytes] : layers.background,
    layers.images.map((image) => [image.asset.name, image.asset.sizeBytes, image.center, image.width, image.rotationDeg]),
  ];
  const key = JSON.stringify([placement.dieline.templateId, placement.dieline.blank, placement.pieces.map(assets), options]);
  return createHash('sha256').update(key).digest('hex');
}

function drawCropMarks(doc: SpotColorDocument, trim: { x: number; y: number; width: number; height: number }, bleedMm: number): void {
  const start = bleedMm + MARK_GAP_MM;
  const end = start + MARK_LENGTH_MM;
  const xs = [trim.x, trim.x + trim.width];
  const ys = [trim.y, trim.y + trim.height];
  doc.save();
  doc.lineWidth(MARK_WIDTH_MM).undash().strokeColor('All');
  for (const [i, x] of xs.entries()) {
    for (const [j, y] of ys.entries()) {
      const sx = i === 0 ? -1 : 1;
      const sy = j === 0 ? -1 : 1;
      doc.moveTo(x + sx * start, y).lineTo(x + sx * end, y);
      doc.moveTo(x, y + sy * start).lineTo(x, y + sy * end);
    }
  }
  doc.stroke();
  doc.restore();
}

export async function renderPrintPdf(placement: Placement, options: PrintOptions): Promise<Buffer> {
  const PDFDocument = await pdfDocumentClass();
  const { dieline } = placement;
  const condition = printCondition(options.condition);
  const margin = options.bleedMm + (options.marks ? MARK_GAP_MM + MARK_LENGTH_MM + 1 : 0);
  const { inside } = dieline.dimensions;
  const doc = new PDFDocument({
    autoFirstPage: false,
    margin: 0,
    pdfVersion: '1.6',
    info: fixedInfo(
      `${dieline.styleName}, inside ${inside.widthMm} x ${inside.depthMm} x ${inside.heightMm} mm`,
      `Print file for template ${dieline.templateId}, ${condition.identifier}, ${options.colorSpace.toUpperCase()}`,
      'packaging-template-service print',
    ),
  }) as SpotColorDocument;
  const done = collectPdf(doc);
  const rgb = options.colorSpace === 'rgb';
  const { srgb } = declarePdfX(doc, {
    condition,
    profile: await conditionProfile(condition),
    srgbProfile: rgb ? await srgbProfile() : null,
    documentId: documentId(placement, options),
  });
  const svgTarget: SvgTarget = { colorSpace: options.colorSpace, condition, srgb };
  const assets = new AssetRegistry(
    doc,
    { colorSpace: options.colorSpace, cmykProfilePath: profileFsPath(condition), jpegQuality: options.jpegQuality ?? CMYK_JPEG_QUALITY },
    svgTarget,
    srgb,
    printedWidths(placement),
  );
  assets.prefetch(placedAssets(placement));
  // A tube laminate's eye marks: solid darkest ink above the artwork, on their own layer.
  const marks = eyeMarks(placement.dieline);
  const layers = new PrintLayers(doc, [
    'artwork',
    ...(marks.length > 0 ? (['eyemark'] as const) : []),
    ...(options.dieline ? (['cut', 'crease'] as const) : []),
  ]);
  const inks = new Set<string>();
  doc.addSpotColor('All', 100, 100, 100, 100);

  for (const piece of placement.pieces) {
    const trim = piece.piece.bounds;
    const pageWidth = trim.width + 2 * margin;
    const pageHeight = trim.height + 2 * margin;
    doc.addPage({ size: [pageWidth * POINTS_PER_MM, pageHeight * POINTS_PER_MM], margin: 0 });
    // DefaultRGB: every DeviceRGB colour on the page (fills, gradients, SVG paths) is sRGB.
    if (srgb) (doc.page as unknown as { colorSpaces: Record<string, unknown> }).colorSpaces.DefaultRGB = srgb;
    const m = margin * POINTS_PER_MM;
    const b = (margin - options.bleedMm) * POINTS_PER_MM;
    Object.assign(doc.page.dictionary.data, {
      TrimBox: [m, m, m + trim.width * POINTS_PER_MM, m + trim.height * POINTS_PER_MM],
      BleedBox: [b, b, (pageWidth - (margin - options.bleedMm)) * POINTS_PER_MM, (pageHeight - (margin - options.bleedMm)) * POINTS_PER_MM],
    });
    if (options.dieline) useSpotInks(doc, ['crease', 'cut'], inks);
    doc.save();
    doc.scale(POINTS_PER_MM);
    doc.translate(margin - trim.x, margin - trim.y);

    await layers.on('artwork', async () => {
      doc.save();
      tracePolygon(doc, piece.bleed);
      const glue = (options.glueAreas ?? 'knockout') === 'knockout' ? glueAreasOf(placement, trim) : [];
      // Even-odd: the glue areas inside the bleed outline are holes in the clip.
      for (const area of glue) tracePolygon(doc, area);
      doc.clip(glue.length > 0 ? 'even-odd' : 'non-zero');
      if (piece.background) await drawBackground(doc, piece, piece.background, assets, options.colorSpace, condition);
      for (const image of piece.images) {
        const a = (image.rotationDeg * Math.PI) / 180;
        doc.save();
        doc.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), image.center[0], image.center[1]);
        await assets.draw(image.asset, -image.width / 2, -image.height / 2, image.width, image.height);
        doc.restore();
      }
      doc.restore();
    });
    if (marks.length > 0) {
      await layers.on('eyemark', () => {
        for (const mark of marks) tracePolygon(doc, mark.points);
        doc.fill((options.colorSpace === 'cmyk' ? [0, 0, 0, 100] : [0, 0, 0]) as never);
      });
    }

    if (options.dieline) {
      const paths = dieline.paths.filter((path) => path.pieceId === piece.piece.id || (path.type === 'crease' && onPiece(path.points, trim)));
      await layers.on('crease', () => strokeDielinePaths(doc, paths, ['crease']));
      await layers.on('cut', () => strokeDielinePaths(doc, paths, ['cut']));
    }
    if (options.marks) drawCropMarks(doc, trim, options.bleedMm);
    doc.restore();
  }
  doc.end();
  return done;
}

/** Creases carry no pieceId: a crease belongs to the piece whose bounds hold its midpoint. */
function onPiece(points: readonly Point[], bounds: { x: number; y: number; width: number; height: number }): boolean {
  const [a, b] = [points[0]!, points[points.length - 1]!];
  const x = (a[0] + b[0]) / 2;
  const y = (a[1] + b[1]) / 2;
  return x >= bounds.x && x <= bounds.x + bounds.width && y >= bounds.y && y <= bounds.y + bounds.height;
}
