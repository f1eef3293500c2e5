import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/catalog/data.js';
import { generateDieline, renderDielinePdf } from '../../src/dielines/index.js';

const PT_PER_MM = 72 / 25.4;

for (const template of TEMPLATES.filter((entry) => entry.dielineAvailable)) {
  describe(`PDF of ${template.id}`, () => {
    const d = generateDieline(template.id, template.defaultDimensions, { bleedMm: 3 });

    it('loads with pdf-lib and has one page of blank plus bleed', async () => {
      const bytes = await renderDielinePdf(d);
      expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
      const pdf = await PDFDocument.load(bytes);
      expect(pdf.getPageCount()).toBe(1);
      const page = pdf.getPage(0);
      const { width, height } = page.getSize();
      expect(width).toBeCloseTo((d.blank.width + 6) * PT_PER_MM, 3);
      expect(height).toBeCloseTo((d.blank.height + 6) * PT_PER_MM, 3);
      const trim = page.getTrimBox();
      expect(trim.x).toBeCloseTo(3 * PT_PER_MM, 3);
      expect(trim.width).toBeCloseTo(d.blank.width * PT_PER_MM, 3);
      expect(trim.height).toBeCloseTo(d.blank.height * PT_PER_MM, 3);
    });

    it('strokes cut and crease in CutContour and Crease separations with overprint', async () => {
      const text = (await renderDielinePdf(d)).toString('latin1');
      expect(text).toMatch(/\[\/Separation \/CutContour \/DeviceCMYK/);
      expect(text).toMatch(/\[\/Separation \/Crease \/DeviceCMYK/);
      expect(text).toMatch(/\/Type \/ExtGState\s+\/OP true\s+\/op true/);
      expect(text).toMatch(/\/ExtGState <<\s+\/GsOverprint \d+ 0 R/);
    });

    it('is byte-identical across renders', async () => {
      const first = await renderDielinePdf(d);
      const second = await renderDielinePdf(generateDieline(template.id, template.defaultDimensions, { bleedMm: 3 }));
      expect(second.equals(first)).toBe(true);
    });
  });
}
