/**
 * The print-ready PDF, PDF/X-4 for a named printing condition (see pdfx.ts): one page per piece.
 * TrimBox = the piece's blank, BleedBox = trim + bleed, MediaBox = bleed box plus room for crop
 * marks. On each page, on the Artwork layer and clipped to the piece's bleed outline (minus its
 * glue areas when they are knocked out): the background, then the artworks in order, each image
 * embedded once, SVG as vector paths. Above them, optionally, the cut and crease lines on their
 * processing-step layers (layers.ts) as the overprinting spot colours `CutContour` and `Crease`,
 * and crop marks (registration colour `All`) outside the bleed.
 * Finishes (effects.ts): under the artwork, optionally, the White plate (the inked area choked by
 * WHITE_CHOKE_MM, masks.ts); above it each effect's plate from its artworks' masks. Foil replaces
 * ink: its artwork knocks out what is under it instead of printing. Every plate is a spot colour on
 * its own layer and overprints; the artwork overprints the White plate. `mirror` turns each page
 * over for printing on the reverse of a clear film.
 * `rgb`: colours and images in the document's ICC-based sRGB. `cmyk`: converted once with the
 * condition's profile (images.ts, cmyk.ts); CMYK JPEGs pass through in both. Neutral vector colours
 * are one grey ink in both (K only; DeviceGray in rgb), dark text and thin strokes overprint
 * (black.ts, overprint.ts); eye marks are K only.
 * With marks, a slug line names the job below the crop marks (slug.ts). The dates are the design
 * version's (fixed when none is given) and the image order is fixed: the bytes are a function of
 * the inputs. An SVG over the cost model (render/svg-filters.ts) is left out, as preflight reports
 * (SVG_TOO_COSTLY): resvg would expand a nested `use` bomb before svg-to-pdfkit drew a path.
 */
import {
  collectPdf,
  fixedInfo,
  writePdf,
  pdfDocumentClass,
  POINTS_PER_MM,
  strokeDielinePaths,
  useSpotInks,
  type SpotColorDocument,
} from '../dielines/pdf.js';
import { rect } from '../dielines/draft.js';
import { boundsOf, polygonArea } from '../dielines/geometry.js';
import type { Point } from '../dielines/index.js';
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { createLimiter } from '../lib/concurrency.js';
import { gradientLine } from './background.js';
import { conditionKRamp, RICH_BLACK, RICH_BLACK_MIN_AREA_MM2 } from './black.js';
import { profileFsPath, rgbToCmyk } from './cmyk.js';
import { conditionProfile, printCondition, srgbProfile, type PrintCondition } from './conditions.js';
import { eyeMarks } from './containers.js';
import { EFFECT_PLATES, platesIn, WHITE_CHOKE_MM, WHITE_PLATE } from './effects.js';
import { alphaBits, inkedAreaMask, isEmpty, rasterArtworkMask, stencilXObject } from './masks.js';
import { openImageCache, type ImageCacheSettings } from './image-cache.js';
import { CMYK_JPEG_QUALITY, pdfImage, type ImageTarget, type PdfImageData, type PrintColorSpace } from './images.js';
import { PrintLayers, type LayerKey } from './layers.js';
import { installPressInks } from './overprint.js';
import { declarePdfX } from './pdfx.js';
import { drawBarcode, readBarcodeOutline, type BarcodeOutline } from './barcode-ink.js';
import { drawSlug, slugText, type SlugInfo } from './slug.js';
import { drawSvg, prepareSvg, type PreparedSvg, type SvgTarget } from './svg.js';
import { withinCostModel } from '../render/svg-filters.js';
import { kept } from './memo.js';
import type { BackgroundPaint, PieceLayers, PlacedImage, Placement, ResolvedAsset, Rgb } from './types.js';

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
  /** `underlay`: a White plate under every inked area (default none; the service resolves `auto`). */
  white?: 'none' | 'underlay';
  /** Each page mirrored left to right, marks included, for printing on the reverse of a film. */
  mirror?: boolean;
  /** cmyk: #000 filled areas of at least RICH_BLACK_MIN_AREA_MM2 print as RICH_BLACK (default false). */
  richBlack?: boolean;
  /** ISO date of the design's version: the file's CreationDate, ModDate and XMP dates, and the slug's. */
  documentDate?: string;
  /** With marks: the slug line below each page's crop marks. */
  slug?: SlugInfo;
}

