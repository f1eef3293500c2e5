import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/catalog/data.js';
import { DIELINE_STYLES, generateDieline, type Dieline } from '../../src/dielines/index.js';
import {
  closeTo,
  expectBleedAndSafe,
  expectPanelsTileTheBoard,
  expectRounded,
  expectValidGeometry,
  holes,
  panel,
  SIZE_GRID,
  THICKNESS_GRID,
} from './helpers.js';

const tan15 = Math.tan((15 * Math.PI) / 180);

/** Tuck depth of the ECMA tuck ends: 10 mm + 0.15 W, clamped to 12…30 mm. */
const tuckDepth = (W: number): number => Math.min(30, Math.max(12, 10 + 0.15 * W));
const glueFlap = (W: number): number => Math.min(15, W - 2);

/**
 * The tube shared by 0201 and the tuck ends. Inside L and W come back out of the panel widths
 * once the mid-plane allowances are removed: half a caliper per fold, plus the glue flap's
 * caliper inside the right panel (front), minus the free edge's clearance (right).
 */
function expectTubeFolds(d: Dieline, t: number): void {
  const { widthMm: L, depthMm: W, heightMm: D } = d.dimensions.inside;
  const back = panel(d, 'back').bounds;
  const left = panel(d, 'left').bounds;
  const front = panel(d, 'front').bounds;
  const right = panel(d, 'right').bounds;
  closeTo(back.width - t, L);
  closeTo(front.width - 2 * t, L);
  closeTo(left.width - t, W);
  closeTo(right.width - t, W);
  // Opposite walls match once the glue flap's caliper is counted.
  closeTo(back.width + t, front.width);
  closeTo(left.width, right.width);
  // Body: two closure layers at each end, 1.5 calipers per end.
  for (const wall of [back, left, front, right]) closeTo(wall.height - 3 * t, D);
  // Walls sit side by side on one strip.
  closeTo(left.x, back.x + back.width);
  closeTo(front.x, left.x + left.width);
  closeTo(right.x, front.x + front.width);
  for (const wall of [left, front, right]) closeTo(wall.y, back.y);
}

function expectTuckClosures(d: Dieline, t: number, closures: readonly string[]): void {
  const { widthMm: L, depthMm: W } = d.dimensions.inside;
  const side = panel(d, 'left').bounds;
  for (const id of closures) {
    const closure = panel(d, id).bounds;
    const tuck = panel(d, `tuck-${id}`).bounds;
    // The closure spans the opening exactly like the side walls do.
    closeTo(closure.height, side.width);
    closeTo(closure.height - t, W);
    closeTo(tuck.height, tuckDepth(W));
    // The tuck is L − 1 wide; its sides step in from the closure's corners on a slant.
    closeTo(d.parameters.tuckWidthMm!, L - 1);
    closeTo(tuck.width, closure.width);
  }
  for (const id of ['dust-flap-top-left', 'dust-flap-top-right']) {
    const flap = panel(d, id).bounds;
    // Two dust flaps folded across the opening leave a gap.
    expect(2 * flap.height).toBeLessThan(L);
    closeTo(flap.width, W + t);
  }
}

type Check = (d: Dieline, t: number) => void;

