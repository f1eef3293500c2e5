// Realism details of the models, read back from the GLB: the pouch's seal has no coplanar faces,
// the can has a ring pull, a label on glass is paper from inside, and box edges are closed by board.
import type { Document, Node, Primitive } from '@gltf-transform/core';
import type { IOR, Volume } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { getTemplate } from '../../src/catalog/index.js';
import { buildModel, type ModelInput } from '../../src/models/index.js';
import { expectValidGlb, nodeNamed, readGlb } from './glb.js';

type Vec = [number, number, number];
type Triangle = [Vec, Vec, Vec];

async function model(templateId: string, material: ModelInput['material'], overrides: Partial<ModelInput> = {}): Promise<Document> {
  const template = getTemplate(templateId)!;
  const glb = await buildModel({
    templateId,
    kind: template.kind,
    dimensions: template.defaultDimensions,
    material,
    finish: 'gloss',
    ...overrides,
  });
  await expectValidGlb(glb);
  return readGlb(glb);
}

/** World-space triangles (mm) of a node's primitive. */
function triangles(node: Node, primitive: Primitive): Triangle[] {
  const m = node.getWorldMatrix();
  const position = primitive.getAttribute('POSITION')!;
  const point = (i: number): Vec => {
    const [x, y, z] = position.getElement(i, [0, 0, 0]) as Vec;
    return [
      (m[0] * x + m[4] * y + m[8] * z + m[12]) * 1000,
      (m[1] * x + m[5] * y + m[9] * z + m[13]) * 1000,
      (m[2] * x + m[6] * y + m[10] * z + m[14]) * 1000,
    ];
  };
  const indices = primitive.getIndices()!.getArray()!;
  const result: Triangle[] = [];
  for (let i = 0; i < indices.length; i += 3) result.push([point(indices[i]!), point(indices[i + 1]!), point(indices[i + 2]!)]);
  return result;
}

const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
function unitNormal([a, b, c]: Triangle): Vec | null {
  const n = cross(sub(b, a), sub(c, a));
  const len = Math.hypot(...n);
  return len < 1e-9 ? null : [n[0] / len, n[1] / len, n[2] / len];
}

/** Two triangles in one plane (within 0.01 mm) whose insides overlap (separating-axis test in that plane). */
function coplanarOverlap(t1: Triangle, t2: Triangle): boolean {
  const n1 = unitNormal(t1);
  const n2 = unitNormal(t2);
  if (!n1 || !n2 || Math.abs(dot(n1, n2)) < 0.9999) return false;
  if (t2.some((p) => Math.abs(dot(n1, sub(p, t1[0]))) > 0.01)) return false;
  // In-plane basis.
  const u = Math.abs(n1[0]) < 0.9 ? cross(n1, [1, 0, 0]) : cross(n1, [0, 1, 0]);
  const v = cross(n1, u);
  const flat = (t: Triangle) => t.map((p) => [dot(p, u), dot(p, v)] as const);
  const a = flat(t1);
  const b = flat(t2);
  for (const tri of [a, b]) {
    for (let i = 0; i < 3; i++) {
      const [x0, y0] = tri[i]!;
      const [x1, y1] = tri[(i + 1) % 3]!;
      const axis = [y1 - y0, x0 - x1] as const;
      const project = (points: typeof a) => points.map(([x, y]) => x * axis[0] + y * axis[1]);
      const pa = project(a);
      const pb = project(b);
      const overlap = Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb));
      if (overlap <= 1e-6 * Math.hypot(...axis)) return false;
    }
  }
  return true;
}