export const SVG_MIME = 'image/svg+xml';
/** Images decoded and converted at once while a file is written. */
export const IMAGE_PREPARATION_CONCURRENCY = 2;

/** Crop marks start this far outside the bleed and are this long. */
export const MARK_GAP_MM = 2;
export const MARK_LENGTH_MM = 5;
const MARK_WIDTH_MM = 0.1;
/** No plate prints this close around an eye mark, so the line's sensor reads it against bare film. */
export const EYE_MARK_CLEARANCE_MM = 2;

type Color = string | number[];

/** Image XObjects (one per asset, embedded on first use) and prepared SVGs of the document. */
class AssetRegistry {
  private readonly refs = new Map<string, { name: string; ref: PDFKit.PDFKitReference }>();
  private readonly svgs = new Map<string, Promise<PreparedSvg | null>>();
  private readonly barcodes = new Map<string, Promise<BarcodeOutline>>();
  private readonly svgImages = new Map<string, { ref: PDFKit.PDFKitReference; label: string }>();
  private readonly prepared = new Map<string, Promise<PdfImageData>>();
  /** ICC-based colour spaces of the profiles images carry, one per distinct profile. */
  private readonly iccSpaces = new Map<string, unknown[]>();
  constructor(
    private readonly doc: SpotColorDocument,
    private readonly target: ImageTarget,
    private readonly svgTarget: SvgTarget,
    private readonly srgb: unknown[] | null,
    /** The placement's assets and the widest each is printed, in mm: converted images are resampled from it. */
    private readonly printed: ReadonlyMap<string, { asset: ResolvedAsset; width: number }>,
  ) {}

  private readonly masks = new Map<string, Promise<PDFKit.PDFKitReference | null>>();

  /** An SVG asset, prepared once per document, drawn as vectors into (x, y, w, h) for target. */
  private async drawSvgAsset(asset: ResolvedAsset, x: number, y: number, w: number, h: number, target: SvgTarget): Promise<void> {
    const prepared = await kept(this.svgs, asset.name, async () => {
      const bounded = withinCostModel(await asset.load());
      return bounded ? prepareSvg(bounded, this.svgTarget) : null;
    });
    if (!prepared) return;
    this.doc.save();
    this.doc.translate(x, y);
    const ink = target.ink;
    drawSvg(this.doc, prepared, w, h, target, (key, image) =>
      ink === undefined ? this.embedSvgImage(key, image) : this.embedSvgImageMask(key, image, ink),
    );
    this.doc.restore();
  }

  /**
   * Paints where the asset paints, in one ink (a spot colour's name or a process colour), in the
   * rectangle (x, y, w, h): an SVG's own shapes, a raster's alpha ≥ 50 % (all of it without alpha).
   */
  async drawMask(asset: ResolvedAsset, ink: string | number[], x: number, y: number, w: number, h: number): Promise<void> {
    if (asset.mimeType === SVG_MIME) {
      await this.drawSvgAsset(asset, x, y, w, h, { ...this.svgTarget, ink });
      return;
    }
    const stencil = await kept(this.masks, asset.name, () =>
      rasterArtworkMask(asset, this.printed.get(asset.name)?.width ?? w).then((bits) => (bits ? stencilXObject(this.doc, bits) : null)),
    );
    this.doc.save();
    if (typeof ink === 'string') setSpot(this.doc, ink);
    else this.doc.fillColor(ink as never);
    if (!stencil) {
      this.doc.rect(x, y, w, h).fill();
    } else {
      const name = `Mask${asset.name.replace(/[^A-Za-z0-9]/g, '')}`;
      this.doc.page.xobjects[name] = stencil;
      drawImage(this.doc, name, x, y, w, h);
    }
    this.doc.restore();
  }

