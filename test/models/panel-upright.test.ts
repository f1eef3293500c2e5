// The panel rule checked on the folded boxes: a placement's top edge (the upright frame's -y) is
// carried to the blank by the panel's frame and to the closed box by the fold, and there points the
// way the rule says. Walls seen from outside and inner walls seen from inside: up. Panels seen from
// above: towards the back (front edge down). Panels seen from below: towards the front (front edge
// up). A panel whose printed face is hidden when the box is closed keeps the frame of the panel it
// is hinged on. Every panel of every box style, at every size of the dieline grid.
import { describe, expect, it } from 'vitest';
import { generateDieline, type DielinePanel, type PanelRole } from '../../src/dielines/index.js';
import { foldDieline } from '../../src/models/index.js';
import { apply, type Vec3 } from '../../src/models/math.js';
import { SIZE_GRID } from '../dielines/helpers.js';

/** Printed face hidden when closed: under a closure, an outer flap, a lid or the other wall layer. */
const HIDDEN: ReadonlySet<PanelRole> = new Set<PanelRole>([
  'tuck', 'dust-flap', 'glue-flap', 'glue-tab', 'minor-flap', 'corner-flap', 'rim',
]);

const UP: Vec3 = [0, 1, 0];
const TOWARDS_BACK: Vec3 = [0, 0, -1];
const TOWARDS_FRONT: Vec3 = [0, 0, 1];

/** The blank direction of the upright frame's -y after the frame's clockwise rotation (y down). */
function blankTop(panel: DielinePanel): Vec3 {
  const r = (panel.frame.rotationDeg * Math.PI) / 180;
  return [Math.sin(r), -Math.cos(r), 0];
}

const rounded = (v: Vec3): Vec3 => v.map((c) => Math.round(c * 1000) / 1000 + 0) as Vec3;

describe('every panel reads upright on the folded box', () => {
  for (const [templateId, sizes] of Object.entries(SIZE_GRID)) {
    for (const { label, dims } of sizes) {
      it(`${templateId} (${label})`, () => {
        const dieline = generateDieline(templateId, dims);
        const folded = foldDieline(dieline);
        expect(folded).toHaveLength(dieline.panels.length);
        const byId = new Map(dieline.panels.map((panel) => [panel.id, panel]));
        for (const { panel, transform, hingedOn } of folded) {
          const top = rounded(apply(transform.rotation, blankTop(panel)));
          if (HIDDEN.has(panel.role)) {
            // Hidden: the frame runs on from the panel it is hinged on, across the crease.
            expect(hingedOn, `${panel.id} is hinged on a panel`).toBeDefined();
            const parent = byId.get(hingedOn!)!;
            expect([panel.id, rounded(blankTop(panel))]).toEqual([panel.id, rounded(blankTop(parent))]);
            continue;
          }
          // The printed face's normal on the closed box: horizontal for walls (outside or, for
          // inner walls, facing the inside), ±Y for tops and bottoms.
          const printed = rounded(apply(transform.rotation, [0, 0, -1]));
          const expected = printed[1] === 1 ? TOWARDS_BACK : printed[1] === -1 ? TOWARDS_FRONT : UP;
          expect([panel.id, top]).toEqual([panel.id, expected]);
          if (panel.role === 'inner-wall') {
            // Seen from inside: the printed face looks at the box's vertical axis.
            const centre = apply(transform.rotation, [panel.frame.center[0], panel.frame.center[1], 0]);
            const position: Vec3 = [centre[0] + transform.translation[0], 0, centre[2] + transform.translation[2]];
            expect(printed[0] * position[0] + printed[2] * position[2], `${panel.id} faces inwards`).toBeLessThan(0);
          }
        }
      });
    }
  }
});
