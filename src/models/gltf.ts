/**
 * Writes mesh parts as one binary glTF (GLB) with @gltf-transform/core: a root node named after the
 * template holding one node per part, one material per surface, the optional base-colour texture
 * on the printed surface.
 */
import { Document, NodeIO, type Buffer as GltfBuffer, type Material, type Node } from '@gltf-transform/core';
import { KHRMaterialsClearcoat, KHRMaterialsTransmission } from '@gltf-transform/extensions';
import { quaternion } from './math.js';
import type { PbrMaterial } from './materials.js';
import type { NodeAnimation } from './fold-animation.js';
import type { MeshPart, Surface } from './mesh.js';

export interface WriteOptions {
  rootName: string;
  materials: Record<Surface, PbrMaterial>;
  /** JPEG (or PNG) bytes for the printed surface. */
  texture?: Uint8Array;
  /** Keyframes of the part nodes (by name): the box's fold. */
  animation?: NodeAnimation;
}

const io = new NodeIO().registerExtensions([KHRMaterialsTransmission, KHRMaterialsClearcoat]);

export async function writeGlb(parts: MeshPart[], options: WriteOptions): Promise<Uint8Array> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'packaging-template-service';
  const buffer = doc.createBuffer();
  const scene = doc.createScene(options.rootName);
  doc.getRoot().setDefaultScene(scene);
  const root = doc.createNode(options.rootName);
  scene.addChild(root);
  const nodes = new Map<string, Node>();

  const used = new Set(parts.flatMap((p) => p.primitives.map((primitive) => primitive.surface)));
  const materials = new Map<Surface, Material>();
  for (const surface of used) materials.set(surface, createMaterial(doc, options.materials[surface], surface === 'print' ? options.texture : undefined));

  for (const meshPart of parts) {
    const mesh = doc.createMesh(meshPart.name);
    for (const primitive of meshPart.primitives) {
      const count = primitive.positions.length / 3;
      const prim = doc
        .createPrimitive()
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(primitive.positions)).setBuffer(buffer))
        .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(new Float32Array(primitive.normals)).setBuffer(buffer))
        .setIndices(
          doc
            .createAccessor()
            .setType('SCALAR')
            .setArray(count > 65535 ? new Uint32Array(primitive.indices) : new Uint16Array(primitive.indices))
            .setBuffer(buffer),
        )
        .setMaterial(materials.get(primitive.surface)!);
      if (primitive.uvs && options.texture) {
        prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(new Float32Array(primitive.uvs)).setBuffer(buffer));
      }
      mesh.addPrimitive(prim);
    }
    const node = doc.createNode(meshPart.name).setMesh(mesh);
    if (meshPart.transform) {
      node.setTranslation(meshPart.transform.translation).setRotation(quaternion(meshPart.transform.rotation));
    }
    root.addChild(node);
    nodes.set(meshPart.name, node);
  }
  if (options.animation) writeAnimation(doc, buffer, options.animation, nodes);
  return io.writeBinary(doc);
}

/** One sampler per node and path (rotation, translation), sharing the keyframe times. */
function writeAnimation(doc: Document, buffer: GltfBuffer, animation: NodeAnimation, nodes: Map<string, Node>): void {
  const clip = doc.createAnimation(animation.name);
  const times = doc.createAccessor().setType('SCALAR').setArray(new Float32Array(animation.times)).setBuffer(buffer);
  for (const track of animation.tracks) {
    const node = nodes.get(track.node);
    if (!node) throw new Error(`The animation names no node ${track.node}`);
    const channels = [
      ['rotation', 'VEC4', track.rotations.flat()],
      ['translation', 'VEC3', track.translations.flat()],
    ] as const;
    for (const [path, type, values] of channels) {
      const sampler = doc
        .createAnimationSampler()
        .setInput(times)
        .setOutput(doc.createAccessor().setType(type).setArray(new Float32Array(values)).setBuffer(buffer))
        .setInterpolation('LINEAR');
      clip.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
    }
  }
}

function createMaterial(doc: Document, pbr: PbrMaterial, texture: Uint8Array | undefined): Material {
  const material = doc
    .createMaterial(pbr.name)
    .setBaseColorFactor(pbr.baseColor)
    .setMetallicFactor(pbr.metallic)
    .setRoughnessFactor(pbr.roughness)
    .setDoubleSided(true);
  if (texture) {
    material.setBaseColorTexture(doc.createTexture('print').setImage(texture).setMimeType(isJpeg(texture) ? 'image/jpeg' : 'image/png'));
  }
  if (pbr.transmission) {
    const transmission = doc.createExtension(KHRMaterialsTransmission).createTransmission().setTransmissionFactor(pbr.transmission);
    material.setExtension('KHR_materials_transmission', transmission);
  }
  if (pbr.clearcoat) {
    const clearcoat = doc.createExtension(KHRMaterialsClearcoat).createClearcoat().setClearcoatFactor(pbr.clearcoat).setClearcoatRoughnessFactor(0.05);
    material.setExtension('KHR_materials_clearcoat', clearcoat);
  }
  return material;
}

const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