  /** Draws the asset into the rectangle (x, y, w, h) of the current y-down user space. */
  async draw(asset: ResolvedAsset, x: number, y: number, w: number, h: number): Promise<void> {
    if (asset.barcode && asset.mimeType === SVG_MIME) {
      const outline = await kept(this.barcodes, asset.name, async () => readBarcodeOutline((await asset.load()).toString('utf8')));
      drawBarcode(this.doc, outline, x, y, w, h, this.target.colorSpace);
      return;
    }
    if (asset.mimeType === SVG_MIME) {
      await this.drawSvgAsset(asset, x, y, w, h, this.svgTarget);
      return;
    }
    drawImage(this.doc, await this.image(asset), x, y, w, h);
  }

  /**
   * Starts preparing every raster image of the placement, IMAGE_PREPARATION_CONCURRENCY at a time
   * (sharp runs each on its own libuv thread); they are embedded in drawing order, so the bytes
   * do not depend on which finishes first.
   */
  prefetch(): void {
    const limit = createLimiter(IMAGE_PREPARATION_CONCURRENCY);
    for (const { asset } of this.printed.values()) {
      if (asset.mimeType === SVG_MIME || this.prepared.has(asset.name)) continue;
      const data = limit(async () => pdfImage(asset, await asset.load(), this.target, this.printed.get(asset.name)?.width ?? 1));
      // Awaited when drawn; a failure surfaces there, not as an unhandled rejection here.
      data.catch(() => undefined);
      this.prepared.set(asset.name, data);
    }
  }

  private async image(asset: ResolvedAsset): Promise<string> {
    let entry = this.refs.get(asset.name);
    if (!entry) {
      const pending =
        this.prepared.get(asset.name) ?? pdfImage(asset, await asset.load(), this.target, this.printed.get(asset.name)?.width ?? 1);
      const image = await pending;
      this.prepared.delete(asset.name);
      entry = { name: `Im${this.refs.size + 1}`, ref: this.embed(image) };
      this.refs.set(asset.name, entry);
    }
    this.doc.page.xobjects[entry.name] = entry.ref;
    return entry.name;
  }

  /** An image inside an SVG: embedded once per document, whichever SVGs hold it. */
  private embedSvgImage(key: string, image: PdfImageData): { ref: PDFKit.PDFKitReference; label: string } {
    return kept(this.svgImages, key, () => ({ ref: this.embed(image), label: `SvgIm${this.svgImages.size + 1}` }));
  }

