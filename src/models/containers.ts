/**
 * The five container templates as parametric meshes at their dimensions (millimetres in, metres
 * out; +Y up, front facing +Z, standing on y = 0). The printed part is named `label`; its UVs span
 * the texture window of the container's print layout (src/dielines/containers): u runs left to
 * right around the container with u = 0.5 at the front (+Z), v runs top to bottom. The pouch's
 * `label` (front) and `back` faces both map into its whole web, the back turned half round.
 */
import type { BoxDimensions } from '../dielines/index.js';
import {
  bottleBody,
  CAN_BASE_MM,
  CAN_NECK_MM,
  CAN_RIM_MM,
  CONTAINER_LIMITS,
  jarBody,
  LATHE_LABELS,
  requireContainerSize,
  tubeBody,
  type ContainerKind,
  type LatheLabel,
} from '../dielines/containers/figures.js';
import { gridPrimitive, type MeshPart, type Primitive, type Surface } from './mesh.js';

const MM = 0.001;
/** The pouch's sealed film: its two faces' distance at the middle of the top seal. */
const SEAL_GAP_MM = 0.5;
const SEGMENTS = 64;

export { CONTAINER_LIMITS, type ContainerKind };

/** A lathe profile point: radius and height in mm, bottom to top. */
type ProfilePoint = readonly [number, number];

/**
 * Surface of revolution about the Y axis. With `label`, UVs run around (u) and down the profile (v).
 * Profiles go bottom to top, so the outside faces outwards with this winding.
 */
function lathe(surface: Surface, profile: readonly ProfilePoint[], label = false): Primitive {
  // Normals from the profile's tangent: outward perpendicular (dy, -dr) in the (r, y) plane.
  const profileNormal = (i: number): [number, number] => {
    const prev = profile[Math.max(0, i - 1)]!;
    const next = profile[Math.min(profile.length - 1, i + 1)]!;
    const dr = next[0] - prev[0];
    const dy = next[1] - prev[1];
    const len = Math.hypot(dr, dy) || 1;
    return [dy / len, -dr / len];
  };
  const top = profile[profile.length - 1]![1];
  const bottom = profile[0]![1];
  return gridPrimitive(surface, profile.length - 1, SEGMENTS, (row, col) => {
    const [r, y] = profile[row]!;
    const [nr, ny] = profileNormal(row);
    // φ = 0 at the front (+Z); x = r sin φ grows to the right as seen from the front.
    const phi = (col / SEGMENTS) * 2 * Math.PI - Math.PI;
    const s = Math.sin(phi);
    const c = Math.cos(phi);
    return {
      position: [r * s * MM, y * MM, r * c * MM],
      normal: [nr * s, ny, nr * c],
      ...(label ? { uv: [col / SEGMENTS, (top - y) / (top - bottom || 1)] as [number, number] } : {}),
    };
  }, true);
}

/**
 * A wrapped label; `withBack` adds its paper side just inside it, facing in, so a label on glass
 * shows its paper, not its print, through the container.
 */
function latheLabel({ radius, bottom, top }: LatheLabel, withBack: boolean): MeshPart {
  const printed = lathe('print', [[radius, bottom], [radius, top]], true);
  if (!withBack) return part('label', printed);
  // Top to bottom: the profile's normal and winding turn inwards.
  return part('label', printed, lathe('label-back', [[radius - LABEL_BACK_INSET_MM, top], [radius - LABEL_BACK_INSET_MM, bottom]]));
}

/** How far the label's paper side sits inside its printed side. */
const LABEL_BACK_INSET_MM = 0.1;

/** A flat ring at height y facing up (+1) or down (−1): `edge` gives its outer (row 0) and inner (row 1) edge's x, z at φ. */
function flatRing(surface: Surface, y: number, facing: 1 | -1, edge: (row: number, phi: number) => [number, number]): Primitive {
  return gridPrimitive(
    surface,
    1,
    SEGMENTS,
    (row, col) => {
      const [x, z] = edge(row, (col / SEGMENTS) * 2 * Math.PI - Math.PI);
      return { position: [x * MM, y * MM, z * MM], normal: [0, facing, 0] };
    },
    facing === 1,
  );
}

/** A flat disc at height y facing up (+1) or down (−1). */
function disc(surface: Surface, radius: number, y: number, facing: 1 | -1): Primitive {
  return flatRing(surface, y, facing, (row, phi) => {
    const r = row === 0 ? radius : 0;
    return [r * Math.sin(phi), r * Math.cos(phi)];
  });
}

function part(name: string, ...primitives: Primitive[]): MeshPart {
  return { name, primitives };
}

