/**
 * Writes mesh parts as a USDZ package for AR (Apple Quick Look): one USDA layer, first in the
 * archive, with an Xform per part (the same hierarchy and transforms as the glTF), a Mesh per
 * primitive bound to a UsdPreviewSurface material, and the textures beside it. The archive is an
 * uncompressed zip whose every file's data starts on a 64-byte boundary (padding in the local
 * header's extra field), as the USDZ specification requires.
 *
 * The fold animation is left out: AR shows the closed box.
 */
import { zipSync, type Zippable } from 'fflate';
import { quaternion } from './math.js';
import type { PbrMaterial } from './materials.js';
import type { MeshPart, Primitive, Surface } from './mesh.js';
import { isJpeg, type SurfaceMaps } from './gltf.js';

export const USDZ_CONTENT_TYPE = 'model/vnd.usdz+zip';
export const USDZ_ALIGNMENT = 64;
export const USDZ_LAYER = 'model.usda';

export interface UsdzOptions {
  rootName: string;
  materials: Record<Surface, PbrMaterial>;
  /** JPEG or PNG bytes for the printed surface's base colour. */
  texture?: Uint8Array;
  surfaceMaps?: SurfaceMaps;
}

/** An identifier USD accepts as a prim name: letters, digits and `_`, not starting with a digit. */
export function usdName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function uniqueName(wanted: string, used: Set<string>): string {
  let name = usdName(wanted);
  for (let n = 1; used.has(name); n++) name = `${usdName(wanted)}_${n}`;
  used.add(name);
  return name;
}

const imageName = (stem: string, bytes: Uint8Array) => `textures/${stem}.${isJpeg(bytes) ? 'jpg' : 'png'}`;

/** Fixed precision keeps the layer small and the bytes (and so the ETag) stable. */
const num = (value: number, digits: number) => String(Number(value.toFixed(digits)));
const tuples = (values: ArrayLike<number>, size: number, digits: number, map?: (value: number, k: number) => number) => {
  const out: string[] = [];
  for (let i = 0; i + size <= values.length; i += size) {
    const parts: string[] = [];
    for (let k = 0; k < size; k++) parts.push(num(map ? map(values[i + k]!, k) : values[i + k]!, digits));
    out.push(`(${parts.join(', ')})`);
  }
  return out.join(', ');
};

interface Layer {
  lines: string[];
  files: Map<string, Uint8Array>;
}

export function writeUsdz(parts: MeshPart[], options: UsdzOptions): Uint8Array {
  const root = usdName(options.rootName);
  const layer: Layer = { lines: [], files: new Map() };
  const out = layer.lines;
  out.push(
    '#usda 1.0',
    '(',
    '    customLayerData = {',
    '        string creator = "packaging-template-service"',
    '    }',
    `    defaultPrim = "${root}"`,
    '    metersPerUnit = 1',
    '    upAxis = "Y"',
    ')',
    '',
    `def Xform "${root}" (`,
    `    assetInfo = { string name = "${options.rootName.replace(/[^A-Za-z0-9_.-]/g, '_')}" }`,
    '    kind = "component"',
    ')',
    '{',
  );

  const used = new Set(parts.flatMap((p) => p.primitives.map((primitive) => primitive.surface)));
  const materialPaths = new Map<Surface, string>();
  out.push('    def Scope "Materials"', '    {');
  const materialNames = new Set<string>();
  for (const surface of used) {
    const name = uniqueName(surface, materialNames);
    const path = `/${root}/Materials/${name}`;
    materialPaths.set(surface, path);
    const printed = surface === 'print';
    writeMaterial(layer, path, name, options.materials[surface], printed ? options : {});
  }
  out.push('    }');

  const children = new Map<string | undefined, MeshPart[]>();
  for (const part of parts) children.set(part.parent, [...(children.get(part.parent) ?? []), part]);
  const partNames = new Set<string>(['Materials']);
  const writePart = (part: MeshPart, depth: number): void => {
    const pad = '    '.repeat(depth);
    out.push(`${pad}def Xform "${uniqueName(part.name, partNames)}"`, `${pad}{`);
    if (part.transform) {
      const [x, y, z, w] = quaternion(part.transform.rotation);
      out.push(
        `${pad}    float3 xformOp:translate = (${part.transform.translation.map((v) => num(v, 7)).join(', ')})`,
        `${pad}    quatf xformOp:orient = (${[w, x, y, z].map((v) => num(v, 7)).join(', ')})`,
        `${pad}    uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:orient"]`,
      );
    }
    const meshNames = new Set<string>();
    for (const primitive of part.primitives) {
      const material = options.materials[primitive.surface];
      const name = uniqueName(primitive.surface, meshNames);
      writeMesh(out, pad + '    ', name, primitive, materialPaths.get(primitive.surface)!, !material.volume);
    }
    for (const child of children.get(part.name) ?? []) writePart(child, depth + 1);
    out.push(`${pad}}`);
  };
  for (const part of children.get(undefined) ?? []) writePart(part, 1);
  out.push('}', '');

  const files: Array<[string, Uint8Array]> = [[USDZ_LAYER, new TextEncoder().encode(out.join('\n'))], ...layer.files];
  return zipAligned(files);
}

