/**
 * The press sheet of a layout as a vector PDF: the page is the sheet, and every copy's cut and
 * crease lines are stroked in the overprinting `CutContour` and `Crease` spot colours, as the
 * dieline PDF draws them, so a RIP or a cutting table separates the die from the sheet.
 */
import type { SheetLayout } from './layout.js';
import { collectPdf, fixedInfo, pdfDocumentClass, POINTS_PER_MM, strokeDielinePaths, useSpotInks, type SpotColorDocument } from './pdf.js';
import { DIE_LINE_TYPES, DRAW_ORDER, type Dieline } from './types.js';

const DIE_TYPES = DRAW_ORDER.filter((type) => DIE_LINE_TYPES.includes(type));

/** pdfkit's transform matrix turning the blank clockwise (y down) onto its copy's bounding box. */
function copyMatrix(dieline: Dieline, copy: SheetLayout['copies'][number]): [number, number, number, number, number, number] {
  const { width: w, height: h } = dieline.blank;
  switch (copy.rotationDeg) {
    case 0:
      return [1, 0, 0, 1, copy.x, copy.y];
    case 90:
      return [0, 1, -1, 0, copy.x + h, copy.y];
    case 180:
      return [-1, 0, 0, -1, copy.x + w, copy.y + h];
    case 270:
      return [0, -1, 1, 0, copy.x, copy.y + w];
  }
}

export async function renderSheetPdf(dieline: Dieline, layout: SheetLayout): Promise<Buffer> {
  const PDFDocument = await pdfDocumentClass();
  const { widthMm, heightMm } = layout.sheet;
  const doc = new PDFDocument({
    size: [widthMm * POINTS_PER_MM, heightMm * POINTS_PER_MM],
    margin: 0,
    pdfVersion: '1.4',
    info: fixedInfo(
      `${dieline.styleName}, ${layout.count} up on ${widthMm} x ${heightMm} mm`,
      `Press sheet for template ${dieline.templateId}`,
      'packaging-template-service sheet layout',
    ),
  }) as SpotColorDocument;
  const done = collectPdf(doc);
  const paths = dieline.paths.filter((path) => DIE_TYPES.includes(path.type));
  useSpotInks(doc, DIE_TYPES, new Set());
  doc.save();
  doc.scale(POINTS_PER_MM);
  for (const copy of layout.copies) {
    doc.save();
    doc.transform(...copyMatrix(dieline, copy));
    strokeDielinePaths(doc, paths, DIE_TYPES);
    doc.restore();
  }
  doc.restore();
  doc.end();
  return done;
}
