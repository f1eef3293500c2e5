// Reading the service's GLB answers back: validation with the Khronos validator and the node tree
// through @gltf-transform/core.
import { NodeIO, type Document, type Node } from '@gltf-transform/core';
import { KHRMaterialsClearcoat, KHRMaterialsIOR, KHRMaterialsTransmission, KHRMaterialsVolume } from '@gltf-transform/extensions';
import { validateBytes } from 'gltf-validator';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { DecodedPng } from '../helpers/png.js';

const io = new NodeIO().registerExtensions([KHRMaterialsTransmission, KHRMaterialsClearcoat, KHRMaterialsVolume, KHRMaterialsIOR]);

export async function expectValidGlb(body: Uint8Array): Promise<void> {
  const report = await validateBytes(new Uint8Array(body));
  const problems = report.issues.messages.filter((message) => message.severity <= 1);
  expect(problems, JSON.stringify(problems)).toEqual([]);
  expect(report.issues.numErrors).toBe(0);
  expect(report.issues.numWarnings).toBe(0);
}

export function readGlb(body: Uint8Array): Promise<Document> {
  return io.readBinary(new Uint8Array(body));
}

export function nodeNamed(doc: Document, name: string): Node {
  const node = doc.getRoot().listNodes().find((candidate) => candidate.getName() === name);
  if (!node) throw new Error(`no node ${name}`);
  return node;
}

/** The mean UV of a panel node's printed side: its centre on the printed sheet, as [u, v]. */
export function meanUv(doc: Document, panelId: string): [number, number] {
  const uv = nodeNamed(doc, panelId).getMesh()!.listPrimitives()[0]!.getAttribute('TEXCOORD_0')!;
  let u = 0;
  let v = 0;
  for (let i = 0; i < uv.getCount(); i++) {
    const [a, b] = uv.getElement(i, [0, 0]) as [number, number];
    u += a / uv.getCount();
    v += b / uv.getCount();
  }
  return [u, v];
}

/** World-space vertex positions (mm) of a node's primitive `index`. */
export function worldPositionsMm(node: Node, index = 0): Array<[number, number, number]> {
  const m = node.getWorldMatrix();
  const accessor = node.getMesh()!.listPrimitives()[index]!.getAttribute('POSITION')!;
  const points: Array<[number, number, number]> = [];
  for (let i = 0; i < accessor.getCount(); i++) {
    const [x, y, z] = accessor.getElement(i, [0, 0, 0]) as [number, number, number];
    points.push([
      (m[0] * x + m[4] * y + m[8] * z + m[12]) * 1000,
      (m[1] * x + m[5] * y + m[9] * z + m[13]) * 1000,
      (m[2] * x + m[6] * y + m[10] * z + m[14]) * 1000,
    ]);
  }
  return points;
}

/** A model's texture (JPEG or PNG) decoded to RGBA pixels. */
export async function decodeTexture(image: Uint8Array): Promise<DecodedPng> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pixels = new Uint8Array(data);
  return {
    width: info.width,
    height: info.height,
    pixels,
    pixel(x, y) {
      const i = (Math.floor(y) * info.width + Math.floor(x)) * 4;
      return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, pixels[i + 3]!];
    },
  };
}

/** Each channel within `tolerance` of the expected colour (a JPEG texture is lossy). */
export function expectNearColour(actual: readonly number[], expected: readonly number[], tolerance: number, label = ''): void {
  const off = expected.some((value, i) => Math.abs(actual[i]! - value) > tolerance);
  expect(off ? [...actual] : [...expected], label).toEqual([...expected]);
}
