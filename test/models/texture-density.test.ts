// Texture density of the box models (§19): at textureSize=4096 the print is an atlas of the panels,
// every panel at 8 px per mm at least, or, where the panels cannot hold that in one 4096² texture,
// at least the density a 4096² atlas gives at 85 % packing. Measured from the model alone: the texels
// a panel's UVs span against the millimetres its vertices span.
import type { Document } from '@gltf-transform/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { generateDieline, generateWrap, hasParts } from '../../src/dielines/index.js';
import { modelParts } from '../../src/models/index.js';
import { atlasUv, type TextureAtlas } from '../../src/print/atlas.js';
import { placeDesign, renderPreviewPng } from '../../src/print/index.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { createProject } from '../print/harness.js';
import { registerProAccount } from '../projects/fixtures.js';
import { decodeTexture, expectValidGlb, readGlb } from './glb.js';

const SIZE = 4096;
const RULE_PX_PER_MM = 8;
const PACKING = 0.85;
const BOXES = TEMPLATES.filter((template) => template.kind === 'box');

interface PanelDensity {
  panel: string;
  /** Texels per mm along the panel's triangle edges: least and most. */
  min: number;
  max: number;
  /** The panel's bounding box in its own plane, mm². */
  areaMm2: number;
}

/** Every printed panel's density: each triangle edge's length in texels over its length in mm. */
function panelDensities(doc: Document, sizePx: number): PanelDensity[] {
  const out: PanelDensity[] = [];
  for (const node of doc.getRoot().listNodes()) {
    const primitive = node.getMesh()?.listPrimitives()[0];
    const uv = primitive?.getAttribute('TEXCOORD_0');
    if (!primitive || !uv) continue;
    const position = primitive.getAttribute('POSITION')!;
    const indices = primitive.getIndices()!;
    // A panel lies in its node's x–y plane (metres).
    const at = (i: number) => position.getElement(i, [0, 0, 0]).map((value) => value * 1000);
    const texel = (i: number) => uv.getElement(i, [0, 0]).map((value) => value * sizePx);
    let min = Infinity;
    let max = 0;
    for (let t = 0; t < indices.getCount(); t += 3) {
      const corners = [indices.getScalar(t), indices.getScalar(t + 1), indices.getScalar(t + 2)];
      corners.forEach((a, k) => {
        const b = corners[(k + 1) % 3]!;
        const [pa, pb, ta, tb] = [at(a), at(b), texel(a), texel(b)];
        const mm = Math.hypot(pb[0]! - pa[0]!, pb[1]! - pa[1]!, pb[2]! - pa[2]!);
        if (mm < 1) return;
        const density = Math.hypot(tb[0]! - ta[0]!, tb[1]! - ta[1]!) / mm;
        min = Math.min(min, density);
        max = Math.max(max, density);
      });
    }
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < position.getCount(); i++) {
      const [x, y] = at(i);
      xs.push(x!);
      ys.push(y!);
    }
    const areaMm2 = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
    out.push({ panel: node.getName(), min, max, areaMm2 });
  }
  return out;
}

let app: App;
let owner: TestAccount;
beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
});
afterAll(() => app.close());