  /**
   * An image inside an SVG drawn in one ink, as drawMask draws a raster: a form filling its alpha
   * ≥ 50 % (all of it without alpha) in the ink, in the unit square an image XObject fills.
   */
  private embedSvgImageMask(key: string, image: PdfImageData, ink: string | number[]): { ref: PDFKit.PDFKitReference; label: string } {
    return kept(this.svgImages, `${key}\n${String(ink)}`, () => {
      const bits = image.smask ? alphaBits(inflateSync(image.smask)) : new Uint8Array(image.width * image.height).fill(1);
      const stencil = stencilXObject(this.doc, { width: image.width, height: image.height, bits });
      const resources: Record<string, unknown> = { XObject: { Stencil: stencil } };
      let fill: string;
      if (typeof ink === 'string') {
        const spot = (this.doc as unknown as SpotColorsDocument).spotColors[ink];
        if (!spot) throw new Error(`spot colour ${ink} is not registered`);
        resources.ColorSpace = { [spot.id]: spot.ref };
        fill = `/${spot.id} cs 1 scn`;
      } else {
        fill = ink.length === 4 ? `${ink.map((v) => v / 100).join(' ')} k` : `${ink.map((v) => v / 255).join(' ')} rg`;
      }
      const form = this.doc.ref({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 1, 1], Resources: resources });
      form.end(`${fill} /Stencil Do`);
      return { ref: form, label: `SvgMask${this.svgImages.size + 1}` };
    });
  }

  private colorSpace(space: PdfImageData['colorSpace']): unknown {
    if (space === 'sRGB') return this.srgb;
    if (typeof space === 'string') return space;
    const key = createHash('sha256').update(space.icc).digest('hex');
    return kept(this.iccSpaces, key, () => {
      const stream = this.doc.ref({ N: 3, Alternate: 'DeviceRGB' });
      stream.end(space.icc);
      return ['ICCBased', stream];
    });
  }

  private embed(image: PdfImageData): PDFKit.PDFKitReference {
    const xobject = (ColorSpace: unknown, Filter: string): Record<string, unknown> =>
      ({ Type: 'XObject', Subtype: 'Image', Width: image.width, Height: image.height, BitsPerComponent: 8, ColorSpace, Filter });
    const dictionary = xobject(this.colorSpace(image.colorSpace), image.filter);
    if (image.decode) dictionary.Decode = image.decode;
    if (image.smask) {
      const mask = this.doc.ref(xobject('DeviceGray', 'FlateDecode'));
      mask.end(image.smask);
      dictionary.SMask = mask;
    }
    const ref = this.doc.ref(dictionary);
    ref.end(image.data);
    return ref;
  }
}

interface SpotColorsDocument {
  spotColors: Record<string, { id: string; ref: unknown }>;
  page: { colorSpaces: Record<string, unknown> };
}

/**
 * Sets a registered spot colour as the fill (or stroke), at full tint by default. pdfkit's fillColor
 * reads a name as a CSS colour first, so `White` would become DeviceRGB white.
 */
