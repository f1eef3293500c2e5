/**
 * The print-ready PDF: one page per piece. TrimBox = the piece's blank, BleedBox = trim + bleed,
 * MediaBox = bleed box plus room for crop marks. On each page, clipped to the piece's bleed
 * outline: the background, then the artworks in order, each image embedded once at its stored
 * resolution. Above them, optionally, the cut and crease lines as the overprinting spot colours
 * `CutContour` and `Crease`, and crop marks (registration colour `All`) outside the bleed.
 * `cmyk`: images and background go through libvips' CMYK profile and an OutputIntent declares it.
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
import { gradientLine } from './background.js';
import { eyeMarks } from './containers.js';
import { cmykIccProfile, pdfImage, rgbToCmyk, type PdfImageData, type PrintColorSpace } from './images.js';
import type { BackgroundPaint, PieceLayers, Placement, ResolvedAsset, Rgb } from './types.js';

export interface PrintOptions {
  bleedMm: number;
  marks: boolean;
  dieline: boolean;
  colorSpace: PrintColorSpace;
}

/** Crop marks start this far outside the bleed and are this long. */
export const MARK_GAP_MM = 2;
export const MARK_LENGTH_MM = 5;
const MARK_WIDTH_MM = 0.1;

type Color = string | number[];

/** Image XObjects of the document, one per asset, embedded on first use. */
class ImageRegistry {
  private readonly refs = new Map<string, { name: string; ref: PDFKit.PDFKitReference }>();
  constructor(
    private readonly doc: SpotColorDocument,
    private readonly colorSpace: PrintColorSpace,
  ) {}

  async use(asset: ResolvedAsset): Promise<string> {
    let entry = this.refs.get(asset.name);
    if (!entry) {
      const image = await pdfImage(asset, await asset.load(), this.colorSpace);
      entry = { name: `Im${this.refs.size + 1}`, ref: this.embed(image) };
      this.refs.set(asset.name, entry);
    }
    this.doc.page.xobjects[entry.name] = entry.ref;
    return entry.name;
  }

  private embed(image: PdfImageData): PDFKit.PDFKitReference {
    const dictionary: Record<string, unknown> = {
      Type: 'XObject',
      Subtype: 'Image',
      Width: image.width,
      Height: image.height,
      BitsPerComponent: 8,
      ColorSpace: image.colorSpace,
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

async function paint(color: Rgb, colorSpace: PrintColorSpace): Promise<Color> {
  if (colorSpace === 'cmyk') return rgbToCmyk(color);
  return [...color];
}

async function drawBackground(
  doc: SpotColorDocument,
  layers: PieceLayers,
  background: BackgroundPaint,
  images: ImageRegistry,
  colorSpace: PrintColorSpace,
): Promise<void> {
  const box = boundsOf(layers.bleed);
  if (background.kind === 'color') {
    doc.rect(box.x, box.y, box.width, box.height).fill(await paint(background.color, colorSpace) as never);
    return;
  }
  if (background.kind === 'gradient') {
    const [[x1, y1], [x2, y2]] = gradientLine(background.angleDeg, box);
    const gradient = doc.linearGradient(x1, y1, x2, y2);
    for (const stop of background.stops) gradient.stop(stop.offset, (await paint(stop.color, colorSpace)) as never);
    doc.rect(box.x, box.y, box.width, box.height).fill(gradient);
    return;
  }
  // CSS `cover`: scaled to cover the bleed box, centred.
  const { asset } = background;
  const k = Math.max(box.width / asset.widthPx, box.height / asset.heightPx);
  const w = asset.widthPx * k;
  const h = asset.heightPx * k;
  const name = await images.use(asset);
  drawImage(doc, name, box.x + (box.width - w) / 2, box.y + (box.height - h) / 2, w, h);
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

async function writeOutputIntent(doc: SpotColorDocument): Promise<void> {
  const icc = await cmykIccProfile();
  const profile = doc.ref({ N: 4, Alternate: 'DeviceCMYK' });
  profile.end(icc);
  const intent = doc.ref({
    Type: 'OutputIntent',
    S: 'GTS_PDFX',
    OutputConditionIdentifier: new String('Custom'),
    Info: new String('CMYK profile built into libvips'),
    DestOutputProfile: profile,
  });
  intent.end(undefined);
  // pdfkit exposes the catalog as _root; OutputIntents has no API of its own.
  (doc as unknown as { _root: { data: Record<string, unknown> } })._root.data.OutputIntents = [intent];
}

export async function renderPrintPdf(placement: Placement, options: PrintOptions): Promise<Buffer> {
  const PDFDocument = await pdfDocumentClass();
  const { dieline } = placement;
  const margin = options.bleedMm + (options.marks ? MARK_GAP_MM + MARK_LENGTH_MM + 1 : 0);
  const { inside } = dieline.dimensions;
  const doc = new PDFDocument({
    autoFirstPage: false,
    margin: 0,
    pdfVersion: '1.4',
    info: fixedInfo(
      `${dieline.styleName}, inside ${inside.widthMm} x ${inside.depthMm} x ${inside.heightMm} mm`,
      `Print file for template ${dieline.templateId}`,
      'packaging-template-service print',
    ),
  }) as SpotColorDocument;
  const done = collectPdf(doc);
  const images = new ImageRegistry(doc, options.colorSpace);
  const inks = new Set<string>();
  if (options.colorSpace === 'cmyk') await writeOutputIntent(doc);
  doc.addSpotColor('All', 100, 100, 100, 100);

  for (const layers of placement.pieces) {
    const trim = layers.piece.bounds;
    const pageWidth = trim.width + 2 * margin;
    const pageHeight = trim.height + 2 * margin;
    doc.addPage({ size: [pageWidth * POINTS_PER_MM, pageHeight * POINTS_PER_MM], margin: 0 });
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

    doc.save();
    tracePolygon(doc, layers.bleed);
    doc.clip();
    if (layers.background) await drawBackground(doc, layers, layers.background, images, options.colorSpace);
    for (const image of layers.images) {
      const name = await images.use(image.asset);
      const a = (image.rotationDeg * Math.PI) / 180;
      doc.save();
      doc.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), image.center[0], image.center[1]);
      drawImage(doc, name, -image.width / 2, -image.height / 2, image.width, image.height);
      doc.restore();
    }
    for (const mark of eyeMarks(dieline)) {
      tracePolygon(doc, mark.points);
      doc.fill((options.colorSpace === 'cmyk' ? [0, 0, 0, 100] : [0, 0, 0]) as never);
    }
    doc.restore();

    if (options.dieline) {
      const paths = dieline.paths.filter((path) => path.pieceId === layers.piece.id || (path.type === 'crease' && onPiece(path.points, trim)));
      strokeDielinePaths(doc, paths, ['crease', 'cut']);
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
