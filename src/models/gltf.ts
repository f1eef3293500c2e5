/**
 * Writes mesh parts as one binary glTF (GLB) with @gltf-transform/core: a root node named after the
 * template holding one node per part, one material per surface, the optional base-colour texture
 * on the printed surface.
 */
import { Document, NodeIO, type Accessor, type Material, type Node } from '@gltf-transform/core';
import { KHRMaterialsClearcoat, KHRMaterialsIOR, KHRMaterialsTransmission, KHRMaterialsVolume } from '@gltf-transform/extensions';
import { quaternion } from './math.js';
import type { PbrMaterial } from './materials.js';
import type { NodeAnimation } from './fold-animation.js';
import type { MeshPart, Surface } from './mesh.js';

export interface WriteOptions {
  rootName: string;
  materials: Record<Surface, PbrMaterial>;
  /** JPEG (or PNG) bytes for the printed surface. */
  texture?: Uint8Array;
  /** The printed surface's metallic-roughness and normal maps, over the texture's UVs. */
  surfaceMaps?: SurfaceMaps;
  /** Keyframes of the part nodes (by name): the box's fold. */
  animation?: NodeAnimation;
  /** The lighting preset the scene is meant to be seen in (scene extras `lighting`). */
  lighting?: string;
}

const io = new NodeIO().registerExtensions([KHRMaterialsTransmission, KHRMaterialsClearcoat, KHRMaterialsVolume, KHRMaterialsIOR]);

export async function writeGlb(parts: MeshPart[], options: WriteOptions): Promise<Uint8Array> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'packaging-template-service';
  const buffer = doc.createBuffer();
  const accessor: Accessors = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const scene = doc.createScene(options.rootName);
  doc.getRoot().setDefaultScene(scene);
  if (options.lighting) scene.setExtras({ lighting: options.lighting });
  const root = doc.createNode(options.rootName);
  scene.addChild(root);
  const nodes = new Map<string, Node>();

  const used = new Set(parts.flatMap((p) => p.primitives.map((primitive) => primitive.surface)));
  const materials = new Map<Surface, Material>();
  for (const surface of used) {
    const printed = surface === 'print';
    materials.set(
      surface,
      createMaterial(doc, options.materials[surface], printed ? options.texture : undefined, printed ? options.surfaceMaps : undefined),
    );
  }

  for (const meshPart of parts) {
    const mesh = doc.createMesh(meshPart.name);
    for (const primitive of meshPart.primitives) {
      const count = primitive.positions.length / 3;
      const prim = doc
        .createPrimitive()
        .setAttribute('POSITION', accessor('VEC3', new Float32Array(primitive.positions)))
        .setAttribute('NORMAL', accessor('VEC3', new Float32Array(primitive.normals)))
        .setIndices(accessor('SCALAR', count > 65535 ? new Uint32Array(primitive.indices) : new Uint16Array(primitive.indices)))
        .setMaterial(materials.get(primitive.surface)!);
      if (primitive.uvs && options.texture) {
        prim.setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array(primitive.uvs)));
        if (primitive.surface === 'print' && options.surfaceMaps?.normal) {
          const { positions, normals, uvs, indices } = primitive;
          prim.setAttribute('TANGENT', accessor('VEC4', tangents(positions, normals, uvs, indices)));
        }
      }
      mesh.addPrimitive(prim);
    }
    const node = doc.createNode(meshPart.name).setMesh(mesh);
    if (meshPart.transform) {
      node.setTranslation(meshPart.transform.translation).setRotation(quaternion(meshPart.transform.rotation));
    }
    const parent = meshPart.parent === undefined ? root : nodes.get(meshPart.parent);
    if (!parent) throw new Error(`Part ${meshPart.name} comes before its parent ${meshPart.parent}`);
    parent.addChild(node);
    nodes.set(meshPart.name, node);
  }
  if (options.animation) writeAnimation(doc, accessor, options.animation, nodes);
  return io.writeBinary(doc);
}

