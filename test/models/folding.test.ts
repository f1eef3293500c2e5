// The folded boxes against their dielines, both read through the HTTP routes: every panel keeps its
// flat area and edge lengths in 3D (within 0.5 mm), stays flat, and the closed box is oriented
// (front +Z, standing on y = 0) and as big as the dieline's outside dimensions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import type { Dieline, Point } from '../../src/dielines/index.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { nodeNamed, readGlb, worldPositionsMm } from './glb.js';

const BOX_TEMPLATES = TEMPLATES.filter((template) => template.kind === 'box');
const TOLERANCE_MM = 0.5;

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V) => Math.hypot(...a);

function flatArea(polygon: readonly Point[]): number {
  let area = 0;
  polygon.forEach((a, i) => {
    const b = polygon[(i + 1) % polygon.length]!;
    area += a[0] * b[1] - b[0] * a[1];
  });
  return Math.abs(area / 2);
}

/** Newell's method: the area of a planar polygon in 3D, and its unit normal. */
function spaceArea(points: readonly V[]): { area: number; normal: V } {
  let n: V = [0, 0, 0];
  points.forEach((a, i) => {
    const b = points[(i + 1) % points.length]!;
    n = [n[0] + (a[1] - b[1]) * (a[2] + b[2]), n[1] + (a[2] - b[2]) * (a[0] + b[0]), n[2] + (a[0] - b[0]) * (a[1] + b[1])];
  });
  const length = norm(n);
  return { area: length / 2, normal: [n[0] / length, n[1] / length, n[2] / length] };
}

describe(`folded box models match their dielines (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const sizes = ['', 'widthMm=210&depthMm=140&heightMm=90', 'widthMm=120&depthMm=100&heightMm=95&thicknessMm=1.2'];
  const cases = BOX_TEMPLATES.flatMap((template) => sizes.map((query) => [template.id, query, template.materials[0]!] as const));

  it.each(cases)('%s ?%s', async (id, query, material) => {
    const suffix = `${query ? `${query}&` : ''}material=${material}`;
    const modelResponse = await app.inject({ method: 'GET', url: `/templates/${id}/model?${suffix}` });
    const dielineResponse = await app.inject({ method: 'GET', url: `/templates/${id}/dieline?${suffix}` });
    expect(modelResponse.statusCode, modelResponse.body).toBe(200);
    expect(dielineResponse.statusCode, dielineResponse.body).toBe(200);
    const dieline = dielineResponse.json<{ dieline: Dieline }>().dieline;
    const doc = await readGlb(modelResponse.rawPayload);

    const min: V = [Infinity, Infinity, Infinity];
    const max: V = [-Infinity, -Infinity, -Infinity];
    for (const panel of dieline.panels) {
      const points = worldPositionsMm(nodeNamed(doc, panel.id));
      expect(points).toHaveLength(panel.polygon.length);
      // Edge lengths, vertex for vertex in the dieline's order.
      panel.polygon.forEach((a, i) => {
        const b = panel.polygon[(i + 1) % panel.polygon.length]!;
        const flat = Math.hypot(b[0] - a[0], b[1] - a[1]);
        const space = norm(sub(points[(i + 1) % points.length]!, points[i]!));
        expect(Math.abs(space - flat), `${panel.id} edge ${i}`).toBeLessThanOrEqual(TOLERANCE_MM);
      });
      const { area, normal } = spaceArea(points);
      expect(Math.abs(area - flatArea(panel.polygon)), `${panel.id} area`).toBeLessThanOrEqual(TOLERANCE_MM);
      // Flat: every vertex on the panel's plane.
      for (const p of points) {
        const offset = Math.abs(
          normal[0] * (p[0] - points[0]![0]) + normal[1] * (p[1] - points[0]![1]) + normal[2] * (p[2] - points[0]![2]),
        );
        expect(offset).toBeLessThanOrEqual(TOLERANCE_MM);
      }
      for (const p of points) for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, p[k]!);
        max[k] = Math.max(max[k]!, p[k]!);
      }
    }

    // The printed side of the front faces +Z (the outside face's normal attribute, in world space).
    const frontNode = nodeNamed(doc, dieline.style === 'rigid-two-piece' ? 'base-front' : 'front');
    const m = frontNode.getWorldMatrix();
    const local = frontNode.getMesh()!.listPrimitives()[0]!.getAttribute('NORMAL')!.getElement(0, [0, 0, 0]) as V;
    const world: V = [
      m[0] * local[0] + m[4] * local[1] + m[8] * local[2],
      m[1] * local[0] + m[5] * local[1] + m[9] * local[2],
      m[2] * local[0] + m[6] * local[1] + m[10] * local[2],
    ];
    expect(world[2]).toBeCloseTo(1, 6);

    // Standing on y = 0, centred on the Y axis, about the outside size (the lid of a set-up box
    // and the mailer's rolled edges add a few calipers).
    expect(min[1]).toBeCloseTo(0, 3);
    expect(Math.abs(min[0] + max[0])).toBeLessThan(0.01);
    expect(Math.abs(min[2] + max[2])).toBeLessThan(0.01);
    const { outside } = dieline.dimensions;
    const slack = 6 * dieline.thicknessMm + 2;
    expect(Math.abs(max[0] - min[0] - outside.widthMm)).toBeLessThanOrEqual(slack);
    expect(Math.abs(max[2] - min[2] - outside.depthMm)).toBeLessThanOrEqual(slack);
    expect(Math.abs(max[1] - min[1] - outside.heightMm)).toBeLessThanOrEqual(slack);
  });
});