function setSpot(doc: PDFKit.PDFDocument, name: string, tint = 1, stroke = false): void {
  const writable = doc as unknown as SpotColorsDocument;
  const spot = writable.spotColors[name];
  if (!spot) throw new Error(`spot colour ${name} is not registered`);
  writable.page.colorSpaces[spot.id] = spot.ref;
  doc.addContent(stroke ? `/${spot.id} CS ${tint} SCN` : `/${spot.id} cs ${tint} scn`);
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

const isBlack = ([r, g, b]: Rgb) => r === 0 && g === 0 && b === 0;

async function drawBackground(
  doc: SpotColorDocument,
  layers: PieceLayers,
  background: BackgroundPaint,
  assets: AssetRegistry,
  colorSpace: PrintColorSpace,
  condition: PrintCondition,
  richBlack: boolean,
): Promise<void> {
  const box = boundsOf(layers.bleed);
  // A flat colour as the file writes it: in rgb, neutral ones become DeviceGray when drawn (overprint.ts).
  const paint = async (color: Rgb): Promise<Color> => (colorSpace === 'cmyk' ? rgbToCmyk(color, condition) : [...color]);
  if (background.kind === 'color') {
    const rich = richBlack && colorSpace === 'cmyk' && isBlack(background.color) && polygonArea(layers.bleed) >= RICH_BLACK_MIN_AREA_MM2;
    const fill = rich ? [...RICH_BLACK] : await paint(background.color);
    doc.rect(box.x, box.y, box.width, box.height).fill(fill as never);
    return;
  }
  if (background.kind === 'gradient') {
    const [[x1, y1], [x2, y2]] = gradientLine(background.angleDeg, box);
    const gradient = doc.linearGradient(x1, y1, x2, y2);
    for (const stop of background.stops) gradient.stop(stop.offset, (await paint(stop.color)) as never);
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

/** Every asset the placement draws, by name in drawing order, with the widest it is printed anywhere (mm). */
function printedAssets(placement: Placement): Map<string, { asset: ResolvedAsset; width: number }> {
  const printed = new Map<string, { asset: ResolvedAsset; width: number }>();
  const note = (asset: ResolvedAsset, width: number) => {
    const entry = printed.get(asset.name);
    if (entry) entry.width = Math.max(entry.width, width);
    else printed.set(asset.name, { asset, width });
  };
  for (const layers of placement.pieces) {
    if (layers.background?.kind === 'image') {
      note(layers.background.asset, coverRect(boundsOf(layers.bleed), layers.background.asset).width);
    }
    for (const image of layers.images) note(image.asset, image.width);
  }
  return printed;
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

/** imageCache: where converted images are kept between prints (none: each print converts its own); never changes the bytes. */
export function renderPrintPdf(placement: Placement, options: PrintOptions, imageCache: ImageCacheSettings | null = null): Promise<Buffer> {
  return drawPrintPdf(placement, options, imageCache, collectPdf);
}

/**
 * The same file written to `file` as it is made (created, or replaced), so a file of large photos
 * is never held whole in memory; resolves with its size in bytes. On failure the file is left as
 * far as it got, closed: the caller removes it.
 */
export function writePrintPdf(
  placement: Placement,
  options: PrintOptions,
  imageCache: ImageCacheSettings | null,
  file: string,
): Promise<number> {
  return drawPrintPdf(placement, options, imageCache, (doc) => writePdf(doc, file));
}

async function drawPrintPdf<T>(
  placement: Placement,
  options: PrintOptions,
  imageCache: ImageCacheSettings | null,
  sink: (doc: PDFKit.PDFDocument) => Promise<T>,
): Promise<T> {
  const PDFDocument = await pdfDocumentClass();
  const { dieline } = placement;
  const condition = printCondition(options.condition);
  const date = options.documentDate ? new Date(options.documentDate) : null;
  const slug = options.marks && options.slug ? slugText(options.slug, condition.identifier, options.colorSpace, date ?? new Date(0)) : null;
  const margin = options.bleedMm + (options.marks ? MARK_GAP_MM + MARK_LENGTH_MM + 1 : 0);
  const { inside } = dieline.dimensions;
  const doc = new PDFDocument({
    autoFirstPage: false,
    margin: 0,
    pdfVersion: '1.6',
    info: {
      ...fixedInfo(
        `${dieline.styleName}, inside ${inside.widthMm} x ${inside.depthMm} x ${inside.heightMm} mm`,
        `Print file for template ${dieline.templateId}, ${condition.identifier}, ${options.colorSpace.toUpperCase()}`,
        'packaging-template-service print',
      ),
      ...(date ? { CreationDate: date, ModDate: date } : {}),
    },
  }) as SpotColorDocument;
  const done = sink(doc);
  try {
    await drawPages(doc, placement, options, imageCache, condition, margin, slug);
  } catch (error) {
    // The sink ends with this error (a file sink closes its file) before the caller sees it.
    doc.destroy(error as Error);
    await done.catch(() => undefined);
    throw error;
  }
  doc.end();
  return done;
}

async function drawPages(
  doc: SpotColorDocument,
  placement: Placement,
  options: PrintOptions,
  imageCache: ImageCacheSettings | null,
  condition: PrintCondition,
  margin: number,
  slug: string | null,
): Promise<void> {
  const { dieline } = placement;
  const rgb = options.colorSpace === 'rgb';
  const { srgb } = declarePdfX(doc, {
    condition,
    profile: await conditionProfile(condition),
    srgbProfile: rgb ? await srgbProfile() : null,
    documentId: documentId(placement, options),
  });
  installPressInks(doc, { grayRamp: rgb ? await conditionKRamp(condition) : null, overSpotPlates: options.white === 'underlay' });
  const imageTarget: ImageTarget = {
    colorSpace: options.colorSpace,
    cmykProfilePath: profileFsPath(condition),
    jpegQuality: options.jpegQuality ?? CMYK_JPEG_QUALITY,
    ...(imageCache ? { cache: openImageCache(imageCache) } : {}),
  };
  const svgTarget: SvgTarget = {
    colorSpace: options.colorSpace,
    condition,
    srgb,
    richBlack: options.richBlack ?? false,
    fonts: placement.fonts ?? [],
    images: imageTarget,
  };
  const assets = new AssetRegistry(doc, imageTarget, svgTarget, srgb, printedAssets(placement));
  assets.prefetch();
  const effects = platesIn(placement.pieces.flatMap((piece) => piece.images.flatMap((image) => (image.effect ? [image.effect] : []))));
  const white = options.white === 'underlay';
  // A tube laminate's or pouch's eye marks: solid K above the artwork, on their own layer.
  const marks = eyeMarks(placement.dieline);
  const layers = new PrintLayers(doc, [
    ...(white ? (['white'] as const) : []),
    'artwork',
    ...effects,
    ...(marks.length > 0 ? (['eyemark'] as const) : []),
    ...(options.dieline ? (['cut', 'crease'] as const) : []),
  ]);
  const inks = new Set<string>();
  doc.addSpotColor('All', 100, 100, 100, 100);
  if (white) doc.addSpotColor(WHITE_PLATE.spot, ...WHITE_PLATE.cmyk);
  for (const effect of effects) doc.addSpotColor(EFFECT_PLATES[effect].spot, ...EFFECT_PLATES[effect].cmyk);
  const paper = options.colorSpace === 'cmyk' ? [0, 0, 0, 0] : [255, 255, 255];
  const inksOverWhite = white ? doc.ref({ Type: 'ExtGState', OP: true, op: true, OPM: 0 }) : null;
  // @types/pdfkit declares a required chunk; pdfkit writes the object when given none.
  inksOverWhite?.end(undefined);

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
    if (options.dieline || white || effects.length > 0) useSpotInks(doc, options.dieline ? ['crease', 'cut'] : [], inks);
    if (inksOverWhite) doc.page.ext_gstates.GsInksOverWhite = inksOverWhite;
    doc.save();
    // Reverse printing: the page turned over about its vertical centre line, marks and all.
    if (options.mirror) doc.transform(-1, 0, 0, 1, pageWidth * POINTS_PER_MM, 0);
    doc.scale(POINTS_PER_MM);
    doc.translate(margin - trim.x, margin - trim.y);

    // Glue areas (when knocked out) and the room around eye marks stay free of every plate.
    const holes = [
      ...((options.glueAreas ?? 'knockout') === 'knockout' ? glueAreasOf(placement, trim) : []),
      ...marks.filter((mark) => onPiece(mark.points, trim)).map((mark) => grow(mark.points, EYE_MARK_CLEARANCE_MM)),
    ];
    const clipToPiece = () => {
      tracePolygon(doc, piece.bleed);
      // Even-odd: the holes inside the bleed outline are holes in the clip.
      for (const area of holes) tracePolygon(doc, area);
      doc.clip(holes.length > 0 ? 'even-odd' : 'non-zero');
    };
    /** On `layer`, clipped to the piece, in the graphics state `state` when given (a plate overprints). */
    const drawClipped = (layer: LayerKey, state: string | null, draw: () => void | Promise<void>) =>
      layers.on(layer, async () => {
        doc.save();
        clipToPiece();
        if (state) doc.addContent(`/${state} gs`);
        await draw();
        doc.restore();
      });
    /** Draws into the image's rectangle, centred on the origin of its turned frame. */
    const inImageFrame = async (image: PlacedImage, draw: (x: number, y: number, w: number, h: number) => Promise<void>) => {
      const a = (image.rotationDeg * Math.PI) / 180;
      doc.save();
      doc.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), image.center[0], image.center[1]);
      await draw(-image.width / 2, -image.height / 2, image.width, image.height);
      doc.restore();
    };

    if (white && piece.background) {
      // A background inks the whole piece: White everywhere in it, choked off the holes' edges by
      // stroking them at White 0 (a tint of 0 clears that plate and leaves every other as it is).
      await drawClipped('white', 'GsOverprint', () => {
        setSpot(doc, WHITE_PLATE.spot);
        const box = boundsOf(piece.bleed);
        doc.rect(box.x, box.y, box.width, box.height).fill();
        if (holes.length > 0) {
          setSpot(doc, WHITE_PLATE.spot, 0, true);
          doc.lineWidth(2 * WHITE_CHOKE_MM).lineJoin('miter');
          for (const hole of holes) tracePolygon(doc, hole);
          doc.stroke();
        }
      });
    } else if (white) {
      const inked = await inkedAreaMask(
        piece,
        (image) => !(image.effect && EFFECT_PLATES[image.effect].replacesInk),
        holes,
        WHITE_CHOKE_MM,
      );
      if (!isEmpty(inked)) {
        const stencil = stencilXObject(doc, inked);
        const name = `White${piece.piece.id.replace(/[^A-Za-z0-9]/g, '')}`;
        await drawClipped('white', 'GsOverprint', () => {
          setSpot(doc, WHITE_PLATE.spot);
          doc.page.xobjects[name] = stencil;
          const { window } = inked;
          drawImage(doc, name, window.x, window.y, window.width, window.height);
        });
      }
    }

    // Process inks overprint the White plate under them (OPM 0: among themselves they knock out as usual).
    await drawClipped('artwork', white ? 'GsInksOverWhite' : null, async () => {
      if (piece.background) {
        await drawBackground(doc, piece, piece.background, assets, options.colorSpace, condition, options.richBlack ?? false);
      }
      for (const image of piece.images) {
        const foil = image.effect !== undefined && EFFECT_PLATES[image.effect].replacesInk;
        await inImageFrame(image, (...box) => (foil ? assets.drawMask(image.asset, paper, ...box) : assets.draw(image.asset, ...box)));
      }
    });
    for (const effect of effects) {
      const images = piece.images.filter((image) => image.effect === effect);
      if (images.length === 0) continue;
      await drawClipped(effect, 'GsOverprint', async () => {
        for (const image of images) await inImageFrame(image, (...box) => assets.drawMask(image.asset, EFFECT_PLATES[effect].spot, ...box));
      });
    }
    if (marks.length > 0) {
      await layers.on('eyemark', () => {
        for (const mark of marks) tracePolygon(doc, mark.points);
        doc.fill((options.colorSpace === 'cmyk' ? [0, 0, 0, 100] : [0, 0, 0]) as never);
      });
    }

    if (options.dieline) {
      const paths = dieline.paths.filter(
        (path) => path.pieceId === piece.piece.id || (path.type === 'crease' && onPiece(path.points, trim)),
      );
      await layers.on('crease', () => strokeDielinePaths(doc, paths, ['crease']));
      await layers.on('cut', () => strokeDielinePaths(doc, paths, ['cut']));
    }
    if (options.marks) drawCropMarks(doc, trim, options.bleedMm);
    if (slug) drawSlug(doc, slug, trim, options.bleedMm + MARK_GAP_MM, options.colorSpace === 'cmyk' ? [0, 0, 0, 100] : [0, 0, 0]);
    doc.restore();
  }
}

/** A rectangle's outline grown by `by` on every side (eye marks are axis-aligned rectangles). */
function grow(points: readonly Point[], by: number): Point[] {
  const box = boundsOf(points);
  return rect(box.x - by, box.y - by, box.x + box.width + by, box.y + box.height + by);
}

/** Creases carry no pieceId: a crease belongs to the piece whose bounds hold its midpoint. */
function onPiece(points: readonly Point[], bounds: { x: number; y: number; width: number; height: number }): boolean {
  const [a, b] = [points[0]!, points[points.length - 1]!];
  const x = (a[0] + b[0]) / 2;
  const y = (a[1] + b[1]) / 2;
  return x >= bounds.x && x <= bounds.x + bounds.width && y >= bounds.y && y <= bounds.y + bounds.height;
}
