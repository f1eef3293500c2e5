import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/catalog/data.js';
import {
  DEFAULT_BLEED_MM,
  defaultThicknessMm,
  DIELINE_STYLES,
  dielineTemplateInfo,
  DielineError,
  DielineSizeError,
  DielineUnsupportedError,
  generateDieline,
  isDielineTemplate,
  type BoxDimensions,
  type DielineParameter,
} from '../../src/dielines/index.js';

const dielineTemplates = TEMPLATES.filter((template) => template.dielineAvailable);
const containerTemplates = TEMPLATES.filter((template) => !template.dielineAvailable);

function sizeError(run: () => unknown): DielineSizeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DielineSizeError);
    expect(error).toBeInstanceOf(DielineError);
    expect(error).toBeInstanceOf(Error);
    return error as DielineSizeError;
  }
  throw new Error('expected a DielineSizeError');
}

describe('templates without a dieline', () => {
  it('covers the container templates of the catalog', () => {
    expect(containerTemplates.map((t) => t.id).sort()).toEqual(
      ['beverage-can', 'cosmetic-jar', 'round-bottle', 'squeeze-tube', 'stand-up-pouch'].sort(),
    );
  });

  for (const template of containerTemplates) {
    it(`${template.id} throws DielineUnsupportedError`, () => {
      expect(isDielineTemplate(template.id)).toBe(false);
      expect(() => generateDieline(template.id, template.defaultDimensions)).toThrow(DielineUnsupportedError);
      expect(() => defaultThicknessMm(template.id)).toThrow(DielineUnsupportedError);
      expect(() => dielineTemplateInfo(template.id)).toThrow(DielineUnsupportedError);
    });
  }

  it('treats unknown ids, including object prototype keys, as unsupported', () => {
    for (const id of ['nope', '', '__proto__', 'constructor', 'toString']) {
      const error = (() => {
        try {
          generateDieline(id, { widthMm: 100, heightMm: 100, depthMm: 100 });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(DielineUnsupportedError);
      expect((error as DielineUnsupportedError).templateId).toBe(id);
      expect(error).not.toHaveProperty('statusCode');
    }
  });
});

describe('size limits', () => {
  for (const template of dielineTemplates) {
    const info = dielineTemplateInfo(template.id);
    const base = template.defaultDimensions;

    describe(template.id, () => {
      for (const dimension of ['widthMm', 'heightMm', 'depthMm'] as const) {
        it(`rejects ${dimension} below ${info.limits[dimension].min} mm and above ${info.limits[dimension].max} mm`, () => {
          const small: BoxDimensions = { ...base, [dimension]: info.limits[dimension].min - 0.5 };
          const tooSmall = sizeError(() => generateDieline(template.id, small));
          expect(tooSmall.dimension).toBe(dimension);
          expect(tooSmall.bound).toBe('min');
          expect(tooSmall.limitMm).toBe(info.limits[dimension].min);
          expect(tooSmall.message).toMatch(
            new RegExp(`^${dimension} .* is too small for .*: the minimum is ${info.limits[dimension].min} mm\\.$`),
          );

          const large: BoxDimensions = { ...base, [dimension]: info.limits[dimension].max + 1 };
          const tooLarge = sizeError(() => generateDieline(template.id, large));
          expect(tooLarge.dimension).toBe(dimension);
          expect(tooLarge.bound).toBe('max');
          expect(tooLarge.message).toContain('too large');
        });

        it(`rejects a non-numeric or non-positive ${dimension}`, () => {
          for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 0, -10]) {
            const error = sizeError(() => generateDieline(template.id, { ...base, [dimension]: value }));
            expect(error.dimension).toBe(dimension);
            expect(error.bound).toBe('invalid');
          }
        });
      }

      it('rejects a board outside the thickness range', () => {
        const { min, max } = info.limits.thicknessMm;
        for (const [value, bound] of [
          [min / 2, 'min'],
          [max + 1, 'max'],
          [Number.NaN, 'invalid'],
          [0, 'invalid'],
        ] as const) {
          const error = sizeError(() => generateDieline(template.id, base, { thicknessMm: value }));
          expect(error.dimension).toBe<DielineParameter>('thicknessMm');
          expect(error.bound).toBe(bound);
        }
      });

      it('rejects a negative or oversized bleed, accepts none', () => {
        for (const bleedMm of [-1, 25, Number.NaN]) {
          expect(sizeError(() => generateDieline(template.id, base, { bleedMm })).dimension).toBe('bleedMm');
        }
        expect(generateDieline(template.id, base, { bleedMm: 0 }).artboard.x).toBe(0);
      });

      it('builds at the smallest and largest sizes it advertises', () => {
        const { widthMm, heightMm, depthMm, thicknessMm } = info.limits;
        const smallest = { widthMm: widthMm.min, heightMm: heightMm.min, depthMm: depthMm.min };
        const largest = { widthMm: widthMm.max, heightMm: heightMm.max, depthMm: depthMm.max };
        for (const dims of [smallest, largest]) {
          expect(() => generateDieline(template.id, dims, { thicknessMm: thicknessMm.min })).not.toThrow();
          expect(() => generateDieline(template.id, dims, { thicknessMm: thicknessMm.max })).not.toThrow();
        }
      });
    });
  }

  it('rejects a tuck-end carton too low for its tuck flap, naming heightMm', () => {
    for (const id of ['reverse-tuck-carton', 'straight-tuck-box']) {
      const error = sizeError(() => generateDieline(id, { widthMm: 100, depthMm: 100, heightMm: 25 }, { thicknessMm: 0.4 }));
      expect(error.dimension).toBe('heightMm');
      expect(error.message).toBe(
        'heightMm 25 mm is too small for ' +
          (id === 'reverse-tuck-carton' ? 'a reverse tuck-end carton' : 'a straight tuck-end carton') +
          ': the 25 mm tuck flap needs at least 31.8 mm of wall.',
      );
      expect(error.limitMm).toBe(31.8);
      expect(() => generateDieline(id, { widthMm: 100, depthMm: 100, heightMm: 31.8 }, { thicknessMm: 0.4 })).not.toThrow();
    }
  });

  it('rejects an auto-bottom carton whose lock flaps would not fit inside the flattened tube', () => {
    const error = sizeError(() => generateDieline('auto-bottom-box', { widthMm: 400, depthMm: 400, heightMm: 100 }));
    expect(error.dimension).toBe('heightMm');
    expect(error.message).toContain('bottom lock flaps');
    expect(error.limitMm).toBeGreaterThan(200);
    expect(() => generateDieline('auto-bottom-box', { widthMm: 400, depthMm: 400, heightMm: error.limitMm! })).not.toThrow();
  });
});

describe('defaults', () => {
  it('chooses a board per template and material', () => {
    expect(defaultThicknessMm('mailer-box')).toBe(1.5);
    expect(defaultThicknessMm('mailer-box', 'kraft')).toBe(1.5);
    expect(defaultThicknessMm('rsc-box')).toBe(3);
    expect(defaultThicknessMm('rsc-box', 'corrugated')).toBe(3);
    expect(defaultThicknessMm('reverse-tuck-carton')).toBe(0.4);
    expect(defaultThicknessMm('reverse-tuck-carton', 'kraft')).toBe(0.45);
    expect(defaultThicknessMm('straight-tuck-box', 'cardboard')).toBe(0.4);
    expect(defaultThicknessMm('auto-bottom-box', 'kraft')).toBe(0.45);
    expect(defaultThicknessMm('rigid-lid-box')).toBe(2);
    expect(defaultThicknessMm('rigid-lid-box', 'kraft')).toBe(2);
    // Materials that make no sense for the template fall back to its default board.
    expect(defaultThicknessMm('rsc-box', 'glass')).toBe(3);
    expect(defaultThicknessMm('mailer-box', 'toString')).toBe(1.5);
  });

  it('uses the default thickness and a 3 mm bleed when options are omitted', () => {
    for (const template of dielineTemplates) {
      const d = generateDieline(template.id, template.defaultDimensions);
      expect(d.thicknessMm).toBe(defaultThicknessMm(template.id));
      expect(d.bleedMm).toBe(DEFAULT_BLEED_MM);
      const kraft = generateDieline(template.id, template.defaultDimensions, { material: 'kraft' });
      expect(kraft.thicknessMm).toBe(defaultThicknessMm(template.id, 'kraft'));
    }
  });

  it('describes every template: style, limits containing the catalog default, defaults', () => {
    for (const template of dielineTemplates) {
      const info = dielineTemplateInfo(template.id);
      expect(info.style).toBe(DIELINE_STYLES[template.id]);
      for (const dimension of ['widthMm', 'heightMm', 'depthMm'] as const) {
        expect(template.defaultDimensions[dimension]).toBeGreaterThanOrEqual(info.limits[dimension].min);
        expect(template.defaultDimensions[dimension]).toBeLessThanOrEqual(info.limits[dimension].max);
      }
      expect(info.defaultThicknessMm).toBeGreaterThanOrEqual(info.limits.thicknessMm.min);
      expect(info.defaultThicknessMm).toBeLessThanOrEqual(info.limits.thicknessMm.max);
      // A copy: callers cannot change the real limits.
      info.limits.widthMm.min = -1;
      expect(dielineTemplateInfo(template.id).limits.widthMm.min).toBeGreaterThan(0);
    }
  });
});
