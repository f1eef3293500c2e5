// Panel frames: where artwork goes on each panel. The rotation table is the one README.md
// documents (a designer checks it against a folded sample); the geometry checks hold for every
// panel of every style at every size of the grid.
import { describe, expect, it } from 'vitest';
import { generateDieline, type Dieline, type DielinePanel } from '../../src/dielines/index.js';
import { SIZE_GRID } from './helpers.js';

const EXPECTED_ROTATIONS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'mailer-box': {
    bottom: 180, back: 0, lid: 180, 'tuck-front': 180, 'dust-flap-left': 180, 'dust-flap-right': 180,
    front: 180, 'front-rim': 180, 'front-inner': 0, left: 90, 'left-rim': 90, 'left-inner': 270,
    right: 270, 'right-rim': 270, 'right-inner': 90, 'corner-flap-back-left': 0, 'corner-flap-front-left': 180,
  },
  'rsc-box': {
    joint: 0, back: 0, left: 0, front: 0, right: 0,
    'top-flap-back': 180, 'top-flap-left': 0, 'top-flap-front': 0, 'top-flap-right': 0,
    'bottom-flap-back': 180, 'bottom-flap-left': 0, 'bottom-flap-front': 0, 'bottom-flap-right': 0,
  },
  'reverse-tuck-carton': {
    'glue-flap': 0, back: 0, left: 0, front: 0, right: 0, top: 180, 'tuck-top': 180,
    'dust-flap-top-left': 0, 'dust-flap-top-right': 0, bottom: 0, 'tuck-bottom': 0,
    'dust-flap-bottom-left': 0, 'dust-flap-bottom-right': 0,
  },
  'straight-tuck-box': { top: 180, bottom: 180, 'tuck-bottom': 180, front: 0 },
  'auto-bottom-box': { top: 180, 'bottom-flap-back': 180, 'bottom-flap-front': 0, 'bottom-flap-left': 0, 'bottom-flap-right': 0 },
  'rigid-lid-box': {
    'base-bottom': 180, 'base-back': 0, 'base-front': 180, 'base-left': 90, 'base-right': 270,
    'lid-top': 0, 'lid-back': 180, 'lid-front': 0, 'lid-left': 90, 'lid-right': 270,
  },
};

/** The sheet direction of the panel's upright "down" (0, 1) after the clockwise rotation. */
function uprightDown(panel: DielinePanel): [number, number] {
  const r = (panel.frame.rotationDeg * Math.PI) / 180;
  return [Math.round(-Math.sin(r)), Math.round(Math.cos(r))];
}

function panel(dieline: Dieline, id: string): DielinePanel {
  const found = dieline.panels.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no panel ${id}`);
  return found;
}

describe('panel frames', () => {
  for (const [templateId, sizes] of Object.entries(SIZE_GRID)) {
    it(`${templateId}: every panel has its bounding-box centre and its upright extent`, () => {
      for (const { dims } of sizes) {
        const dieline = generateDieline(templateId, dims);
        for (const p of dieline.panels) {
          const { center, rotationDeg, width, height } = p.frame;
          expect([0, 90, 180, 270]).toContain(rotationDeg);
          expect(center[0]).toBeCloseTo(p.bounds.x + p.bounds.width / 2, 2);
          expect(center[1]).toBeCloseTo(p.bounds.y + p.bounds.height / 2, 2);
          const quarter = rotationDeg % 180 === 90;
          expect(width).toBeCloseTo(quarter ? p.bounds.height : p.bounds.width, 2);
          expect(height).toBeCloseTo(quarter ? p.bounds.width : p.bounds.height, 2);
        }
      }
    });

    it(`${templateId}: rotations match the README table`, () => {
      const dieline = generateDieline(templateId, sizes[1]!.dims);
      const actual = Object.fromEntries(dieline.panels.map((p) => [p.id, p.frame.rotationDeg]));
      for (const [id, rotation] of Object.entries(EXPECTED_ROTATIONS[templateId]!)) expect([id, actual[id]]).toEqual([id, rotation]);
    });
  }

  it('mailer-box: every wall reads with its bottom edge towards the bottom panel', () => {
    const dieline = generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 });
    const bottom = panel(dieline, 'bottom').frame.center;
    for (const id of ['front', 'back', 'left', 'right']) {
      const wall = panel(dieline, id);
      const [dx, dy] = uprightDown(wall);
      const toBottom = [bottom[0] - wall.frame.center[0], bottom[1] - wall.frame.center[1]];
      expect(dx * toBottom[0]! + dy * toBottom[1]!, id).toBeGreaterThan(0);
    }
    // The lid reads from above with the front edge down: its upright down points to the tuck.
    const lid = panel(dieline, 'lid');
    const tuck = panel(dieline, 'tuck-front');
    const [dx, dy] = uprightDown(lid);
    expect(dx * (tuck.frame.center[0] - lid.frame.center[0]) + dy * (tuck.frame.center[1] - lid.frame.center[1])).toBeGreaterThan(0);
  });

  it('tube styles: the top closure reads with the front edge down, i.e. towards its tuck', () => {
    const dieline = generateDieline('reverse-tuck-carton', { widthMm: 70, depthMm: 70, heightMm: 180 });
    const top = panel(dieline, 'top');
    const tuck = panel(dieline, 'tuck-top');
    const [dx, dy] = uprightDown(top);
    expect(dx * (tuck.frame.center[0] - top.frame.center[0]) + dy * (tuck.frame.center[1] - top.frame.center[1])).toBeGreaterThan(0);
  });
});
