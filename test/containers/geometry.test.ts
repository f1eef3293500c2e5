// The containers' print layouts measured against the construction each follows: label width
// against C + overlap, sleeve film against 2 × layflat + seam, tube laminate against C + seam, the
// pouch's front, gusset and back frames against W × H, W × G and W × H, at the catalog size and two others.
import { describe, expect, it } from 'vitest';
import { generateContainerLayout, type ContainerOptions } from '../../src/dielines/containers/index.js';
import { boundsOf, isSimplePolygon, pointInPolygon } from '../../src/dielines/geometry.js';
import type { Dieline, DielinePath } from '../../src/dielines/index.js';
import { LATHE_LABELS, tubeBody } from '../../src/dielines/containers/figures.js';

const dims = (widthMm: number, heightMm: number, depthMm = widthMm) => ({ widthMm, heightMm, depthMm });
const frame = (d: Dieline, id: string) => d.panels.find((panel) => panel.id === id)!.frame;
const paths = (d: Dieline, type: DielinePath['type']) => d.paths.filter((path) => path.type === type);
const zones = (d: Dieline, zone: string) => d.paths.filter((path) => path.type === 'zone' && path.zone === zone);
const cut = (d: Dieline) => paths(d, 'cut')[0]!;

describe('wrap-around label', () => {
  const sizes = [
    ['round-bottle', 'bottle', dims(70, 230)],
    ['round-bottle', 'bottle', dims(45, 150)],
    ['cosmetic-jar', 'jar', dims(80, 60)],
    ['cosmetic-jar', 'jar', dims(120, 90)],
  ] as const;
  it.each(sizes.flatMap(([id, kind, d]) => [0, 6, 25].map((overlapMm) => [id, kind, d, overlapMm] as const)))(
    '%s %s %j overlap %d: width C + overlap, the model band height, 2 mm corners, ends meeting at the back',
    (id, kind, d, overlapMm) => {
      const options: ContainerOptions = overlapMm === 6 ? {} : { overlapMm };
      const { dieline, wrapWidth } = generateContainerLayout(id, kind, d, options);
      const c = Math.PI * d.widthMm;
      expect(Math.abs(dieline.blank.width - (c + overlapMm))).toBeLessThan(1.5);
      const band = LATHE_LABELS[kind](d);
      expect(dieline.blank.height).toBeCloseTo(band.top - band.bottom, 2);
      expect(wrapWidth).toBeCloseTo(c, 2);
      // The die-cut outline: simple, as large as the label, corners rounded at 2 mm.
      const outline = cut(dieline);
      expect(isSimplePolygon(outline.points)).toBe(true);
      const box = boundsOf(outline.points);
      expect(box.width).toBeCloseTo(dieline.blank.width, 2);
      expect(pointInPolygon([0.3, 0.3], outline.points)).toBe(false);
      expect(pointInPolygon([2, 2], outline.points)).toBe(true);
      // The front is centred half a turn from the back centre (x = 0), the back on the seam.
      expect(frame(dieline, 'front').center[0]).toBeCloseTo(c / 2, 2);
      expect(frame(dieline, 'back').center[0]).toBeCloseTo(c, 2);
      expect(frame(dieline, 'label').width).toBeCloseTo(c, 2);
      const overlap = zones(dieline, 'overlap');
      expect(overlap).toHaveLength(overlapMm > 0 ? 1 : 0);
      if (overlapMm > 0) expect(boundsOf(overlap[0]!.points).width).toBeCloseTo(overlapMm, 2);
      // 3 mm bleed around the outline.
      expect(boundsOf(paths(dieline, 'bleed')[0]!.points).width).toBeCloseTo(dieline.blank.width + 6, 2);
      expect(paths(dieline, 'safe')).toHaveLength(1);
    },
  );
});

describe('shrink sleeve', () => {
  it.each([
    ['round-bottle', 'bottle', dims(70, 230), {}],
    ['round-bottle', 'bottle', dims(90, 300), { fitMm: 0, seamMm: 5 }],
    ['cosmetic-jar', 'jar', dims(80, 60), { fitMm: 10, seamMm: 12 }],
  ] as const)('%s %s %j %j: film 2 × layflat + seam, layflat C/2 … C/2 + 10', (id, kind, d, extra) => {
    const { dieline } = generateContainerLayout(id, kind, d, { labelStyle: 'sleeve', ...extra });
    const c = Math.PI * d.widthMm;
    const { layflatMm, seamMm, fitMm } = dieline.parameters as Record<string, number>;
    expect(seamMm).toBe('seamMm' in extra ? extra.seamMm : 7);
    expect(fitMm).toBe('fitMm' in extra ? extra.fitMm : 3);
    expect(layflatMm).toBeGreaterThanOrEqual(c / 2 - 0.001);
    expect(layflatMm).toBeLessThanOrEqual(c / 2 + 10 + 0.001);
    expect(Math.abs(dieline.blank.width - (2 * layflatMm! + seamMm!))).toBeLessThan(1);
    // The seam strip is marked as a seal and left unprinted: the bleed stops at it and 2 mm from top and bottom.
    const seam = zones(dieline, 'seal');
    expect(seam).toHaveLength(1);
    expect(boundsOf(seam[0]!.points).width).toBeCloseTo(seamMm!, 2);
    const bleed = boundsOf(paths(dieline, 'bleed')[0]!.points);
    expect(bleed.x + bleed.width).toBeCloseTo(2 * layflatMm!, 2);
    expect(bleed.y).toBeCloseTo(2, 2);
    expect(bleed.y + bleed.height).toBeCloseTo(dieline.blank.height - 2, 2);
    expect(zones(dieline, 'unprinted')).toHaveLength(2);
    expect(zones(dieline, 'shrink').length).toBeGreaterThanOrEqual(1);
  });
});