/** A rounded closed cylinder (cap or lid) from y0 to y1. */
function closure(name: string, radius: number, y0: number, y1: number): MeshPart {
  const edge = Math.min(1.5, radius / 6, (y1 - y0) / 4);
  const side: ProfilePoint[] = [
    [radius - edge, y0],
    [radius, y0 + edge],
    [radius, y1 - edge],
    [radius - edge, y1],
  ];
  return part(name, lathe('closure', side), disc('closure', radius - edge, y1, 1), disc('closure', radius - edge, y0, -1));
}

function bottle(dims: BoxDimensions): MeshPart[] {
  const { widthMm: d, heightMm: h } = dims;
  const r = d / 2;
  const { capHeight, bodyTop, neckBottom } = bottleBody(h);
  const neckR = Math.max(r * 0.32, 6);
  const shoulder: ProfilePoint[] = [];
  for (let i = 0; i <= 12; i++) {
    const s = i / 12;
    // Ease from the body radius to the neck radius over the shoulder.
    const k = (1 - Math.cos(Math.PI * s)) / 2;
    shoulder.push([r + (neckR - r) * k, bodyTop + (neckBottom - bodyTop) * s]);
  }
  const body: ProfilePoint[] = [[r - 3, 0], [r - 0.5, 0.6], [r, 3], ...shoulder, [neckR, h - capHeight + 1]];
  return [
    part('body', lathe('body', body), disc('body', r - 3, 0, -1)),
    latheLabel(LATHE_LABELS.bottle(dims), true),
    closure('cap', neckR + 1.5, h - capHeight, h),
  ];
}

function jar(dims: BoxDimensions): MeshPart[] {
  const { widthMm: d, heightMm: h } = dims;
  const r = d / 2;
  const { bodyTop, neckStart } = jarBody(h);
  const neckR = r - Math.min(3, r * 0.08);
  const body: ProfilePoint[] = [[r - 3, 0], [r - 0.8, 0.8], [r, 3], [r, neckStart], [neckR, bodyTop - 1], [neckR, bodyTop + 1]];
  return [
    part('body', lathe('body', body), disc('body', r - 3, 0, -1)),
    latheLabel(LATHE_LABELS.jar(dims), true),
    closure('cap', r + 0.5, bodyTop, h),
  ];
}

function can(dims: BoxDimensions): MeshPart[] {
  const { widthMm: d, heightMm: h } = dims;
  const r = d / 2;
  const neckR = r * 0.88;
  const rimHeight = CAN_RIM_MM;
  const bottomDome: ProfilePoint[] = [[neckR * 0.75, 4], [r * 0.85, 0], [r, CAN_BASE_MM]];
  const neck: ProfilePoint[] = [
    [r, h - CAN_NECK_MM],
    [r * 0.97, h - 9],
    [neckR, h - rimHeight - 1],
    [neckR + 0.6, h - rimHeight],
    [neckR + 0.6, h],
    [neckR - 0.6, h],
  ];
  const lid = h - 1.5;
  return [
    latheLabel(LATHE_LABELS.can(dims), false),
    part('body', lathe('body', bottomDome), disc('body', neckR * 0.75, 4, -1), lathe('body', neck), disc('body', neckR - 0.6, lid, 1)),
    canTab(d, lid),
  ];
}

/**
 * The can's ring pull on its lid: a flat ring (an oval with a finger hole) riveted at the lid's
 * centre, its nose towards the front and its ring towards the back, scaled with the diameter.
 */
function canTab(d: number, lid: number): MeshPart {
  const s = d / 66;
  const bottom = lid + 0.25;
  const top = bottom + 0.4;
  // Outer oval centred behind the rivet; the hole sits in its rear part.
  const outer = { cz: -6.5 * s, a: 7 * s, b: 12.5 * s };
  const hole = { cz: -9.5 * s, a: 4.5 * s, b: 7 * s };
  const ring = (y: number, facing: 1 | -1): Primitive =>
    flatRing('closure', y, facing, (row, phi) => {
      const oval = row === 0 ? outer : hole;
      return [oval.a * Math.sin(phi), oval.cz + oval.b * Math.cos(phi)];
    });
  const rivet = closure('rivet', 2.2 * s, top, top + 0.6);
  return part('tab', ring(top, 1), ring(bottom, -1), ...rivet.primitives);
}