function writeMesh(out: string[], pad: string, name: string, primitive: Primitive, material: string, doubleSided: boolean): void {
  const triangles = primitive.indices.length / 3;
  out.push(
    `${pad}def Mesh "${name}" (`,
    `${pad}    prepend apiSchemas = ["MaterialBindingAPI"]`,
    `${pad})`,
    `${pad}{`,
    `${pad}    uniform bool doubleSided = ${doubleSided ? 1 : 0}`,
    `${pad}    int[] faceVertexCounts = [${new Array<string>(triangles).fill('3').join(', ')}]`,
    `${pad}    int[] faceVertexIndices = [${primitive.indices.join(', ')}]`,
    `${pad}    point3f[] points = [${tuples(primitive.positions, 3, 6)}]`,
    `${pad}    normal3f[] normals = [${tuples(primitive.normals, 3, 5)}] (`,
    `${pad}        interpolation = "vertex"`,
    `${pad}    )`,
  );
  if (primitive.uvs) {
    // glTF's v runs down the image, USD's t up it.
    out.push(
      `${pad}    texCoord2f[] primvars:st = [${tuples(primitive.uvs, 2, 6, (value, k) => (k === 1 ? 1 - value : value))}] (`,
      `${pad}        interpolation = "vertex"`,
      `${pad}    )`,
    );
  }
  out.push(`${pad}    uniform token subdivisionScheme = "none"`, `${pad}    rel material:binding = <${material}>`, `${pad}}`);
}

type Maps = Pick<UsdzOptions, 'texture' | 'surfaceMaps'>;