describe('can band', () => {
  it.each([dims(66, 115), dims(53, 168), dims(83, 150)])('%j: C + 3 mm overlap, neck and base zones, no CutContour', (d) => {
    const { dieline } = generateContainerLayout('beverage-can', 'can', d);
    expect(Math.abs(dieline.blank.width - (Math.PI * d.widthMm + 3))).toBeLessThan(0.01);
    expect(paths(dieline, 'cut')).toHaveLength(0);
    expect(zones(dieline, 'neck')).toHaveLength(1);
    expect(zones(dieline, 'base')).toHaveLength(1);
    expect(zones(dieline, 'overlap')).toHaveLength(1);
  });
});

describe('tube laminate', () => {
  it.each([
    [dims(40, 160), {}],
    [dims(25, 120), { seamMm: 6 }],
    [dims(60, 250), { seamMm: 2 }],
  ] as const)('%j %j: width C + seam, the sleeve length, crimp zone and eye mark', (d, extra) => {
    const { dieline } = generateContainerLayout('squeeze-tube', 'tube', d, extra);
    const seam = 'seamMm' in extra ? extra.seamMm : 3;
    expect(Math.abs(dieline.blank.width - (Math.PI * d.widthMm + seam))).toBeLessThan(0.01);
    expect(dieline.blank.height).toBeCloseTo(d.heightMm - tubeBody(d.heightMm).bodyBottom, 2);
    const marks = paths(dieline, 'eyemark');
    expect(marks).toHaveLength(1);
    const mark = boundsOf(marks[0]!.points);
    expect(mark.width).toBeCloseTo(5, 2);
    expect(mark.height).toBeCloseTo(10, 2);
    // Seam strip and crimp: both seals.
    expect(zones(dieline, 'seal')).toHaveLength(2);
  });
});

describe('Doyen pouch', () => {
  it.each([dims(160, 230, 80), dims(100, 150, 40), dims(250, 350, 120)])('%j: front W × H, gusset W × G, back W × H', (d) => {
    const { dieline } = generateContainerLayout('stand-up-pouch', 'pouch', d);
    const { widthMm: w, heightMm: h, depthMm: g } = d;
    const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThan(1);
    for (const [id, height] of [['front', h], ['gusset', g], ['back', h]] as const) {
      const f = frame(dieline, id);
      near(f.width, w);
      near(f.height, height);
    }
    expect(frame(dieline, 'back').rotationDeg).toBe(180);
    expect(frame(dieline, 'label')).toEqual(frame(dieline, 'front'));
    expect(dieline.blank).toEqual({ width: w, height: 2 * h + g });
    const outline = cut(dieline);
    expect(isSimplePolygon(outline.points)).toBe(true);
    // Tear notches in both side seals, between the top seal (10 mm) and the zipper (25 mm down).
    expect(pointInPolygon([2, 17.5], outline.points)).toBe(false);
    expect(pointInPolygon([w - 2, 17.5], outline.points)).toBe(false);
    expect(pointInPolygon([2, 2 * h + g - 17.5], outline.points)).toBe(false);
    expect(pointInPolygon([2, 40], outline.points)).toBe(true);
    // Rounded corners.
    expect(pointInPolygon([0.5, 0.5], outline.points)).toBe(false);
    const zipper = zones(dieline, 'zipper').map((zone) => boundsOf(zone.points));
    expect(zipper.map((box) => [box.y, box.height])).toEqual([[25, 10], [2 * h + g - 35, 10]]);
    const { bottomSealMm } = dieline.parameters;
    expect(bottomSealMm).toBe(g / 2);
  });

  it('a gusset too deep for the height is a size error naming heightMm', () => {
    expect(() => generateContainerLayout('stand-up-pouch', 'pouch', dims(160, 100, 200))).toThrow(
      /heightMm 100 mm is too small for a stand-up pouch/,
    );
  });
});

describe('options', () => {
  it('an option a template does not take is refused, naming it', () => {
    expect(() => generateContainerLayout('beverage-can', 'can', dims(66, 115), { labelStyle: 'sleeve' })).toThrow(
      "Option 'labelStyle' does not apply to template 'beverage-can'.",
    );
    expect(() => generateContainerLayout('round-bottle', 'bottle', dims(70, 230), { fitMm: 2 })).toThrow(
      "Option 'fitMm' does not apply to template 'round-bottle' with labelStyle=label.",
    );
    expect(() => generateContainerLayout('round-bottle', 'bottle', dims(70, 230), { labelStyle: 'sleeve', overlapMm: 2 })).toThrow(
      "Option 'overlapMm' does not apply to template 'round-bottle' with labelStyle=sleeve.",
    );
    expect(() => generateContainerLayout('stand-up-pouch', 'pouch', dims(160, 230, 80), { seamMm: 5 })).toThrow(
      "Option 'seamMm' does not apply to template 'stand-up-pouch'.",
    );
  });
});