describe(`box texture density at textureSize=${SIZE} (${engineName()})`, () => {
  const title = '%s: every panel at 8 px/mm, or the density of an atlas packed at 85 percent';
  it.each(BOXES.map((template) => [template.id]))(title, async (templateId) => {
    const template = BOXES.find((candidate) => candidate.id === templateId)!;
    const design = { background: { kind: 'color', value: '#2c6fd0' } };
    const id = await createProject(app, owner, templateId, design, template.defaultDimensions);
    const response = await app.inject({ method: 'GET', url: `/projects/${id}/model?textureSize=${SIZE}`, headers: owner.auth });
    expect(response.statusCode, response.body).toBe(200);
    await expectValidGlb(response.rawPayload);
    const doc = await readGlb(response.rawPayload);
    const textures = doc.getRoot().listTextures();
    expect(textures).toHaveLength(1);
    const meta = await sharp(textures[0]!.getImage()!).metadata();
    expect([meta.width, meta.height]).toEqual([SIZE, SIZE]);

    const panels = panelDensities(doc, SIZE);
    const fold = modelParts({ templateId, kind: 'box', dimensions: template.defaultDimensions, material: template.materials[0]! });
    expect(panels.map((panel) => panel.panel).sort()).toEqual(fold.parts.map((part) => part.name).sort());
    const packed = Math.sqrt((PACKING * SIZE * SIZE) / panels.reduce((sum, panel) => sum + panel.areaMm2, 0));
    const required = Math.min(RULE_PX_PER_MM, packed);
    for (const panel of panels) {
      expect(panel.min, `${templateId} ${panel.panel}`).toBeGreaterThanOrEqual(required);
      // One scale on every panel and in every direction: no stretch.
      expect(panel.max / panel.min, `${templateId} ${panel.panel}`).toBeLessThan(1.002);
    }
    const least = Math.min(...panels.map((panel) => panel.min));
    const most = Math.max(...panels.map((panel) => panel.max));
    expect(most / least).toBeLessThan(1.002);
  });
});

describe('the atlas shows each panel its own region of the printed sheet', () => {
  /** Colour at a point of a raw RGB(A) image, nearest texel. */
  async function sampler(png: Buffer) {
    const decoded = await decodeTexture(png);
    return (x: number, y: number) =>
      decoded.pixel(Math.min(decoded.width - 1, Math.max(0, x)), Math.min(decoded.height - 1, Math.max(0, y))).slice(0, 3);
  }

  it.each([['mailer-box'], ['rsc-box'], ['rigid-lid-box'], ['auto-bottom-box']])(
    '%s: inside every panel the atlas texel is the sheet texel (turned cells included)',
    async (templateId) => {
      const template = BOXES.find((candidate) => candidate.id === templateId)!;
      const dimensions = template.defaultDimensions;
      const material = template.materials[0]!;
      const board = generateDieline(templateId, dimensions, { material });
      const sheet = hasParts(templateId) ? generateWrap(templateId, dimensions, { thicknessMm: board.thicknessMm }) : board;
      const state = { background: { kind: 'gradient', value: 'linear-gradient(30deg, #ff0000, #00ff00 50%, #0000ff)' } };
      const placement = placeDesign({ dieline: sheet, state: state as never, assets: new Map() });
      const { atlas, parts } = modelParts({ templateId, kind: 'box', dimensions, material, textureSize: 1024 });
      expect(atlas!.cells.some((cell) => cell.rotated)).toBe(true);
      const sheetPxPerMm = 2;
      const flat = await sampler(
        await renderPreviewPng(placement, sheet.blank.width * sheetPxPerMm, { area: 'blank', dielineLines: false }),
      );
      const packed = await sampler(await renderPreviewPng(placement, 1024, { dielineLines: false, atlas: atlas! }));
      for (const part of parts) {
        const cell = atlas!.cells.find((candidate) => candidate.id === part.name)!;
        for (const [fx, fy] of [[0.3, 0.3], [0.7, 0.3], [0.5, 0.5], [0.3, 0.7], [0.7, 0.7]] as const) {
          const point = insideCell(atlas!, cell, fx, fy);
          const [u, v] = atlasUv(atlas!, cell, point);
          const expected = flat(point[0] * sheetPxPerMm, point[1] * sheetPxPerMm);
          const actual = packed(u * atlas!.sizePx, v * atlas!.sizePx);
          const off = expected.some((value, i) => Math.abs(value - actual[i]!) > 16);
          expect(off ? actual : expected, `${part.name} at ${fx}, ${fy}`).toEqual(expected);
        }
      }
    },
  );
});

/** A sheet point (mm) a fraction across the cell's region, inside its gutter. */
function insideCell(atlas: TextureAtlas, cell: TextureAtlas['cells'][number], fx: number, fy: number): [number, number] {
  const gutterMm = atlas.gutterPx / atlas.pxPerMm;
  const { x, y, width, height } = cell.source;
  return [x + gutterMm + fx * (width - 2 * gutterMm), y + gutterMm + fy * (height - 2 * gutterMm)];
}
