/**
 * The six box templates as folded panels: one mesh part per panel, named by its panelId. The
 * printed side carries UVs into the printed blank (u = x / blank width, v = y / blank height), so
 * an image of the whole printed blank lands on every panel where it is printed; the unprinted side
 * is the plain board. Both faces sit half a caliper off the board's mid-plane.
 */
import type { Dieline } from '../dielines/index.js';
import { foldDieline } from './fold.js';
import { apply, type Rigid, type Vec3 } from './math.js';
import type { MeshPart, Primitive } from './mesh.js';
import { centroid } from './fold.js';
import { triangulate } from './triangulate.js';

const MM = 0.001;

/**
 * `printed` is the sheet the texture is made from when it is not the board itself (the rigid box's
 * wraps): each board panel takes its UVs from the printed panel of the same id, moved by the
 * difference of their frame centres (the wraps keep the trays' frames).
 */
export function boxParts(dieline: Dieline, printed: Pick<Dieline, 'blank' | 'panels'> = dieline): MeshPart[] {
  const parts = panelParts(dieline, printed);
  // The folding stands the board's mid-plane on y = 0; stand the outer faces there instead.
  let lowest = Infinity;
  for (const part of parts) {
    for (const primitive of part.primitives) {
      for (let i = 0; i < primitive.positions.length; i += 3) {
        const p = apply(part.transform!.rotation, [primitive.positions[i]!, primitive.positions[i + 1]!, primitive.positions[i + 2]!]);
        lowest = Math.min(lowest, p[1] + part.transform!.translation[1]);
      }
    }
  }
  for (const part of parts) part.transform!.translation[1] -= lowest;
  return parts;
}

function panelParts(dieline: Dieline, printed: Pick<Dieline, 'blank' | 'panels'>): MeshPart[] {
  const { width, height } = printed.blank;
  const printedPanels = new Map(printed.panels.map((panel) => [panel.id, panel]));
  const half = (dieline.thicknessMm / 2) * MM;
  return foldDieline(dieline).map(({ panel, transform }) => {
    const [cx, cy] = centroid(panel.polygon);
    const local = panel.polygon.map(([x, y]) => [(x - cx) * MM, (y - cy) * MM] as const);
    const triangles = triangulate(panel.polygon);
    const onSheet = printedPanels.get(panel.id) ?? panel;
    const du = onSheet.frame.center[0] - panel.frame.center[0];
    const dv = onSheet.frame.center[1] - panel.frame.center[1];
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
    const centre = apply(transform.rotation, [cx, cy, 0]);
    const node: Rigid = {
      rotation: transform.rotation,
      translation: [(centre[0] + transform.translation[0]) * MM, (centre[1] + transform.translation[1]) * MM, (centre[2] + transform.translation[2]) * MM] as Vec3,
    };
    return { name: panel.id, primitives: [outside, inside], transform: node };
  });
}

/** The triangle wound so its normal points along `zSign` (counter-clockwise seen from there). */
function orient(triangle: [number, number, number], polygon: ReadonlyArray<readonly [number, number]>, zSign: number): number[] {
  const [a, b, c] = triangle.map((i) => polygon[i]!) as [readonly [number, number], readonly [number, number], readonly [number, number]];
  const z = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return Math.sign(z) === Math.sign(zSign) ? triangle : [triangle[0], triangle[2], triangle[1]];
}

