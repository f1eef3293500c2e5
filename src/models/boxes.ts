/**
 * The six box templates as folded panels: one mesh part per panel, named by its panelId, each
 * node under the node of the panel it is hinged on with its origin on that crease, so turning a
 * node turns everything folded from it about the crease. The printed side carries UVs into the
 * printed blank (u = x / blank width, v = y / blank height), so an image of the whole printed blank
 * lands on every panel where it is printed; the unprinted side is the plain board. Both faces sit
 * half a caliper off the board's mid-plane, and a flat strip of plain board closes every edge
 * between them, so a thick board (corrugated) shows its edge as board rather than an open gap.
 */
import type { Dieline, DielinePanel } from '../dielines/index.js';
import { centroid, foldTree, hinge, type HingedPanel } from './fold.js';
import { foldAnimation, type NodeAnimation, type NodePoser } from './fold-animation.js';
import { applyRigid, type Vec3 } from './math.js';
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
  const folding = foldTree(dieline);
  const printedPanels = new Map(printed.panels.map((panel) => [panel.id, panel]));
  const byId = new Map(folding.panels.map((hinged) => [hinged.panel.id, hinged]));
  // A node's origin: its crease's first end, or a piece root's centroid.
  const origin = (hinged: HingedPanel): Vec3 => {
    const [x, y] = hinged.crease ? hinged.crease[0] : centroid(hinged.panel.polygon);
    return [x, y, 0];
  };
  const poser: NodePoser = {
    hinged(hinged, fraction) {
      const parent = byId.get(hinged.parent!)!;
      const from = origin(parent);
      const at = origin(hinged);
      return {
        rotation: hinge(hinged.crease!, hinged.angle * fraction).rotation,
        translation: [(at[0] - from[0]) * MM, (at[1] - from[1]) * MM, parent.offsetMm * MM],
      };
    },
    root(hinged, placement) {
      const at = applyRigid(placement, origin(hinged));
      return { rotation: placement.rotation, translation: [at[0] * MM, at[1] * MM, at[2] * MM] };
    },
  };
  const parts: MeshPart[] = folding.panels.map((hinged) => ({
    name: hinged.panel.id,
    primitives: panelPrimitives(hinged, origin(hinged), dieline, printed.blank, printedPanels.get(hinged.panel.id) ?? hinged.panel),
    transform: hinged.parent === undefined ? poser.root(hinged, folding.closedRoots.get(hinged.panel.id)!) : poser.hinged(hinged, 1),
    ...(hinged.parent !== undefined ? { parent: hinged.parent } : {}),
  }));
  return { parts, animation: foldAnimation(dieline, poser) };
}

/** The panel's faces in its node's frame: blank millimetres from `origin`, its layer offset along z. */
function panelPrimitives(hinged: HingedPanel, origin: Vec3, dieline: Dieline, sheet: Dieline['blank'], onSheet: DielinePanel): Primitive[] {
  const { panel } = hinged;
  const { width, height } = sheet;
  const du = onSheet.frame.center[0] - panel.frame.center[0];
  const dv = onSheet.frame.center[1] - panel.frame.center[1];
  const half = (dieline.thicknessMm / 2) * MM;
  const layer = hinged.offsetMm * MM;
  const local = panel.polygon.map(([x, y]) => [(x - origin[0]) * MM, (y - origin[1]) * MM] as const);
  const triangles = triangulate(panel.polygon);
  // Printed side faces -z in the blank frame (z runs into the sheet).
  const outside: Primitive = {
    surface: 'print',
    positions: local.flatMap(([x, y]) => [x, y, layer - half]),
    normals: local.flatMap(() => [0, 0, -1]),
    uvs: panel.polygon.flatMap(([x, y]) => [(x + du) / width, (y + dv) / height]),
    indices: triangles.flatMap(([a, b, c]) => orient([a, b, c], panel.polygon, -1)),
  };
  const inside: Primitive = {
    surface: 'inside',
    positions: local.flatMap(([x, y]) => [x, y, layer + half]),
    normals: local.flatMap(() => [0, 0, 1]),
    indices: triangles.flatMap(([a, b, c]) => orient([a, b, c], panel.polygon, 1)),
  };
  return [outside, inside, edgeStrips(local, layer, half)];
}

/** One quad per polygon edge from the printed face to the unprinted one, facing out of the panel. */
function edgeStrips(local: ReadonlyArray<readonly [number, number]>, layer: number, half: number): Primitive {
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
    positions.push(x0, y0, layer - half, x1, y1, layer - half, x1, y1, layer + half, x0, y0, layer + half);
    for (let k = 0; k < 4; k++) normals.push(...n);
    // (b − a) × (c − a) for a, b, c = corners 0, 1, 2 is edge × (+z): along n when turn = +1.
    indices.push(
      ...(turn > 0 ? [base, base + 1, base + 2, base, base + 2, base + 3] : [base, base + 2, base + 1, base, base + 3, base + 2]),
    );
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