function writeMaterial(layer: Layer, path: string, name: string, pbr: PbrMaterial, maps: Maps): void {
  const out = layer.lines;
  const pad = '                ';
  /** The image's path in the package, which holds it. */
  const texture = (stem: string, bytes: Uint8Array): string => {
    const file = imageName(stem, bytes);
    layer.files.set(file, bytes);
    return file;
  };
  const shaders: string[] = [];
  const inputs: string[] = [];
  const [r, g, b, alpha] = pbr.baseColor;
  // UsdPreviewSurface has no transmission: glass is partly opaque, with its index of refraction.
  const opacity = pbr.transmission ? Math.max(0.2, 1 - pbr.transmission) * alpha : alpha;
  let reader = false;
  const sample = (shader: string, file: string, colorSpace: 'sRGB' | 'raw', extra: string[] = []) => {
    reader = true;
    shaders.push(
      `            def Shader "${shader}"`,
      '            {',
      `${pad}uniform token info:id = "UsdUVTexture"`,
      `${pad}asset inputs:file = @${file}@`,
      `${pad}float2 inputs:st.connect = <${path}/uv.outputs:result>`,
      `${pad}token inputs:sourceColorSpace = "${colorSpace}"`,
      `${pad}token inputs:wrapS = "clamp"`,
      `${pad}token inputs:wrapT = "clamp"`,
      ...extra.map((line) => pad + line),
      `${pad}float outputs:r`,
      `${pad}float outputs:g`,
      `${pad}float outputs:b`,
      `${pad}float outputs:a`,
      `${pad}float3 outputs:rgb`,
      '            }',
    );
  };
  if (maps.texture) {
    sample('baseColor', texture('print', maps.texture), 'sRGB');
    inputs.push(`color3f inputs:diffuseColor.connect = <${path}/baseColor.outputs:rgb>`);
    if (pbr.blend) inputs.push(`float inputs:opacity.connect = <${path}/baseColor.outputs:a>`);
    else inputs.push(`float inputs:opacity = ${num(opacity, 4)}`);
  } else {
    inputs.push(`color3f inputs:diffuseColor = (${[r, g, b].map((v) => num(v, 5)).join(', ')})`);
    inputs.push(`float inputs:opacity = ${num(opacity, 4)}`);
  }
  const surface = maps.texture ? maps.surfaceMaps : undefined;
  if (surface?.metallicRoughness) {
    sample('surface', texture('surface', surface.metallicRoughness), 'raw');
    // glTF's packing: roughness in green, metal in blue.
    inputs.push(`float inputs:roughness.connect = <${path}/surface.outputs:g>`);
    inputs.push(`float inputs:metallic.connect = <${path}/surface.outputs:b>`);
  } else {
    inputs.push(`float inputs:roughness = ${num(pbr.roughness, 4)}`, `float inputs:metallic = ${num(pbr.metallic, 4)}`);
  }
  if (surface?.normal) {
    const unpack = ['float4 inputs:scale = (2, 2, 2, 1)', 'float4 inputs:bias = (-1, -1, -1, 0)'];
    sample('relief', texture('relief', surface.normal), 'raw', unpack);
    inputs.push(`normal3f inputs:normal.connect = <${path}/relief.outputs:rgb>`);
  }
  if (pbr.ior !== undefined) inputs.push(`float inputs:ior = ${num(pbr.ior, 4)}`);
  if (pbr.clearcoat) inputs.push(`float inputs:clearcoat = ${num(pbr.clearcoat, 4)}`, 'float inputs:clearcoatRoughness = 0.05');

  out.push(`        def Material "${name}"`, '        {');
  out.push(`            token outputs:surface.connect = <${path}/surface_shader.outputs:surface>`);
  out.push(
    '            def Shader "surface_shader"',
    '            {',
    `${pad}uniform token info:id = "UsdPreviewSurface"`,
    ...inputs.map((line) => pad + line),
    `${pad}int inputs:useSpecularWorkflow = 0`,
    `${pad}token outputs:surface`,
    '            }',
  );
  if (reader) {
    out.push(
      '            def Shader "uv"',
      '            {',
      `${pad}uniform token info:id = "UsdPrimvarReader_float2"`,
      `${pad}string inputs:varname = "st"`,
      `${pad}float2 inputs:fallback = (0, 0)`,
      `${pad}float2 outputs:result`,
      '            }',
    );
  }
  out.push(...shaders, '        }');
}

// A fixed time: the same model gives the same bytes, so the same ETag.
const ZIP_TIME = new Date(2020, 0, 1);
const LOCAL_HEADER = 30;
const EXTRA_HEADER = 4;
const PADDING_FIELD = 0x1986;

/** Stored entries, each file's data on a 64-byte boundary (padding in an extra field when needed). */
export function zipAligned(files: Array<[string, Uint8Array]>): Uint8Array {
  const entries: Zippable = {};
  let offset = 0;
  for (const [name, bytes] of files) {
    const start = offset + LOCAL_HEADER + new TextEncoder().encode(name).length;
    let extra = 0;
    if (start % USDZ_ALIGNMENT !== 0) {
      extra = EXTRA_HEADER + ((USDZ_ALIGNMENT - ((start + EXTRA_HEADER) % USDZ_ALIGNMENT)) % USDZ_ALIGNMENT);
      entries[name] = [bytes, { level: 0, mtime: ZIP_TIME, extra: { [PADDING_FIELD]: new Uint8Array(extra - EXTRA_HEADER) } }];
    } else {
      entries[name] = [bytes, { level: 0, mtime: ZIP_TIME }];
    }
    offset = start + extra + bytes.length;
  }
  return zipSync(entries, { level: 0, mtime: ZIP_TIME });
}
