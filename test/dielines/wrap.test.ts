// The rigid box's printed wraps against its greyboard trays: each wrap is the tray's outside plus
// wall, board caliper (over the top edge) and turn-in on every side; every tray panel has a wrap
// panel of the same id, size and frame; the folds are `fold` lines, never creases; the folded wrap
// follows the panel rule (turn-ins read upright from inside).
import { describe, expect, it } from 'vitest';
import { isSimplePolygon } from '../../src/dielines/geometry.js';
import { DielineSizeError, generateDieline, generateWrap, wrapSizes, type Dieline, type DielinePanel } from '../../src/dielines/index.js';
import { foldDieline } from '../../src/models/index.js';
import { apply } from '../../src/models/math.js';
import { ON_LINE_MM, SIZE_GRID, THICKNESS_GRID } from './helpers.js';

const panel = (d: Dieline, id: string): DielinePanel => {
  const found = d.panels.find((p) => p.id === id);
  if (!found) throw new Error(`no panel ${id}`);
  return found;
};

describe('rigid-lid-box wraps', () => {
  const cases = SIZE_GRID['rigid-lid-box']!.flatMap(({ label, dims }) =>
    THICKNESS_GRID['rigid-lid-box']!.flatMap((t) => [8, 15, 30].map((turnIn) => ({ label, dims, t, turnIn }))),
  );

  it.each(cases)('$label at $t mm board, $turnIn mm turn-in: sizes = tray + caliper + turn-ins', ({ dims, t, turnIn }) => {
    const board = generateDieline('rigid-lid-box', dims, { thicknessMm: t });
    const wrap = generateWrap('rigid-lid-box', dims, { thicknessMm: t, turnInMm: turnIn });
    const { lidInsideLengthMm, lidInsideDepthMm, lidHeightMm } = board.parameters as Record<string, number>;
    const expected = {
      base: {
        width: dims.widthMm + 2 * t + 2 * (dims.heightMm + t + t + turnIn),
        height: dims.depthMm + 2 * t + 2 * (dims.heightMm + t + t + turnIn),
      },
      lid: {
        width: lidInsideLengthMm! + 2 * t + 2 * (lidHeightMm! + t + t + turnIn),
        height: lidInsideDepthMm! + 2 * t + 2 * (lidHeightMm! + t + t + turnIn),
      },
    };
    for (const piece of ['base', 'lid'] as const) {
      const bounds = wrap.pieces.find((p) => p.id === piece)!.bounds;
      expect(bounds.width).toBeCloseTo(expected[piece].width, 2);
      expect(bounds.height).toBeCloseTo(expected[piece].height, 2);
    }
    const sizes = wrapSizes(dims, t, turnIn);
    expect(sizes.base.width).toBeCloseTo(expected.base.width, 2);
    expect(sizes.lid.height).toBeCloseTo(expected.lid.height, 2);
    expect(wrap.parameters.turnInMm).toBe(turnIn);

    // Every tray panel has its wrap panel: same id, rotation and height; as long as the tray's outside.
    for (const tray of board.panels) {
      const paper = panel(wrap, tray.id);
      expect([tray.id, paper.frame.rotationDeg, paper.pieceId]).toEqual([tray.id, tray.frame.rotationDeg, tray.pieceId]);
      expect(paper.frame.height, tray.id).toBeCloseTo(tray.frame.height, 2);
      const shortWall = /-(left|right)$/.test(tray.id);
      expect(paper.frame.width, tray.id).toBeCloseTo(tray.frame.width + (shortWall ? 2 * t : 0), 2);
    }
    // Turn-ins: turnIn deep, exactly as long as the inside face they cover.
    const prefix = (piece: 'base' | 'lid') =>
      piece === 'base' ? { L: dims.widthMm, W: dims.depthMm } : { L: lidInsideLengthMm!, W: lidInsideDepthMm! };
    for (const piece of ['base', 'lid'] as const) {
      const { L, W } = prefix(piece);
      for (const [side, length] of [['back', L], ['front', L], ['left', W], ['right', W]] as const) {
        const turnInPanel = panel(wrap, `${piece}-${side}-turn-in`);
        expect(turnInPanel.role).toBe('inner-wall');
        expect(turnInPanel.frame.width, turnInPanel.id).toBeCloseTo(length, 2);
        expect(turnInPanel.frame.height, turnInPanel.id).toBeCloseTo(turnIn, 2);
        const rim = panel(wrap, `${piece}-${side}-rim`);
        expect(rim.frame.height, rim.id).toBeCloseTo(t, 2);
      }
    }

    // Folds, not creases; each fold lies on an edge shared by two wrap panels.
    expect(wrap.paths.filter((p) => p.type === 'crease')).toEqual([]);
    const folds = wrap.paths.filter((p) => p.type === 'fold');
    expect(folds.length).toBe(2 * (4 + 4 * 2 + 4));
    for (const fold of folds) {
      const mid: [number, number] = [(fold.points[0]![0] + fold.points[1]![0]) / 2, (fold.points[0]![1] + fold.points[1]![1]) / 2];
      const touching = wrap.panels.filter((p) => p.polygon.some((a, i) => {
        const b = p.polygon[(i + 1) % p.polygon.length]!;
        const cross = (b[0] - a[0]) * (mid[1] - a[1]) - (b[1] - a[1]) * (mid[0] - a[0]);
        const within =
          Math.min(a[0], b[0]) - ON_LINE_MM <= mid[0] &&
          mid[0] <= Math.max(a[0], b[0]) + ON_LINE_MM &&
          Math.min(a[1], b[1]) - ON_LINE_MM <= mid[1] &&
          mid[1] <= Math.max(a[1], b[1]) + ON_LINE_MM;
        return within && Math.abs(cross) / Math.hypot(b[0] - a[0], b[1] - a[1]) <= ON_LINE_MM;
      }));
      expect(touching.length).toBe(2);
    }
    for (const outline of wrap.paths.filter((p) => p.type === 'cut')) {
      expect(outline.role).toBe('outline');
      expect(isSimplePolygon(outline.points, 1e-6)).toBe(true);
    }
  });

  it('turnInMm outside 8–30 mm is refused', () => {
    const dims = { widthMm: 250, depthMm: 180, heightMm: 100 };
    expect(() => generateWrap('rigid-lid-box', dims, { turnInMm: 7.9 })).toThrow(DielineSizeError);
    expect(() => generateWrap('rigid-lid-box', dims, { turnInMm: 30.1 })).toThrow(
      /turnInMm 30\.1 mm is too large for a rigid box wrap: the maximum is 30 mm\./,
    );
  });

  it('the folded wraps: walls over the trays, turn-ins upright from inside, ears under the short walls', () => {
    const dims = { widthMm: 250, depthMm: 180, heightMm: 100 };
    const wrap = generateWrap('rigid-lid-box', dims);
    const folded = foldDieline(wrap);
    expect(folded).toHaveLength(wrap.panels.length);
    for (const { panel: p, transform } of folded) {
      const r = (p.frame.rotationDeg * Math.PI) / 180;
      const top = apply(transform.rotation, [Math.sin(r), -Math.cos(r), 0]).map((c) => Math.round(c * 1000) / 1000 + 0);
      const printed = apply(transform.rotation, [0, 0, -1]).map((c) => Math.round(c * 1000) / 1000 + 0);
      if (p.role === 'wall' || p.role === 'inner-wall' || p.role === 'corner-flap') expect([p.id, top]).toEqual([p.id, [0, 1, 0]]);
      if (p.role === 'inner-wall') {
        // Printed face towards the box's vertical axis: seen from inside.
        const centre = apply(transform.rotation, [p.frame.center[0], p.frame.center[1], 0]);
        expect(
          printed[0]! * (centre[0] + transform.translation[0]) + printed[2]! * (centre[2] + transform.translation[2]),
          p.id,
        ).toBeLessThan(0);
      }
      if (p.role === 'bottom') expect(top).toEqual([0, 0, 1]);
      if (p.role === 'lid') expect(top).toEqual([0, 0, -1]);
    }
  });
});
