/**
 * Mesh parts: plain triangle lists in metres, each named (the glTF node name) and tagged with the
 * surface it is made of, which chooses its material when the document is written.
 */
import type { Rigid } from './math.js';

/**
 * - print: the printed outside (box panels, container labels): base-colour texture + finish;
 * - inside: the unprinted side of the board;
 * - body: the container's own material (glass, plastic, aluminium);
 * - closure: caps, lids and the can's tab;
 * - label-back: the paper side of a container's label, facing in (opaque, seen through glass).
 */
export type Surface = 'print' | 'inside' | 'body' | 'closure' | 'label-back';

export interface Primitive {
  surface: Surface;
  positions: number[];
  normals: number[];
  /** Present on print surfaces: (u, v) into the printed blank or label, v down. */
  uvs?: number[];
  indices: number[];
}

export interface MeshPart {
  /** Node name: the panelId for box panels; `label`, `body`, `cap`, … for containers. */
  name: string;
  primitives: Primitive[];
  /** Node transform, metres, relative to the parent node; identity when absent. */
  transform?: Rigid;
  /** The part whose node this one hangs under (a box panel under the panel it is hinged on). */
  parent?: string;
}

/**
 * Builds an indexed grid surface from a (rows+1) × (cols+1) lattice of vertices. Triangles face
 * along (next row − this row) × (next col − this col); `flip` reverses them. Each caller keeps
 * this winding in step with its normals (front faces counter-clockwise, as glTF requires).
 */
export function gridPrimitive(
  surface: Surface,
  rows: number,
  cols: number,
  vertex: (row: number, col: number) => { position: [number, number, number]; normal: [number, number, number]; uv?: [number, number] },
  flip = false,
): Primitive {
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  let withUv = false;
  for (let r = 0; r <= rows; r++) {
    for (let c = 0; c <= cols; c++) {
      const v = vertex(r, c);
      positions.push(...v.position);
      normals.push(...v.normal);
      if (v.uv) {
        withUv = true;
        uvs.push(...v.uv);
      }
    }
  }
  const at = (r: number, c: number) => r * (cols + 1) + c;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const a = at(r, c);
      const b = at(r, c + 1);
      const d = at(r + 1, c);
      const e = at(r + 1, c + 1);
      if (flip) indices.push(a, b, d, b, e, d);
      else indices.push(a, d, b, b, d, e);
    }
  }
  return withUv ? { surface, positions, normals, uvs, indices } : { surface, positions, normals, indices };
}
