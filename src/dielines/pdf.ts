/**
 * Vector PDF rendering with pdfkit. The page is the blank plus bleed on each side; TrimBox is the
 * blank. Every line type is stroked in its own named Separation (spot) colour — `CutContour`,
 * `Crease`, `ReverseCrease`, `Perforation`, `HalfCut`, `VGroove`, `Glue`, `Bleed`, `SafeArea` —
 * with overprint on, so a RIP can drop or map them.
 * Fixed document dates make the bytes (and the trailer /ID derived from them) reproducible.
 * pdfkit is loaded on first use: it is the heaviest import of the service and only PDFs need it.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { formatNumber } from './format.js';
import { LINE_STYLES } from './svg.js';
import { DRAW_ORDER, type Dieline, type DielinePathType } from './types.js';

export const POINTS_PER_MM = 72 / 25.4;
const FIXED_DATE = new Date(Date.UTC(2000, 0, 1, 0, 0, 0));


/** pdfkit has `addSpotColor`, but @types/pdfkit does not declare it. */
export type SpotColorDocument = PDFKit.PDFDocument & {
  addSpotColor(name: string, c: number, m: number, y: number, k: number): PDFKit.PDFDocument;
};

const loadPdfKit = () => import('pdfkit');
let pdfkit: ReturnType<typeof loadPdfKit> | undefined;

/** pdfkit's document class, imported on first use. */
export async function pdfDocumentClass(): Promise<Awaited<ReturnType<typeof loadPdfKit>>['default']> {
  return (await (pdfkit ??= loadPdfKit())).default;
}

/** Document info with fixed dates: the bytes (and the trailer /ID) depend only on the content. */
export function fixedInfo(title: string, subject: string, creator: string): PDFKit.DocumentInfo {
  return { Title: title, Subject: subject, Creator: creator, Producer: 'PDFKit', CreationDate: FIXED_DATE, ModDate: FIXED_DATE };
}

/** Collects the document's bytes; call before drawing. */
export function collectPdf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/** Streams the document into `file` (created, or replaced); resolves with its size once it is all written and closed. */
export async function writePdf(doc: PDFKit.PDFDocument, file: string): Promise<number> {
  const target = createWriteStream(file);
  await pipeline(doc, target);
  return target.bytesWritten;
}

/** Registers the spot colours of `types` and an overprint graphics state named GsOverprint on the current page. */
export function useSpotInks(doc: SpotColorDocument, types: readonly DielinePathType[], registered: Set<string>): void {
  for (const type of types) {
    const { ink, cmyk } = LINE_STYLES[type];
    if (registered.has(ink)) continue;
    doc.addSpotColor(ink, ...cmyk);
    registered.add(ink);
  }
  const overprint = doc.ref({ Type: 'ExtGState', OP: true, op: true, OPM: 1 });
  // @types/pdfkit declares a required chunk; pdfkit writes the object when given none.
  overprint.end(undefined);
  doc.page.ext_gstates.GsOverprint = overprint;
}

/** Strokes the paths of `types` (in that order) in their spot inks, overprinting; user space in mm. */
export function strokeDielinePaths(doc: SpotColorDocument, paths: Dieline['paths'], types: readonly DielinePathType[]): void {
  doc.save();
  doc.addContent('/GsOverprint gs');
  doc.lineJoin('round');
  for (const type of types) {
    const selected = paths.filter((path) => path.type === type);
    if (selected.length === 0) continue;
    const style = LINE_STYLES[type];
    const [dash, space] = (style.dash ?? '').split(' ').map(Number);
    doc.lineWidth(style.widthMm);
    if (dash) doc.dash(dash, { space: space! });
    else doc.undash();
    doc.strokeColor(style.ink);
    for (const path of selected) {
      path.points.forEach(([x, y], index) => {
        if (index === 0) doc.moveTo(x, y);
        else doc.lineTo(x, y);
      });
      if (path.closed) doc.closePath();
    }
    doc.stroke();
  }
  doc.restore();
}

export async function renderDielinePdf(dieline: Dieline): Promise<Buffer> {
  const PDFDocument = await pdfDocumentClass();
  const { artboard, blank } = dieline;
  const { inside } = dieline.dimensions;
  const title = `${dieline.styleName}, inside ${formatNumber(inside.widthMm)} ` +
    `x ${formatNumber(inside.depthMm)} x ${formatNumber(inside.heightMm)} mm`;
  const doc = new PDFDocument({
    size: [artboard.width * POINTS_PER_MM, artboard.height * POINTS_PER_MM],
    margin: 0,
    pdfVersion: '1.4',
    info: fixedInfo(title, `Dieline for template ${dieline.templateId}`, 'packaging-template-service dielines'),
  }) as SpotColorDocument;
  const done = collectPdf(doc);

  const bleedPt = -artboard.x * POINTS_PER_MM;
  Object.assign(doc.page.dictionary.data, {
    TrimBox: [bleedPt, bleedPt, bleedPt + blank.width * POINTS_PER_MM, bleedPt + blank.height * POINTS_PER_MM],
    BleedBox: [0, 0, artboard.width * POINTS_PER_MM, artboard.height * POINTS_PER_MM],
  });
  useSpotInks(doc, DRAW_ORDER, new Set());
  doc.save();
  doc.scale(POINTS_PER_MM);
  doc.translate(-artboard.x, -artboard.y);
  strokeDielinePaths(doc, dieline.paths, DRAW_ORDER);
  doc.restore();
  doc.end();
  return done;
}
