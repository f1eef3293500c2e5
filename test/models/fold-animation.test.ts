// The `fold` animation of every box model, read back with @gltf-transform and checked by the
// Khronos validator, played as a glTF player plays it and sampled 30 times a second against §19:
// panels hang under the panel they are hinged on and only turn about their crease, every hinge
// stays closed, no panel's mid-surface enters another's board, the blank lies flat with its printed
// side up at t = 0 and the last pose is the default scene's closed box.
import type { Document, Node } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import type { Dieline, Point } from '../../src/dielines/index.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { boards, clipEnd, coversLayer, deepestEntry, hingeCreases, hingeGap, poseAtTime, samplePoints, type Board } from './fold-rules.js';
import { expectValidGlb, readGlb } from './glb.js';

type Vec3 = [number, number, number];
const BOX_TEMPLATES = TEMPLATES.filter((template) => template.kind === 'box');
const SAMPLES_PER_SECOND = 30;
const HINGE_MM = 0.5;

/** The nodes' own transforms, to put the default scene back after sampling. */
function defaults(doc: Document): Map<Node, { t: Vec3; r: [number, number, number, number] }> {
  const pose = (node: Node) => ({ t: node.getTranslation() as Vec3, r: node.getRotation() as [number, number, number, number] });
  return new Map(doc.getRoot().listNodes().map((node) => [node, pose(node)]));
}