const STYLE_CHECKS: Readonly<Record<string, Check>> = {
  'reverse-tuck-carton': (d, t) => {
    const { widthMm: L, depthMm: W, heightMm: D } = d.dimensions.inside;
    const T = tuckDepth(W);
    closeTo(d.blank.width, glueFlap(W) + 2 * L + 2 * W + 5 * t);
    closeTo(d.blank.height, D + 3 * t + 2 * (W + t + T));
    expectTubeFolds(d, t);
    expectTuckClosures(d, t, ['top', 'bottom']);
    // Reverse tuck: top closure on the back, bottom closure on the front.
    closeTo(panel(d, 'top').bounds.x, panel(d, 'back').bounds.x);
    closeTo(panel(d, 'bottom').bounds.x, panel(d, 'front').bounds.x);
  },
  'straight-tuck-box': (d, t) => {
    const { widthMm: L, depthMm: W, heightMm: D } = d.dimensions.inside;
    const T = tuckDepth(W);
    closeTo(d.blank.width, glueFlap(W) + 2 * L + 2 * W + 5 * t);
    closeTo(d.blank.height, D + 3 * t + 2 * (W + t + T));
    expectTubeFolds(d, t);
    expectTuckClosures(d, t, ['top', 'bottom']);
    // Straight tuck: both closures on the back.
    closeTo(panel(d, 'top').bounds.x, panel(d, 'back').bounds.x);
    closeTo(panel(d, 'bottom').bounds.x, panel(d, 'back').bounds.x);
  },
  'auto-bottom-box': (d, t) => {
    const { widthMm: L, depthMm: W, heightMm: D } = d.dimensions.inside;
    const T = tuckDepth(W);
    // Lock flaps on the longer panels, reaching across the shorter span's mid-planes.
    const [locks, sides, span, midPlaneSpan] =
      W <= L ? [['back', 'front'], ['left', 'right'], W, W + t] : [['left', 'right'], ['back', 'front'], L, L + 2 * t];
    const overlap = Math.min(30, Math.max(6, 0.3 * span));
    const lockDepth = (midPlaneSpan + overlap) / 2;
    const sideDepth = 0.4 * Math.min(W + t, L + t);
    closeTo(d.blank.width, glueFlap(W) + 2 * L + 2 * W + 5 * t);
    closeTo(d.blank.height, W + t + T + D + 3 * t + lockDepth);
    expectTubeFolds(d, t);
    expectTuckClosures(d, t, ['top']);
    for (const side of locks) {
      const lock = panel(d, `bottom-flap-${side}`);
      const tab = panel(d, `bottom-flap-${side}-glue-tab`).bounds;
      expect(lock.role).toBe('lock-flap');
      closeTo(lock.bounds.height, lockDepth);
      // The lock flaps reach past the centre of the bottom and overlap.
      expect(2 * lock.bounds.height - midPlaneSpan).toBeGreaterThan(5.9);
      // The glue tab sits at the flap's left end, hinged at the panel corner; equal legs.
      closeTo(tab.x, panel(d, side).bounds.x);
      closeTo(tab.width, tab.height);
      // Its tip is wider than its tab and than the side flaps' tips.
      expect(lock.bounds.width - 2 * sideDepth).toBeGreaterThan(0);
    }
    for (const side of sides) {
      const flap = panel(d, `bottom-flap-${side}`).bounds;
      expect(panel(d, `bottom-flap-${side}`).role).toBe('minor-flap');
      closeTo(flap.height, sideDepth);
      expect(2 * flap.height).toBeLessThan(flap.width);
    }
    for (const side of locks) {
      // Each glue tab is shorter than the side flap it is glued onto.
      expect(panel(d, `bottom-flap-${side}-glue-tab`).bounds.height).toBeLessThan(sideDepth);
    }
  },
  'rsc-box': (d, t) => {
    const { widthMm: L, depthMm: W, heightMm: D } = d.dimensions.inside;
    const flap = Math.min(W + t, L + 2 * t) / 2;
    const slot = 1.5 * t;
    closeTo(d.blank.width, 35 + 2 * L + 2 * W + 5 * t);
    closeTo(d.blank.height, D + 3 * t + 2 * flap);
    expectTubeFolds(d, t);
    for (const edge of ['top', 'bottom']) {
      for (const side of ['back', 'left', 'front', 'right']) {
        const f = panel(d, `${edge}-flap-${side}`).bounds;
        closeTo(f.height, flap);
        closeTo(f.width, panel(d, side).bounds.width - slot);
      }
    }
    // Outer flaps meet at the centre across the shorter span of the opening.
    const major = d.panels.filter((p) => p.role === 'major-flap');
    expect(major).toHaveLength(4);
    const span = Math.min(W + t, L + 2 * t);
    for (const p of major) closeTo(2 * p.bounds.height, span);
  },
  'mailer-box': (d, t) => {
    const { widthMm: L, depthMm: W, heightMm: H } = d.dimensions.inside;
    const sideRoll = 2 * t + (2 * t) / 3;
    const frontRoll = t + t / 3;
    const tuck = Math.min(50, 0.6 * H);
    closeTo(d.blank.width, L + 4 * H + (37 * t) / 3);
    closeTo(d.blank.height, 3 * H + 2 * W + tuck + 5 * t);
    const bottom = panel(d, 'bottom').bounds;
    closeTo(bottom.width, L + 2 * sideRoll + t);
    closeTo(bottom.height, W + frontRoll + t);
    // Side rolls: outer wall up to the rim at the inside height, rim, inner wall back down.
    for (const side of ['left', 'right']) {
      closeTo(panel(d, side).bounds.width, H);
      closeTo(panel(d, `${side}-rim`).bounds.width, sideRoll);
      closeTo(panel(d, `${side}-inner`).bounds.width - (t + t / 3), H - t);
    }
    closeTo(panel(d, 'front').bounds.height, H);
    closeTo(panel(d, 'front-rim').bounds.height, frontRoll);
    closeTo(panel(d, 'back').bounds.height, H + t);
    // After rolling, the inner walls' faces are the inside size apart.
    closeTo(bottom.width - 2 * (sideRoll + t / 2), L);
    closeTo(bottom.height - (frontRoll + t / 2) - t / 2, W);
    // The lid spans the inside; its ears and tuck drop inside the walls.
    const lid = panel(d, 'lid').bounds;
    closeTo(lid.width, L - t);
    closeTo(lid.height, W);
    closeTo(panel(d, 'tuck-front').bounds.height, tuck);
    closeTo(panel(d, 'tuck-front').bounds.width, L - t);
    expect(d.parameters.tuckWidthMm).toBeLessThan(L - t);
    for (const ear of ['dust-flap-left', 'dust-flap-right']) {
      const e = panel(d, ear).bounds;
      expect(e.width).toBeLessThanOrEqual(H - t + 0.002);
      expect(e.height).toBeLessThan(W);
    }
    // Corner flaps fit inside the side roll, below its top, and front/back ones do not overlap.
    for (const id of ['corner-flap-back-left', 'corner-flap-back-right', 'corner-flap-front-left', 'corner-flap-front-right']) {
      const c = panel(d, id).bounds;
      expect(c.height).toBeLessThan(H - t);
      expect(2 * c.width).toBeLessThan(bottom.height);
    }
    // Every lock tab on an inner wall lands in a slot under that wall's mid-plane.
    const slots = holes(d).map((h) => h.points);
    expect(slots.length).toBeGreaterThanOrEqual(3);
    const slotBounds = slots.map((s) => {
      const xs = s.map((p) => p[0]);
      const ys = s.map((p) => p[1]);
      return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
    });
    const sideSlots = slotBounds.filter((s) => Math.abs((s.x0 + s.x1) / 2 - (bottom.x + sideRoll)) < 0.01);
    const frontSlots = slotBounds.filter((s) => Math.abs((s.y0 + s.y1) / 2 - (bottom.y + bottom.height - frontRoll)) < 0.01);
    expect(sideSlots.length).toBeGreaterThanOrEqual(1);
    expect(frontSlots.length).toBeGreaterThanOrEqual(1);
    const rightInner = panel(d, 'right-inner');
    const tabEdgeX = rightInner.bounds.x;
    const tabYs = rightInner.polygon.filter((p) => Math.abs(p[0] - tabEdgeX) < 0.002).map((p) => p[1]);
    for (const y of tabYs) expect(sideSlots.some((s) => y > s.y0 && y < s.y1), `tab at y=${y} has no slot`).toBe(true);
  },
  'rigid-lid-box': (d, t) => {
    const { widthMm: L, depthMm: W, heightMm: H } = d.dimensions.inside;
    const wrap = 0.45;
    const clearance = 0.6;
    const lidFit = 2 * t + 4 * wrap + clearance;
    const lidH = Math.min(H, Math.max(20, H / 3));
    const baseWidth = L + 2 * t + 2 * (H + t);
    const lidWidth = L + lidFit + 2 * t + 2 * (lidH + t);
    const gap = 10 + 2 * d.bleedMm;
    closeTo(d.blank.width, baseWidth + gap + lidWidth);
    closeTo(d.blank.height, Math.max(W + 2 * t + 2 * (H + t), W + lidFit + 2 * t + 2 * (lidH + t)));
    expect(d.pieces.map((p) => p.id)).toEqual(['base', 'lid']);
    for (const p of d.panels) expect(p.id.startsWith(`${p.pieceId}-`)).toBe(true);
    const base = panel(d, 'base-bottom').bounds;
    closeTo(base.width - 2 * t, L);
    closeTo(base.height - 2 * t, W);
    for (const id of ['base-back', 'base-front']) {
      closeTo(panel(d, id).bounds.height, H + t);
      closeTo(panel(d, id).bounds.width, base.width);
    }
    for (const id of ['base-left', 'base-right']) {
      closeTo(panel(d, id).bounds.width, H + t);
      // Short walls fit between the long walls' inner faces.
      closeTo(panel(d, id).bounds.height, W);
    }
    // Seen from below, the base's left wall is on the right of the sheet.
    expect(panel(d, 'base-left').bounds.x).toBeGreaterThan(base.x);
    const lid = panel(d, 'lid-top').bounds;
    // Lid inside = wrapped base outside + the lid's own turn-ins + clearance.
    closeTo(lid.width - 2 * t - (base.width + 2 * wrap), 2 * wrap + clearance);
    closeTo(lid.height - 2 * t - (base.height + 2 * wrap), 2 * wrap + clearance);
    closeTo(panel(d, 'lid-front').bounds.height, lidH + t);
    expect(panel(d, 'lid-left').bounds.x).toBeLessThan(lid.x);
    // The pieces are gap + bleed apart, so their bleeds never touch.
    const [basePiece, lidPiece] = d.pieces;
    closeTo(lidPiece!.bounds.x - (basePiece!.bounds.x + basePiece!.bounds.width), gap);
  },
};

