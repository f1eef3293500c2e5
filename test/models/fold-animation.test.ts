// The `fold` animation of every box model, read back with @gltf-transform and checked by the
// Khronos validator: flat blanks at t = 0, the default scene's closed pose at the last keyframe.
import type { Document, Node } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import type { Dieline } from '../../src/dielines/index.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { expectValidGlb, readGlb } from './glb.js';

type Vec3 = [number, number, number];
const BOX_TEMPLATES = TEMPLATES.filter((template) => template.kind === 'box');

/** Every vertex of every primitive of a node, in millimetres, under the node's current world matrix. */
function verticesMm(node: Node): Vec3[] {
  const m = node.getWorldMatrix();
  const points: Vec3[] = [];
  for (const primitive of node.getMesh()!.listPrimitives()) {
    const accessor = primitive.getAttribute('POSITION')!;
    for (let i = 0; i < accessor.getCount(); i++) {
      const [x, y, z] = accessor.getElement(i, [0, 0, 0]) as Vec3;
      points.push([(m[0] * x + m[4] * y + m[8] * z + m[12]) * 1000, (m[1] * x + m[5] * y + m[9] * z + m[13]) * 1000, (m[2] * x + m[6] * y + m[10] * z + m[14]) * 1000]);
    }
  }
  return points;
}

/** Poses every animated node at keyframe `index` (all samplers share one time accessor). */
function poseAt(doc: Document, index: number): void {
  const clip = doc.getRoot().listAnimations().find((animation) => animation.getName() === 'fold')!;
  for (const channel of clip.listChannels()) {
    const output = channel.getSampler()!.getOutput()!;
    const node = channel.getTargetNode()!;
    if (channel.getTargetPath() === 'rotation') node.setRotation(output.getElement(index, [0, 0, 0, 0]) as [number, number, number, number]);
    else node.setTranslation(output.getElement(index, [0, 0, 0]) as Vec3);
  }
}

describe(`fold animation (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(BOX_TEMPLATES.map((template) => [template.id]))('%s: flat blank at t = 0, the closed pose at the end', async (id) => {
    const model = await app.inject({ method: 'GET', url: `/templates/${id}/model` });
    expect(model.statusCode).toBe(200);
    await expectValidGlb(model.rawPayload);
    const dielineReply = await app.inject({ method: 'GET', url: `/templates/${id}/dieline` });
    const dieline = dielineReply.json<{ dieline: Dieline }>().dieline;
    const doc = await readGlb(model.rawPayload);
    const root = doc.getRoot();

    expect(root.getDefaultScene()?.getName()).toBe(id);
    const clips = root.listAnimations();
    expect(clips.map((clip) => clip.getName())).toEqual(['fold']);
    const clip = clips[0]!;
    for (const mesh of root.listMeshes()) for (const primitive of mesh.listPrimitives()) expect(primitive.listTargets()).toEqual([]);
    expect(new Set(clip.listChannels().map((channel) => channel.getTargetPath()))).toEqual(new Set(['rotation', 'translation']));
    const times = clip.listSamplers()[0]!.getInput()!;
    expect(times.getElement(0, [0])[0]).toBe(0);
    const last = times.getCount() - 1;
    expect(times.getElement(last, [0])[0]).toBeGreaterThan(1);

    // Every panel node is animated, and nothing else.
    const panelNodes = dieline.panels.map((panel) => root.listNodes().find((node) => node.getName() === panel.id)!);
    const animated = new Set(clip.listChannels().map((channel) => channel.getTargetNode()!.getName()));
    expect(animated).toEqual(new Set(dieline.panels.map((panel) => panel.id)));

    const closed = panelNodes.map(verticesMm);
    poseAt(doc, last);
    panelNodes.forEach((node, i) => {
      const now = verticesMm(node);
      const worst = Math.max(...now.map((p, k) => Math.hypot(p[0] - closed[i]![k]![0], p[1] - closed[i]![k]![1], p[2] - closed[i]![k]![2])));
      expect(worst, `${node.getName()} at the last keyframe`).toBeLessThanOrEqual(0.5);
    });

    poseAt(doc, 0);
    const tolerance = 3 * dieline.thicknessMm;
    for (const pieceId of new Set(dieline.panels.map((panel) => panel.pieceId))) {
      const pieceNodes = panelNodes.filter((_, i) => dieline.panels[i]!.pieceId === pieceId);
      const reference = pieceNodes[0]!;
      const m = reference.getWorldMatrix();
      const normal: Vec3 = [m[8], m[9], m[10]];
      const origin: Vec3 = [m[12] * 1000, m[13] * 1000, m[14] * 1000];
      for (const node of pieceNodes) {
        const off = Math.max(...verticesMm(node).map((p) => Math.abs((p[0] - origin[0]) * normal[0] + (p[1] - origin[1]) * normal[1] + (p[2] - origin[2]) * normal[2])));
        expect(off, `${id} piece ${pieceId}: ${node.getName()} off the blank's plane at t = 0`).toBeLessThanOrEqual(tolerance);
      }
    }
    // Folding moves things: half-way is neither flat nor closed.
    poseAt(doc, Math.floor(last / 2));
    const moved = panelNodes.some((node, i) => verticesMm(node).some((p, k) => Math.hypot(p[0] - closed[i]![k]![0], p[1] - closed[i]![k]![1], p[2] - closed[i]![k]![2]) > 5));
    expect(moved).toBe(true);
  });
});
