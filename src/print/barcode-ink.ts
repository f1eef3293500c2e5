/**
 * A barcode asset in a print file: its filled outlines drawn as vector paths in one ink, K alone
 * in cmyk files and DeviceGray in rgb files, whatever the design's colours or background, and
 * overprinting (OP/op true, OPM 1) like black text, so a misregistered plate can never open a gap
 * beside a bar. Never an image, never through the SVG colour conversion: a scanner reads the bars
 * of one plate, sharp-edged.
 */
import type { PrintColorSpace } from './images.js';
import { kept } from './memo.js';

/** The asset's own geometry: its viewBox and the `d` of each filled path (barcodes/symbol.ts writes nothing else). */
export interface BarcodeOutline {
  viewBox: [number, number, number, number];
  paths: string[];
}

export function readBarcodeOutline(svg: string): BarcodeOutline {
  const root = /<svg\b[^>]*\bviewBox="([^"]+)"/.exec(svg);
  const viewBox = root?.[1]!.trim().split(/[\s,]+/).map(Number);
  if (!viewBox || viewBox.length !== 4 || !viewBox.every(Number.isFinite) || viewBox[2]! <= 0 || viewBox[3]! <= 0) {
    throw new Error('A barcode asset has no usable viewBox.');
  }
  const paths = [...svg.matchAll(/<path\b[^>]*\sd="([^"]*)"/g)].map((match) => match[1]!);
  return { viewBox: viewBox as BarcodeOutline['viewBox'], paths };
}

/** The overprinting graphics state of a document, made once. */
const overprintStates = new WeakMap<PDFKit.PDFDocument, PDFKit.PDFKitReference>();
export const BARCODE_GRAPHICS_STATE = 'GsBarcode';

function overprint(doc: PDFKit.PDFDocument): void {
  doc.page.ext_gstates[BARCODE_GRAPHICS_STATE] = kept(overprintStates, doc, () => {
    const state = doc.ref({ Type: 'ExtGState', OP: true, op: true, OPM: 1 });
    // @types/pdfkit declares a required chunk; pdfkit writes the object when given none.
    state.end(undefined);
    return state;
  });
}

/** Full ink of the one plate: `k` sets DeviceCMYK, `g` DeviceGray (0 = black). */
const SOLID: Record<PrintColorSpace, string> = { cmyk: '0 0 0 1 k', rgb: '0 g' };

/** Draws the symbol into the rectangle (x, y, w, h) of the current y-down user space. */
export function drawBarcode(
  doc: PDFKit.PDFDocument,
  outline: BarcodeOutline,
  x: number,
  y: number,
  w: number,
  h: number,
  colorSpace: PrintColorSpace,
): void {
  const [vx, vy, vw, vh] = outline.viewBox;
  overprint(doc);
  doc.save();
  doc.translate(x, y);
  doc.scale(w / vw, h / vh);
  doc.translate(-vx, -vy);
  doc.addContent(`/${BARCODE_GRAPHICS_STATE} gs ${SOLID[colorSpace]}`);
  // Each path on its own and even-odd, as the SVG fills them: 2D modules have holes, glyphs their counters.
  for (const d of outline.paths) {
    doc.path(d);
    doc.addContent('f*');
  }
  doc.restore();
}
