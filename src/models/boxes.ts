/**
 * The six box templates as folded panels: one mesh part per panel, named by its panelId, each
 * node under the node of the panel it is hinged on with its origin on that crease, so turning a
 * node turns everything folded from it about the crease. The printed side carries UVs into the
 * texture atlas (src/print/atlas.ts): each panel's region of the printed blank has its own cell, so
 * the atlas the texture renderer draws from the same regions lands on every panel where it is
 * printed; the unprinted side is the plain board. Both faces sit
 * half a caliper off the board's mid-plane, and a flat strip of plain board closes every edge
 * between them, so a thick board (corrugated) shows its edge as board rather than an open gap.
 */
import { boundsOf, signedArea } from '../dielines/geometry.js';
import type { Dieline, DielinePanel, Point } from '../dielines/index.js';
import { atlasUv, packAtlasCached, type AtlasRegion, type TextureAtlas } from '../print/atlas.js';
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
  /** Where each panel's printed region sits in the texture (its UVs point there). */
  atlas: TextureAtlas;
}

/**
 * `printed` is the sheet the texture is made from (the board itself, or the rigid box's wraps): each
 * board panel's region on it (onSheet) has a cell in the atlas of `textureSizePx` square.
 */
export function boxModel(dieline: Dieline, printed: Pick<Dieline, 'panels'>, textureSizePx: number): BoxModel {
  const folding = foldTree(dieline);
  const printedPanels = new Map(printed.panels.map((panel) => [panel.id, panel]));
  const sheetOutlines = new Map(
    folding.panels.map((hinged) => [hinged.panel.id, onSheet(hinged.panel, printedPanels.get(hinged.panel.id))] as const),
  );
  const regions: AtlasRegion[] = [...sheetOutlines].map(([id, outline]) => ({ id, bounds: boundsOf(outline) }));
  const atlas = packAtlasCached(regions, textureSizePx);
  const cells = new Map(atlas.cells.map((cell) => [cell.id, cell]));
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
    primitives: panelPrimitives(hinged, origin(hinged), dieline, (i) => {
      return atlasUv(atlas, cells.get(hinged.panel.id)!, sheetOutlines.get(hinged.panel.id)![i]!);
    }),
    transform: hinged.parent === undefined ? poser.root(hinged, folding.closedRoots.get(hinged.panel.id)!) : poser.hinged(hinged, 1),
    ...(hinged.parent !== undefined ? { parent: hinged.parent } : {}),
  }));
  return { parts, animation: foldAnimation(dieline, poser), atlas };
}

/**
 * The panel's outline on the printed sheet: the board's own outline, or on a wrap (the rigid box),
 * moved by the difference of the two panels' frame centres (the wraps keep the trays' frames).
 */
function onSheet(panel: DielinePanel, printed: DielinePanel | undefined): Point[] {
  const du = printed ? printed.frame.center[0] - panel.frame.center[0] : 0;
  const dv = printed ? printed.frame.center[1] - panel.frame.center[1] : 0;
  return panel.polygon.map(([x, y]) => [x + du, y + dv]);
}

/**
 * The panel's faces in its node's frame: blank millimetres from `origin`, its layer offset along z;
 * `uv(i)`: the printed side's texture coordinates at outline point i.
 */
function panelPrimitives(hinged: HingedPanel, origin: Vec3, dieline: Dieline, uv: (index: number) => [number, number]): Primitive[] {
  const { panel } = hinged;
  const half = (dieline.thicknessMm / 2) * MM;
  const layer = hinged.offsetMm * MM;
  const local = panel.polygon.map(([x, y]): Point => [(x - origin[0]) * MM, (y - origin[1]) * MM]);
  const triangles = triangulate(panel.polygon);
  // Printed side faces -z in the blank frame (z runs into the sheet).
  const outside: Primitive = {
    surface: 'print',
    positions: local.flatMap(([x, y]) => [x, y, layer - half]),
    normals: local.flatMap(() => [0, 0, -1]),
    uvs: panel.polygon.flatMap((_, i) => uv(i)),
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
function edgeStrips(local: readonly Point[], layer: number, half: number): Primitive {
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

/** The triangle wound so its normal points along `zSign` (counter-clockwise seen from there). */
function orient(triangle: [number, number, number], polygon: ReadonlyArray<readonly [number, number]>, zSign: number): number[] {
  const [a, b, c] = triangle.map((i) => polygon[i]!) as [readonly [number, number], readonly [number, number], readonly [number, number]];
  const z = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return Math.sign(z) === Math.sign(zSign) ? triangle : [triangle[0], triangle[2], triangle[1]];
}
