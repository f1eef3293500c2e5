/**
 * The slug: one line of job information below each page's bottom crop marks, outside the bleed —
 * project name, version, printing condition, colour space and the version's date — in K alone, set
 * in DejaVu Sans (embedded as a subset, as PDF/X requires). The slug's date is the one the file's
 * Info and XMP carry.
 */
import { createRequire } from 'node:module';

/** Plain data: travels to the render child with the print options. */
export interface SlugInfo {
  projectName: string;
  version: number;
}

const FONT_FILE = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const POINT_MM = 25.4 / 72;
const SIZE_PT = 6;
const MIN_SIZE_PT = 3;
/** Left of the slug: clear of the bottom-left crop mark. */
const INDENT_MM = 1;

export function slugText(info: SlugInfo, condition: string, colorSpace: 'rgb' | 'cmyk', date: Date): string {
  const when = `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `${info.projectName} · version ${info.version} · ${condition} · ${colorSpace.toUpperCase()} · ${when}`;
}

/**
 * Writes `text` on the current page, user space in mm, with its top `topMm` below the trim's bottom
 * edge, starting at the trim's left edge and no wider than the trim (the size shrinks to fit, down to
 * MIN_SIZE_PT; longer text is cut).
 */
export function drawSlug(
  doc: PDFKit.PDFDocument,
  text: string,
  trim: { x: number; y: number; width: number; height: number },
  topMm: number,
  ink: number[],
): void {
  doc.save();
  doc.font(FONT_FILE);
  let size = SIZE_PT * POINT_MM;
  const room = Math.max(1, trim.width - 2 * INDENT_MM);
  doc.fontSize(size);
  const width = doc.widthOfString(text);
  if (width > room) {
    size = Math.max(MIN_SIZE_PT * POINT_MM, (size * room) / width);
    doc.fontSize(size);
  }
  doc.fillColor(ink as never);
  doc.text(text, trim.x + INDENT_MM, trim.y + trim.height + topMm, { lineBreak: false, width: room, height: size * 1.5, ellipsis: true });
  doc.restore();
}
