/**
 * The six box templates as folded panels: one mesh part per panel, named by its panelId. The
 * printed side carries UVs into the printed blank (u = x / blank width, v = y / blank height), so
 * an image of the whole printed blank lands on every panel where it is printed; the unprinted side
 * is the plain board. Both faces sit half a caliper off the board's mid-plane, and a flat strip of
 * plain board closes every edge between them, so a thick board (corrugated) shows its edge as board
 * rather than an open gap.
 */
import type { Dieline, DielinePanel } from '../dielines/index.js';
import { centroid, foldDieline, type FoldedPanel } from './fold.js';
import { foldAnimation, type NodeAnimation } from './fold-animation.js';
import { apply, type Rigid, type Vec3 } from './math.js';
import type { MeshPart, Primitive } from './mesh.js';
import { triangulate } from './triangulate.js';

const MM = 0.001;

export interface BoxModel {
  parts: MeshPart[];
  /** The blank folding from flat to the closed pose the parts are in. */
  animation: NodeAnimation;
}

/**
 * `printed` is the sheet the texture is made from when it is not the board itself (the rigid box's
 * wraps): each board panel takes its UVs from the printed panel of the same id, moved by the
 * difference of their frame centres (the wraps keep the trays' frames).
 */
export function boxParts(dieline: Dieline, printed: Pick<Dieline, 'blank' | 'panels'> = dieline): MeshPart[] {
  return boxModel(dieline, printed).parts;
}

export function boxModel(dieline: Dieline, printed: Pick<Dieline, 'blank' | 'panels'> = dieline): BoxModel {
  const folded = foldDieline(dieline);
  const printedPanels = new Map(printed.panels.map((panel) => [panel.id, panel]));
  // The folding stands the board's mid-plane on y = 0; stand the outer faces there instead.
  const lift = -lowestFace(folded, dieline.thicknessMm);
  const node = (panel: DielinePanel, transform: Rigid) => panelNode(panel, transform, lift);
  const parts = folded.map(({ panel, transform }) => ({
    name: panel.id,
    primitives: panelPrimitives(panel, dieline, printed.blank, printedPanels.get(panel.id) ?? panel),
    transform: node(panel, transform),
  }));
  return { parts, animation: foldAnimation(dieline, node) };
}

/** The node of a panel: its mesh is centred on the panel's centroid, in metres. */
function panelNode(panel: DielinePanel, transform: Rigid, lift: number): Rigid {
  const [cx, cy] = centroid(panel.polygon);
  const centre = apply(transform.rotation, [cx, cy, 0]);
  return {
    rotation: transform.rotation,
    translation: [
      (centre[0] + transform.translation[0]) * MM,
      (centre[1] + transform.translation[1] + lift) * MM,
      (centre[2] + transform.translation[2]) * MM,
    ] as Vec3,
  };
}

/** The lowest point of either face of any panel, in millimetres. */
function lowestFace(folded: FoldedPanel[], thicknessMm: number): number {
  const half = thicknessMm / 2;
  let lowest = Infinity;
  for (const { panel, transform } of folded) {
    for (const [x, y] of panel.polygon) {
      for (const z of [-half, half]) {
        lowest = Math.min(lowest, apply(transform.rotation, [x, y, z])[1] + transform.translation[1]);
      }
    }
  }
  return lowest;
}

function panelPrimitives(panel: DielinePanel, dieline: Dieline, sheet: Dieline['blank'], onSheet: DielinePanel): Primitive[] {
  const { width, height } = sheet;
  const du = onSheet.frame.center[0] - panel.frame.center[0];
  const dv = onSheet.frame.center[1] - panel.frame.center[1];
  const half = (dieline.thicknessMm / 2) * MM;
  const [cx, cy] = centroid(panel.polygon);
  const local = panel.polygon.map(([x, y]) => [(x - cx) * MM, (y - cy) * MM] as const);
  const triangles = triangulate(panel.polygon);
  // Printed side faces -z in the blank frame (z runs into the sheet).
  const outside: Primitive = {
    surface: 'print',
    positions: local.flatMap(([x, y]) => [x, y, -half]),
    normals: local.flatMap(() => [0, 0, -1]),
    uvs: panel.polygon.flatMap(([x, y]) => [(x + du) / width, (y + dv) / height]),
    indices: triangles.flatMap(([a, b, c]) => orient([a, b, c], panel.polygon, -1)),
  };
  const inside: Primitive = {
    surface: 'inside',
    positions: local.flatMap(([x, y]) => [x, y, half]),
    normals: local.flatMap(() => [0, 0, 1]),
    indices: triangles.flatMap(([a, b, c]) => orient([a, b, c], panel.polygon, 1)),
  };
  return [outside, inside, edgeStrips(local, half)];
}

/** One quad per polygon edge from the printed face to the unprinted one, facing out of the panel. */
function edgeStrips(local: ReadonlyArray<readonly [number, number]>, half: number): Primitive {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  // Outward in-plane normal of edge (dx, dy): (dy, −dx) on a counter-clockwise outline.
  const turn = Math.sign(signedArea(local)) || 1;
  local.forEach(([x0, y0], i) => {
    const [x1, y1] = local[(i + 1) % local.length]!;
    const length = Math.hypot(x1 - x0, y1 - y0);
    if (length === 0) return;
    const n: Vec3 = [((y1 - y0) / length) * turn, (-(x1 - x0) / length) * turn, 0];
    const base = positions.length / 3;
    positions.push(x0, y0, -half, x1, y1, -half, x1, y1, half, x0, y0, half);
    for (let k = 0; k < 4; k++) normals.push(...n);
    // (b − a) × (c − a) for a, b, c = corners 0, 1, 2 is edge × (+z): along n when turn = +1.
    indices.push(...(turn > 0 ? [base, base + 1, base + 2, base, base + 2, base + 3] : [base, base + 2, base + 1, base, base + 3, base + 2]));
  });
  return { surface: 'inside', positions, normals, indices };
}

function signedArea(polygon: ReadonlyArray<readonly [number, number]>): number {
  let area = 0;
  polygon.forEach(([x0, y0], i) => {
    const [x1, y1] = polygon[(i + 1) % polygon.length]!;
    area += x0 * y1 - x1 * y0;
  });
  return area / 2;
}

/** The triangle wound so its normal points along `zSign` (counter-clockwise seen from there). */
function orient(triangle: [number, number, number], polygon: ReadonlyArray<readonly [number, number]>, zSign: number): number[] {
  const [a, b, c] = triangle.map((i) => polygon[i]!) as [readonly [number, number], readonly [number, number], readonly [number, number]];
  const z = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return Math.sign(z) === Math.sign(zSign) ? triangle : [triangle[0], triangle[2], triangle[1]];
}