function tube({ widthMm: d, heightMm: h }: BoxDimensions): MeshPart[] {
  // Stands on its cap; the body flattens from round to the crimp at the top. Perimeter is kept:
  // the flat crimp is half the circumference wide (π r).
  const r = d / 2;
  const { capHeight, bodyBottom, bodyTop } = tubeBody(h);
  const rows = 24;
  const flatHalf = (Math.PI * r) / 2;
  const section = (s: number, phi: number): { x: number; z: number; nx: number; nz: number } => {
    const a = r + (flatHalf - r) * s;
    const b = Math.max(r * (1 - s), 0.4);
    const x = a * Math.sin(phi);
    const z = b * Math.cos(phi);
    const nx = b * Math.sin(phi);
    const nz = a * Math.cos(phi);
    const len = Math.hypot(nx, nz) || 1;
    return { x, z, nx: nx / len, nz: nz / len };
  };
  const body = gridPrimitive('print', rows, SEGMENTS, (row, col) => {
    const y = bodyBottom + ((bodyTop - bodyBottom) * row) / rows;
    const s = Math.pow(row / rows, 1.6);
    const phi = (col / SEGMENTS) * 2 * Math.PI - Math.PI;
    const p = section(s, phi);
    return {
      position: [p.x * MM, y * MM, p.z * MM],
      normal: [p.nx, 0, p.nz],
      uv: [col / SEGMENTS, (bodyTop - y) / (bodyTop - bodyBottom)],
    };
  }, true);
  const seal = (facing: 1 | -1): Primitive =>
    gridPrimitive(
      'body',
      1,
      1,
      (row, col) => ({
        position: [(col === 0 ? -flatHalf : flatHalf) * MM, (row === 0 ? bodyTop : h) * MM, facing * 0.4 * MM],
        normal: [0, 0, facing],
      }),
      facing === 1,
    );
  const shoulderPart = lathe('body', [[r, bodyBottom], [r * 0.45, capHeight + 0.5], [r * 0.4, capHeight]]);
  return [part('label', body), part('body', shoulderPart, seal(1), seal(-1)), closure('cap', r * 0.55, 0, capHeight)];
}

function pouch({ widthMm: w, heightMm: h, depthMm: g }: BoxDimensions): MeshPart[] {
  // Front and back faces bulge to half the gusset at the bottom and close to a flat seal at the top.
  const seal = Math.min(15, h * 0.08);
  // The film's faces never meet in a plane: even in the flat top seal they keep SEAL_GAP_MM apart
  // (closing to the side edges), so the seal's front and back never fight for the same pixels.
  const across = (x: number): number => Math.sqrt(Math.max(0, 1 - Math.pow((2 * x) / w, 2)));
  const rows = 24;
  const cols = 24;
  const bulge = (x: number, y: number): number => {
    const along = y >= h - seal ? 0 : Math.pow(1 - y / (h - seal), 0.7);
    const bulging = (g / 2) * across(x) * (0.25 + 0.75 * along) * (y >= h - seal ? 0 : Math.min(1, (h - seal - y) / seal));
    return Math.max(bulging, (SEAL_GAP_MM / 2) * across(x));
  };
  // Both faces wear the pouch's web (front W × H, gusset W × G, back W × H upside down): the
  // front's UVs cover the web's top H, the back's its bottom H turned half round.
  const web = 2 * h + g;
  const uvOf = (name: 'label' | 'back', row: number, col: number): [number, number] =>
    name === 'label' ? [col / cols, ((row / rows) * h) / web] : [1 - col / cols, 1 - ((row / rows) * h) / web];
  const face = (name: 'label' | 'back', sign: 1 | -1): MeshPart => {
    const primitive = gridPrimitive(
      'print',
      rows,
      cols,
      (row, col) => {
        const y = h - (h * row) / rows;
        const x = sign * (-w / 2 + (w * col) / cols);
        const z = sign * bulge(x, y);
        const dx = (bulge(x + 0.5, y) - bulge(x - 0.5, y)) / 1;
        const dy = (bulge(x, y + 0.5) - bulge(x, y - 0.5)) / 1;
        const n = [-dx, -dy, sign];
        const len = Math.hypot(n[0]!, n[1]!, n[2]!);
        return {
          position: [x * MM, y * MM, z * MM],
          normal: [n[0]! / len, n[1]! / len, n[2]! / len],
          uv: uvOf(name, row, col),
        };
      },
      false,
    );
    return part(name, primitive);
  };
  // A strip closing the gap between the faces at height y: the gusset's floor (facing down), the seal's top edge (up).
  const strip = (y: number, facing: 1 | -1): Primitive =>
    gridPrimitive(
      'body',
      1,
      cols,
      (row, col) => {
        const x = -w / 2 + (w * col) / cols;
        const z = bulge(x, y) * (row === 0 ? 1 : -1);
        return { position: [x * MM, y * MM, z * MM], normal: [0, facing, 0] };
      },
      facing === 1,
    );
  return [face('label', 1), face('back', -1), part('gusset', strip(0, -1)), part('seal', strip(h, 1))];
}

const BUILDERS: Record<ContainerKind, (dims: BoxDimensions) => MeshPart[]> = { bottle, jar, can, tube, pouch };

/** The container's parts; throws DielineSizeError (naming the dimension) outside CONTAINER_LIMITS. */
export function containerParts(kind: ContainerKind, dims: BoxDimensions): MeshPart[] {
  requireContainerSize(kind, dims);
  return BUILDERS[kind](dims);
}