/** An accessor of the document's one buffer. */
type Accessors = (type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4', array: Float32Array | Uint16Array | Uint32Array) => Accessor;

/** One sampler per node and path (rotation, translation), sharing the keyframe times. */
function writeAnimation(doc: Document, accessor: Accessors, animation: NodeAnimation, nodes: Map<string, Node>): void {
  const clip = doc.createAnimation(animation.name);
  const times = accessor('SCALAR', new Float32Array(animation.times));
  for (const track of animation.tracks) {
    const node = nodes.get(track.node);
    if (!node) throw new Error(`The animation names no node ${track.node}`);
    const channels: Array<['rotation' | 'translation', 'VEC4' | 'VEC3', number[]]> = [['rotation', 'VEC4', track.rotations.flat()]];
    if (track.translations) channels.push(['translation', 'VEC3', track.translations.flat()]);
    for (const [path, type, values] of channels) {
      const sampler = doc
        .createAnimationSampler()
        .setInput(times)
        .setOutput(accessor(type, new Float32Array(values)))
        .setInterpolation('LINEAR');
      clip.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
    }
  }
}

/** PNG (or JPEG) maps that vary the printed surface where effects are. */
export interface SurfaceMaps {
  metallicRoughness?: Uint8Array;
  normal?: Uint8Array;
}

function createMaterial(doc: Document, pbr: PbrMaterial, texture: Uint8Array | undefined, maps: SurfaceMaps | undefined): Material {
  const material = doc
    .createMaterial(pbr.name)
    .setBaseColorFactor(pbr.baseColor)
    .setMetallicFactor(pbr.metallic)
    .setRoughnessFactor(pbr.roughness)
    // A volume is the inside of a closed, outward-facing surface: one-sided (the validator requires it).
    .setDoubleSided(!pbr.volume);
  if (pbr.blend) material.setAlphaMode('BLEND');
  const image = (name: string, bytes: Uint8Array) =>
    doc.createTexture(name).setImage(bytes).setMimeType(isJpeg(bytes) ? 'image/jpeg' : 'image/png');
  if (texture) material.setBaseColorTexture(image('print', texture));
  if (texture && maps?.metallicRoughness) {
    // The map holds the values; factors of 1 let it through unchanged.
    material.setMetallicFactor(1).setRoughnessFactor(1);
    material.setMetallicRoughnessTexture(image('surface', maps.metallicRoughness));
  }
  if (texture && maps?.normal) material.setNormalTexture(image('relief', maps.normal));
  if (pbr.transmission) {
    const transmission = doc.createExtension(KHRMaterialsTransmission).createTransmission().setTransmissionFactor(pbr.transmission);
    material.setExtension('KHR_materials_transmission', transmission);
  }
  if (pbr.volume) {
    const volume = doc
      .createExtension(KHRMaterialsVolume)
      .createVolume()
      .setThicknessFactor(pbr.volume.thickness)
      .setAttenuationDistance(pbr.volume.attenuationDistance)
      .setAttenuationColor(pbr.volume.attenuationColor);
    material.setExtension('KHR_materials_volume', volume);
  }
  if (pbr.ior !== undefined) material.setExtension('KHR_materials_ior', doc.createExtension(KHRMaterialsIOR).createIOR().setIOR(pbr.ior));
  if (pbr.clearcoat) {
    const clearcoat = doc
      .createExtension(KHRMaterialsClearcoat)
      .createClearcoat()
      .setClearcoatFactor(pbr.clearcoat)
      .setClearcoatRoughnessFactor(0.05);
    material.setExtension('KHR_materials_clearcoat', clearcoat);
  }
  return material;
}

/**
 * Per-vertex tangents (xyz, handedness w) along increasing u, from each triangle's position and UV
 * deltas, made orthogonal to the normal: what a normal texture is read against.
 */
function tangents(
  positions: ArrayLike<number>,
  normals: ArrayLike<number>,
  uvs: ArrayLike<number>,
  indices: ArrayLike<number>,
): Float32Array {
  const count = positions.length / 3;
  const tan = new Float64Array(count * 3);
  const bitan = new Float64Array(count * 3);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    const e1 = [0, 1, 2].map((k) => positions[b * 3 + k]! - positions[a * 3 + k]!);
    const e2 = [0, 1, 2].map((k) => positions[c * 3 + k]! - positions[a * 3 + k]!);
    const [du1, dv1] = [uvs[b * 2]! - uvs[a * 2]!, uvs[b * 2 + 1]! - uvs[a * 2 + 1]!];
    const [du2, dv2] = [uvs[c * 2]! - uvs[a * 2]!, uvs[c * 2 + 1]! - uvs[a * 2 + 1]!];
    const det = du1 * dv2 - du2 * dv1;
    if (Math.abs(det) < 1e-12) continue;
    const r = 1 / det;
    for (const v of [a, b, c]) {
      for (let k = 0; k < 3; k++) {
        tan[v * 3 + k]! += (e1[k]! * dv2 - e2[k]! * dv1) * r;
        bitan[v * 3 + k]! += (e2[k]! * du1 - e1[k]! * du2) * r;
      }
    }
  }
  const out = new Float32Array(count * 4);
  for (let v = 0; v < count; v++) {
    const n = [normals[v * 3]!, normals[v * 3 + 1]!, normals[v * 3 + 2]!];
    let t = [tan[v * 3]!, tan[v * 3 + 1]!, tan[v * 3 + 2]!];
    const dot = t[0]! * n[0]! + t[1]! * n[1]! + t[2]! * n[2]!;
    t = t.map((value, k) => value - n[k]! * dot);
    let length = Math.hypot(t[0]!, t[1]!, t[2]!);
    if (length < 1e-12) {
      // No UV gradient here: any unit vector orthogonal to the normal will do.
      t = Math.abs(n[0]!) < 0.9 ? [0, -n[2]!, n[1]!] : [-n[2]!, 0, n[0]!];
      length = Math.hypot(t[0]!, t[1]!, t[2]!);
    }
    const cross = [n[1]! * t[2]! - n[2]! * t[1]!, n[2]! * t[0]! - n[0]! * t[2]!, n[0]! * t[1]! - n[1]! * t[0]!];
    const handedness = cross[0]! * bitan[v * 3]! + cross[1]! * bitan[v * 3 + 1]! + cross[2]! * bitan[v * 3 + 2]! < 0 ? -1 : 1;
    out.set([t[0]! / length, t[1]! / length, t[2]! / length, handedness], v * 4);
  }
  return out;
}

export const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
