/**
 * FEFCO 0201 regular slotted container: four panels and a glued manufacturer's joint, with top
 * and bottom flaps separated by slots. The outer flaps meet at the centre across the shorter
 * side of the opening.
 */
import { DielineDraft, type StyleGeometry } from '../draft.js';
import { ceilTenth, formatNumber } from '../format.js';
import { requireAtLeast, type StyleLimits } from '../limits.js';
import type { BoxDimensions, Point } from '../types.js';
import { buildTube, TUBE_ORDER, tubeOutside, tubePanelWidths, type EdgeFeature, type TubePanelId } from './tube.js';

export const RSC_SUBJECT = 'a regular slotted container';

export const RSC_LIMITS: StyleLimits = {
  widthMm: { min: 50, max: 1200 },
  depthMm: { min: 50, max: 1200 },
  heightMm: { min: 30, max: 1500 },
  thicknessMm: { min: 0.8, max: 12 },
};

/** Manufacturer's joint, 25–38 mm typical (Fustelle notes), 30–40 mm converter convention. */
const JOINT_WIDTH_MM = 35;
const JOINT_END_ANGLE_DEG = 15;
/** Slot width in calipers: the midpoint of the t…2t convention. */
const SLOT_WIDTH_CALIPERS = 1.5;
/** Minor flap under major flap at each end: the score sits on the major flap's mid-plane. */
const CLOSURE_LAYERS_PER_END = 1.5;
/** The joint must leave this much straight glue line between its angled ends. */
const JOINT_MIN_GLUE_LENGTH_MM = 10;

function flapFeature(
  width: number,
  height: number,
  slotWidth: number,
  id: string,
  name: string,
  role: 'major-flap' | 'minor-flap',
): EdgeFeature {
  const x0 = slotWidth / 2;
  const x1 = width - slotWidth / 2;
  const polygon: Point[] = [[x0, 0], [x0, height], [x1, height], [x1, 0]];
  return { profile: [[0, 0], ...polygon, [width, 0]], panels: [{ id, name, role, polygon }], creases: [[[x0, 0], [x1, 0]]] };
}

export function buildRegularSlottedContainer(inside: BoxDimensions, t: number): StyleGeometry {
  const { widthMm: L, depthMm: W, heightMm: D } = inside;
  const widths = tubePanelWidths(L, W, t);
  const bodyHeight = D + 2 * CLOSURE_LAYERS_PER_END * t;
  const jointChamfer = JOINT_WIDTH_MM * Math.tan((JOINT_END_ANGLE_DEG * Math.PI) / 180);
  const minHeight = 2 * jointChamfer + JOINT_MIN_GLUE_LENGTH_MM - (bodyHeight - D);
  requireAtLeast(
    'heightMm',
    D,
    minHeight,
    RSC_SUBJECT,
    `the manufacturer's joint needs at least ${formatNumber(ceilTenth(minHeight))} mm.`,
  );
  // Across W the flaps span the back and front mid-planes (W + t); across L the side panels'
  // mid-planes (L + 2t, the joint sits inside the right panel). The shorter span sets the height.
  const flapHeight = Math.min(W + t, L + 2 * t) / 2;
  const slotWidth = SLOT_WIDTH_CALIPERS * t;
  const majorOn: readonly TubePanelId[] = W + t <= L + 2 * t ? ['back', 'front'] : ['left', 'right'];
  const flaps = (edge: 'top' | 'bottom'): Record<TubePanelId, EdgeFeature> => {
    const out = {} as Record<TubePanelId, EdgeFeature>;
    for (const id of TUBE_ORDER) {
      const major = majorOn.includes(id);
      out[id] = flapFeature(
        widths[id],
        flapHeight,
        slotWidth,
        `${edge}-flap-${id}`,
        `${edge === 'top' ? 'Top' : 'Bottom'} ${major ? 'outer' : 'inner'} flap (${id})`,
        major ? 'major-flap' : 'minor-flap',
      );
    }
    return out;
  };
  const draft = new DielineDraft();
  buildTube(draft, {
    widths,
    bodyHeight,
    glueFlap: { width: JOINT_WIDTH_MM, endAngleDeg: JOINT_END_ANGLE_DEG, id: 'joint', name: "Manufacturer's joint" },
    top: flaps('top'),
    bottom: flaps('bottom'),
  });
  return draft.finish(tubeOutside(L, W, D, t), {
    jointWidthMm: JOINT_WIDTH_MM,
    bodyHeightMm: bodyHeight,
    flapHeightMm: flapHeight,
    slotWidthMm: slotWidth,
  });
}