describe('every dieline template has a generator and style checks', () => {
  it('maps exactly the catalog templates with dielineAvailable', () => {
    const available = TEMPLATES.filter((template) => template.dielineAvailable).map((template) => template.id);
    expect(Object.keys(DIELINE_STYLES).sort()).toEqual([...available].sort());
    expect(Object.keys(STYLE_CHECKS).sort()).toEqual([...available].sort());
  });

  it('builds every template at its catalog default size', () => {
    for (const template of TEMPLATES.filter((entry) => entry.dielineAvailable)) {
      const d = generateDieline(template.id, template.defaultDimensions);
      expect(d.style).toBe(DIELINE_STYLES[template.id]);
      expect(d.units).toBe('mm');
      expect(d.dimensions.inside).toEqual(template.defaultDimensions);
    }
  });
});

for (const [templateId, sizes] of Object.entries(SIZE_GRID)) {
  describe(`${templateId} (${DIELINE_STYLES[templateId]})`, () => {
    for (const { label, dims } of sizes) {
      for (const t of THICKNESS_GRID[templateId]!) {
        const name = `${label} ${dims.widthMm}×${dims.depthMm}×${dims.heightMm} mm, t=${t} mm`;
        let cached: Dieline | undefined;
        const dieline = (): Dieline => (cached ??= generateDieline(templateId, dims, { thicknessMm: t, bleedMm: 3 }));

        it(`${name}: one closed simple outline per piece, creases inside and anchored`, () => {
          expectValidGeometry(dieline());
        });

        it(`${name}: panels tile the board; bleed and safe zones are offsets`, () => {
          const d = dieline();
          expectPanelsTileTheBoard(d);
          expectBleedAndSafe(d);
          expectRounded(d);
        });

        it(`${name}: blank matches the formula and the panels fold to the inside size`, () => {
          const d = dieline();
          expect(d.thicknessMm).toBe(t);
          expect(d.dimensions.inside).toEqual(dims);
          closeTo(d.artboard.width, d.blank.width + 6);
          closeTo(d.artboard.height, d.blank.height + 6);
          STYLE_CHECKS[templateId]!(d, t);
        });
      }
    }

    it('is deterministic and JSON-serialisable', () => {
      const dims = SIZE_GRID[templateId]![1]!.dims;
      const a = generateDieline(templateId, dims, { thicknessMm: THICKNESS_GRID[templateId]![1]!, bleedMm: 3 });
      const b = generateDieline(templateId, dims, { thicknessMm: THICKNESS_GRID[templateId]![1]!, bleedMm: 3 });
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    });

    it('keeps the geometry valid without bleed and with a large bleed', () => {
      const dims = SIZE_GRID[templateId]![0]!.dims;
      for (const bleedMm of [0, 12.7]) {
        const d = generateDieline(templateId, dims, { bleedMm });
        expectValidGeometry(d);
        expectBleedAndSafe(d);
      }
    });
  });
}

describe('tube helpers used by the formulas above', () => {
  it('angled glue flap ends start at the panel corner', () => {
    const d = generateDieline('reverse-tuck-carton', { widthMm: 70, depthMm: 70, heightMm: 180 }, { thicknessMm: 0.4 });
    const flap = panel(d, 'glue-flap').bounds;
    closeTo(flap.width, glueFlap(70));
    closeTo(flap.height, 180 + 3 * 0.4);
    const polygon = panel(d, 'glue-flap').polygon;
    const outerXs = polygon.filter((p) => Math.abs(p[0] - flap.x) < 0.002).map((p) => p[1]);
    closeTo(Math.min(...outerXs) - flap.y, glueFlap(70) * tan15);
  });
});
