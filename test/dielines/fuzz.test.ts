import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIELINE_STYLES, dielineTemplateInfo, DielineSizeError, generateDieline } from '../../src/dielines/index.js';
import { expectBleedAndSafe, expectPanelsTileTheBoard, expectValidGeometry } from './helpers.js';

/** Random sizes inside each template's advertised bounds: either a valid dieline or a size error. */
describe('random sizes within the limits', () => {
  for (const templateId of Object.keys(DIELINE_STYLES)) {
    it(`${templateId} builds valid geometry or names the dimension that is out of range`, () => {
      const { limits } = dielineTemplateInfo(templateId);
      const between = (range: { min: number; max: number }) =>
        fc.double({ min: range.min, max: range.max, noNaN: true }).map((v) => Math.round(v * 100) / 100);
      fc.assert(
        fc.property(
          between(limits.widthMm),
          between(limits.depthMm),
          between(limits.heightMm),
          between(limits.thicknessMm),
          fc.constantFrom(0, 3, 5),
          (widthMm, depthMm, heightMm, thicknessMm, bleedMm) => {
            let d;
            try {
              d = generateDieline(templateId, { widthMm, depthMm, heightMm }, { thicknessMm, bleedMm });
            } catch (error) {
              expect(error).toBeInstanceOf(DielineSizeError);
              expect(['widthMm', 'depthMm', 'heightMm']).toContain((error as DielineSizeError).dimension);
              return;
            }
            expectValidGeometry(d);
            expectPanelsTileTheBoard(d);
            expectBleedAndSafe(d);
          },
        ),
        { numRuns: 40, seed: 20261122 },
      );
    });
  }
});