describe('model realism', () => {
  it('the stand-up pouch has no two coplanar overlapping triangles (its top seal does not flicker)', async () => {
    const doc = await model('stand-up-pouch', 'plastic');
    const parts = ['label', 'back', 'gusset', 'seal'].map((name) => {
      const node = nodeNamed(doc, name);
      return node.getMesh()!.listPrimitives().flatMap((primitive) => triangles(node, primitive));
    });
    const { heightMm } = getTemplate('stand-up-pouch')!.defaultDimensions;
    // The flat top seal is where the front and back faces met in one plane.
    const sealFront = parts[0]!.filter((t) => t.every((p) => p[1] > heightMm - 10));
    expect(sealFront.length).toBeGreaterThan(0);
    const clashes: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j < parts.length; j++) {
        for (const t1 of parts[i]!) {
          for (const t2 of parts[j]!) if (coplanarOverlap(t1, t2)) clashes.push(JSON.stringify([t1, t2]));
        }
      }
    }
    expect(clashes.slice(0, 3)).toEqual([]);
    // The faces stay apart through the seal, and a strip closes its top edge.
    const frontZ = Math.min(...sealFront.flatMap((t) => t.filter((p) => Math.abs(p[0]) < 40).map((p) => p[2])));
    expect(frontZ).toBeGreaterThan(0.1);
    const top = parts[3]!.flat();
    expect(Math.min(...top.map((p) => p[1]))).toBeCloseTo(heightMm, 3);
  });

  it('the beverage can has a ring pull named tab, with its rivet, on the lid in the closure material', async () => {
    const doc = await model('beverage-can', 'aluminum');
    const { widthMm, heightMm } = getTemplate('beverage-can')!.defaultDimensions;
    const tab = nodeNamed(doc, 'tab');
    const primitives = tab.getMesh()!.listPrimitives();
    expect(tab.getMesh()!.getName()).toBe('tab');
    expect(new Set(primitives.map((primitive) => primitive.getMaterial()!.getName()))).toEqual(new Set(['closure']));
    const points = primitives.flatMap((primitive) => triangles(tab, primitive).flat());
    // On the lid (1.5 mm below the rim's top), inside the rim, and not a speck.
    expect(Math.min(...points.map((p) => p[1]))).toBeGreaterThan(heightMm - 1.5);
    expect(Math.max(...points.map((p) => p[1]))).toBeLessThan(heightMm + 2);
    expect(Math.max(...points.map((p) => Math.hypot(p[0], p[2])))).toBeLessThan(widthMm * 0.44);
    const zs = points.map((p) => p[2]);
    expect(Math.max(...zs) - Math.min(...zs)).toBeGreaterThan(widthMm * 0.3);
    // The rivet: the tab's highest point is at the lid's centre.
    const highest = points.reduce((best, p) => (p[1] > best[1] ? p : best));
    expect(Math.hypot(highest[0], highest[2])).toBeLessThan(2.5);
  });

  it.each([['round-bottle'], ['cosmetic-jar']])('a label on a glass %s is opaque paper from inside', async (templateId) => {
    const doc = await model(templateId, 'glass');
    const { widthMm } = getTemplate(templateId)!.defaultDimensions;
    const label = nodeNamed(doc, 'label');
    const body = doc.getRoot().listMaterials().find((material) => material.getName() === 'glass')!;
    expect(body.getExtension('KHR_materials_transmission')).not.toBeNull();
    // Real glass: it bends light (index of refraction) and has a body (volume with a thickness).
    expect(body.getExtension<IOR>('KHR_materials_ior')?.getIOR()).toBeCloseTo(1.5, 2);
    const volume = body.getExtension<Volume>('KHR_materials_volume');
    expect(volume?.getThicknessFactor()).toBeGreaterThan(0);
    expect(volume?.getAttenuationDistance()).toBeGreaterThan(0);
    const radial = (primitive: Primitive) => {
      const position = primitive.getAttribute('POSITION')!;
      const normal = primitive.getAttribute('NORMAL')!;
      const facing: number[] = [];
      const radii: number[] = [];
      for (let i = 0; i < position.getCount(); i++) {
        const [x, , z] = position.getElement(i, [0, 0, 0]) as Vec;
        const [nx, , nz] = normal.getElement(i, [0, 0, 0]) as Vec;
        facing.push(Math.sign(x * nx + z * nz));
        radii.push(Math.hypot(x, z) * 1000);
      }
      return { facing: new Set(facing), radius: Math.min(...radii) };
    };
    const [printed, back] = label.getMesh()!.listPrimitives();
    expect(radial(printed!).facing).toEqual(new Set([1]));
    expect(radial(back!).facing).toEqual(new Set([-1]));
    // Between the glass wall and the printed face, so it hides the print's reverse from inside.
    expect(radial(back!).radius).toBeGreaterThan(widthMm / 2);
    expect(radial(back!).radius).toBeLessThan(radial(printed!).radius);
    const paper = back!.getMaterial()!;
    expect(paper.getExtension('KHR_materials_transmission')).toBeNull();
    expect(paper.getAlphaMode()).toBe('OPAQUE');
    expect(paper.getBaseColorFactor()[3]).toBe(1);
    expect(paper.getBaseColorTexture()).toBeNull();
  });

  it('a corrugated box closes every panel edge with a flat strip of board: each panel is watertight', async () => {
    const template = getTemplate('mailer-box')!;
    const doc = await model('mailer-box', 'corrugated');
    const root = nodeNamed(doc, 'mailer-box');
    const panels = doc.getRoot().listNodes().filter((node) => node !== root && node.getMesh());
    expect(panels.length).toBeGreaterThan(5);
    for (const panel of panels) {
      const primitives = panel.getMesh()!.listPrimitives();
      const edge = primitives[2]!;
      expect(edge.getMaterial()!.getName()).toBe('corrugated-inside');
      // Each triangle's vertices, welded at 0.001 mm; every edge must be shared by exactly two triangles.
      const uses = new Map<string, number>();
      const key = (p: Vec) => p.map((c) => Math.round(c * 1000)).join(',');
      for (const [a, b, c] of primitives.flatMap((primitive) => triangles(panel, primitive))) {
        for (const [p, q] of [[a, b], [b, c], [c, a]] as const) {
          const id = [key(p), key(q)].sort().join('|');
          uses.set(id, (uses.get(id) ?? 0) + 1);
        }
      }
      const open = [...uses].filter(([, count]) => count !== 2);
      expect(open.slice(0, 3), `${panel.getName()} of ${template.id}`).toEqual([]);
      // The strip is flat board: every edge vertex lies on the printed or the unprinted face's plane.
      const thickness = new Set<number>();
      const position = edge.getAttribute('POSITION')!;
      for (let i = 0; i < position.getCount(); i++) thickness.add(Math.round((position.getElement(i, [0, 0, 0])[2]! * 1000) * 1000));
      expect(thickness.size, panel.getName()).toBe(2);
    }
  });
});