describe(`fold animation (${engineName()})`, { timeout: 900_000 }, () => {
  let app: App;
  // The app starts a database: slow on a busy machine.
  beforeAll(async () => {
    app = await createTestApp();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it.each(BOX_TEMPLATES.map((template) => [template.id]))('%s: hinged nodes, closed hinges, ' +
    'no board entered, flat and printed side up at t = 0, closed at the end', async (id) => {
    const model = await app.inject({ method: 'GET', url: `/templates/${id}/model` });
    expect(model.statusCode).toBe(200);
    await expectValidGlb(model.rawPayload);
    const dielineReply = await app.inject({ method: 'GET', url: `/templates/${id}/dieline` });
    const dieline = dielineReply.json<{ dieline: Dieline }>().dieline;
    const t = dieline.thicknessMm;
    const doc = await readGlb(model.rawPayload);
    const root = doc.getRoot();
    expect(root.getDefaultScene()?.getName()).toBe(id);
    const clips = root.listAnimations();
    expect(clips.map((clip) => clip.getName())).toEqual(['fold']);
    const clip = clips[0]!;
    for (const mesh of root.listMeshes()) for (const primitive of mesh.listPrimitives()) expect(primitive.listTargets()).toEqual([]);

    // The hierarchy: every panel under the panel it is hinged on (the crease between them is found
    // on the dieline); hinged panels only turn, piece roots move as well.
    const creases = hingeCreases(dieline, doc);
    const pieces = new Set(dieline.panels.map((panel) => panel.pieceId));
    expect(dieline.panels.length - creases.length).toBe(pieces.size);
    const hinged = new Set(creases.map((crease) => crease.child));
    for (const channel of clip.listChannels()) {
      const name = channel.getTargetNode()!.getName();
      if (hinged.has(name)) expect([name, channel.getTargetPath()]).toEqual([name, 'rotation']);
    }
    expect(new Set(clip.listChannels().map((channel) => channel.getTargetNode()!.getName()))).toEqual(
      new Set(dieline.panels.map((panel) => panel.id)),
    );

    // The default scene is the closed box; the last sample is that pose.
    const scene = defaults(doc);
    const closed = boards(doc, dieline);
    const closedPoints = closed.map((board) => samplePoints(board.panel, 20, 20).map((p) => board.at(p)));
    const layered = new Set(closed.filter((board) => coversLayer(board, closed, t)).map((board) => board.panel.id));
    expectInnerWallsInside(closed, t);
    const end = clipEnd(doc);
    poseAtTime(doc, end);
    boards(doc, dieline).forEach((board, i) => {
      const worst = Math.max(...samplePoints(board.panel, 20, 20).map((p, k) => dist(board.at(p), closedPoints[i]![k]!)));
      expect(worst, `${board.panel.id} at the last key`).toBeLessThanOrEqual(0.01);
    });

    // t = 0: flat, every printed face up.
    poseAtTime(doc, 0);
    const flat = boards(doc, dieline);
    for (const board of flat) expect([board.panel.id, board.printed[1]]).toEqual([board.panel.id, expect.closeTo(1, 6)]);
    const heights = flat.flatMap((board) => board.panel.polygon.map((p) => board.at(p)[1]));
    expect(Math.max(...heights) - Math.min(...heights), 'the flat blank is flat').toBeLessThanOrEqual(2 * t + 0.01);

    // Every sample: hinges closed, no board entered.
    const samples = new Map(dieline.panels.map((panel) => [panel.id, samplePoints(panel)]));
    let worstHinge = { gap: 0, at: 0, panel: '' };
    let worstEntry = { depth: 0, at: 0, what: '' };
    let moved = false;
    for (let k = 0; k <= Math.round(end * SAMPLES_PER_SECOND); k++) {
      const time = Math.min(end, k / SAMPLES_PER_SECOND);
      poseAtTime(doc, time);
      const now = boards(doc, dieline);
      const byId = new Map(now.map((board) => [board.panel.id, board]));
      for (const crease of creases) {
        const gap = hingeGap(crease, byId);
        const allowed = layered.has(crease.child) ? Math.max(HINGE_MM, t + 0.01) : HINGE_MM;
        if (gap - allowed > worstHinge.gap - (layered.has(worstHinge.panel) ? Math.max(HINGE_MM, t + 0.01) : HINGE_MM)) {
          worstHinge = { gap, at: time, panel: crease.child };
        }
      }
      const entry = deepestEntry(now, dieline, samples);
      if (entry && entry.depth > worstEntry.depth) worstEntry = { depth: entry.depth, at: time, what: `${entry.panel} in ${entry.board}` };
      if (k === Math.round((end * SAMPLES_PER_SECOND) / 2)) {
        moved = now.some((board, i) => dist(board.at(board.panel.polygon[0]!), closed[i]!.at(board.panel.polygon[0]!)) > 5);
      }
    }
    const allowed = layered.has(worstHinge.panel) ? Math.max(HINGE_MM, t + 0.01) : HINGE_MM;
    expect(worstHinge.gap, `${id}: ${worstHinge.panel}'s hinge at ${worstHinge.at.toFixed(3)} s`).toBeLessThanOrEqual(allowed);
    expect(worstEntry, `${id}: ${worstEntry.what} at ${worstEntry.at.toFixed(3)} s`).toEqual({ depth: 0, at: 0, what: '' });
    expect(moved, 'half-way is not the closed box').toBe(true);
    for (const [node, { t: translation, r }] of scene) node.setTranslation(translation).setRotation(r);
  });
});

function dist(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/**
 * Inner walls (the mailer's rolled-over walls) lie inside the wall they are rolled from, nearer the
 * box's vertical axis, their boards apart (mid-planes at least one caliper apart).
 */
function expectInnerWallsInside(closed: Board[], t: number): void {
  const byId = new Map(closed.map((board) => [board.panel.id, board]));
  for (const inner of closed.filter((board) => board.panel.role === 'inner-wall')) {
    const rim = byId.get(inner.node.getParentNode()!.getName())!;
    const outer = byId.get(rim.node.getParentNode()!.getName())!;
    const centreOf = (board: Board): Vec3 => {
      const points = board.panel.polygon.map((p: Point) => board.at(p));
      return [0, 1, 2].map((k) => points.reduce((sum, p) => sum + p[k]!, 0) / points.length) as Vec3;
    };
    const horizontal = (p: Vec3) => Math.hypot(p[0], p[2]);
    // Distance along the outer wall's normal between the two mid-planes.
    const n = outer.printed;
    const gap = Math.abs(
      (centreOf(inner)[0] - centreOf(outer)[0]) * n[0] +
        (centreOf(inner)[1] - centreOf(outer)[1]) * n[1] +
        (centreOf(inner)[2] - centreOf(outer)[2]) * n[2],
    );
    expect(horizontal(centreOf(inner)), `${inner.panel.id} inside ${outer.panel.id}`).toBeLessThan(horizontal(centreOf(outer)));
    expect(gap, `${inner.panel.id} clear of ${outer.panel.id}'s board`).toBeGreaterThanOrEqual(t - 0.01);
  }
}
