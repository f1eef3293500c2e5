import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import type { Dieline } from '../../src/dielines/index.js';
import { apiError, issueKey, type IssuedKey } from '../api-keys/keys.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import type { DecodedPng } from '../helpers/png.js';
import { artwork, BLUE, GREEN, twoToneJpeg, uploadJpeg } from '../print/harness.js';
import { decodeTexture, expectNearColour, expectValidGlb, meanUv, nodeNamed, readGlb, worldPositionsMm } from './glb.js';

const ETAG = /^"[A-Za-z0-9_-]{27}"$/;
const BOX_TEMPLATES = TEMPLATES.filter((template) => template.kind === 'box');
const CONTAINER_TEMPLATES = TEMPLATES.filter((template) => template.kind !== 'box');

function expectError(response: LightMyRequestResponse, statusCode: number, message: string): void {
  expect(response.statusCode, response.body).toBe(statusCode);
  expect(response.json()).toEqual(apiError(statusCode, message));
  expect(response.headers.etag).toBeUndefined();
}

describe(`model routes (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  let apiKey: IssuedKey;

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
    apiKey = await issueKey(app, owner);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('GET /templates/:id/model', () => {
    it.each(TEMPLATES.map((template) => [template.id, template.kind] as const))(
      '%s (%s): a valid GLB, zero validator errors and warnings',
      async (id) => {
        const response = await get(`/templates/${id}/model`);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('model/gltf-binary');
        expect(response.headers['cache-control']).toBe('public, max-age=86400');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers.etag).toMatch(ETAG);
        expect(response.headers['content-disposition']).toMatch(new RegExp(`^inline; filename="${id}-[0-9.]+x[0-9.]+x[0-9.]+\\.glb"$`));
        await expectValidGlb(response.rawPayload);
        const doc = await readGlb(response.rawPayload);
        const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0]!;
        expect(scene.listChildren().map((node) => node.getName())).toEqual([id]);
        // Every triangle is wound counter-clockwise seen from the side its normals point to.
        for (const mesh of doc.getRoot().listMeshes()) {
          for (const primitive of mesh.listPrimitives()) {
            const position = primitive.getAttribute('POSITION')!;
            const normal = primitive.getAttribute('NORMAL')!;
            const indices = primitive.getIndices()!.getArray()!;
            const at = (accessor: typeof position, i: number) => accessor.getElement(i, [0, 0, 0]) as [number, number, number];
            let wrong = 0;
            for (let t = 0; t < indices.length; t += 3) {
              const [a, b, c] = [at(position, indices[t]!), at(position, indices[t + 1]!), at(position, indices[t + 2]!)];
              const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
              const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
              const face = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
              const n = [0, 1, 2].map(
                (k) => at(normal, indices[t]!)[k]! + at(normal, indices[t + 1]!)[k]! + at(normal, indices[t + 2]!)[k]!,
              );
              const area = Math.hypot(face[0]!, face[1]!, face[2]!);
              if (area > 1e-12 && face[0]! * n[0]! + face[1]! * n[1]! + face[2]! * n[2]! < 0) wrong++;
            }
            expect(wrong, `${mesh.getName()} triangles wound against their normals`).toBe(0);
          }
        }
      },
    );

    it.each(BOX_TEMPLATES.map((template) => [template.id]))('%s: one node per dieline panel, ' +
      'named by its panelId, hinged under its parent panel', async (id) => {
      const model = await get(`/templates/${id}/model?widthMm=150&depthMm=90&heightMm=100`);
      const dieline = (
        await get(
          `/templates/${id}/dieline?widthMm=150&depthMm=90&heightMm=100&material=${TEMPLATES.find((t) => t.id === id)!.materials[0]}`,
        )
      ).json<{ dieline: Dieline }>().dieline;
      await expectValidGlb(model.rawPayload);
      const doc = await readGlb(model.rawPayload);
      // Panels hang from the panel they hinge on: every descendant of the root is a panel.
      const names: string[] = [];
      const root = nodeNamed(doc, id);
      root.traverse((node) => {
        if (node !== root) names.push(node.getName());
      });
      expect(names.sort()).toEqual(dieline.panels.map((panel) => panel.id).sort());
    });

    it.each(CONTAINER_TEMPLATES.map((template) => [template.id]))('%s: a named label region with UVs', async (id) => {
      const doc = await readGlb((await get(`/templates/${id}/model`)).rawPayload);
      const label = nodeNamed(doc, 'label');
      const primitive = label.getMesh()!.listPrimitives()[0]!;
      // Without a texture the UVs are left out (nothing samples them); the project route adds them.
      expect(primitive.getMaterial()!.getName()).toMatch(/^print-/);
    });

    it('answers 304 to its own ETag and a new ETag for another size, material or finish', async () => {
      const first = await get('/templates/mailer-box/model');
      const again = await get('/templates/mailer-box/model', { 'if-none-match': first.headers.etag as string });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(first.headers.etag);
      const etags = new Set([first.headers.etag]);
      for (const query of ['widthMm=310', 'material=kraft', 'finish=gloss', 'thicknessMm=4']) {
        const other = await get(`/templates/mailer-box/model?${query}`);
        expect(other.statusCode, other.body).toBe(200);
        etags.add(other.headers.etag);
      }
      expect(etags.size).toBe(5);
    });

    it('maps material and finish to PBR parameters (glass transmits, aluminium is metal, foil is metallic)', async () => {
      const bottle = await readGlb((await get('/templates/round-bottle/model?material=glass')).rawPayload);
      const glass = bottle.getRoot().listMaterials().find((m) => m.getName() === 'glass')!;
      expect(glass.getExtension('KHR_materials_transmission')).not.toBeNull();
      const can = await readGlb((await get('/templates/beverage-can/model')).rawPayload);
      expect(can.getRoot().listMaterials().find((m) => m.getName() === 'aluminium')!.getMetallicFactor()).toBe(1);
      const foilTemplate = TEMPLATES.find((t) => (t.finishes as string[]).includes('foil'));
      if (foilTemplate) {
        const foil = await readGlb((await get(`/templates/${foilTemplate.id}/model?finish=foil`)).rawPayload);
        expect(foil.getRoot().listMaterials().find((m) => m.getName() === 'print-foil')!.getMetallicFactor()).toBe(1);
      }
      const gloss = TEMPLATES.find((t) => (t.finishes as string[]).includes('gloss'))!;
      const glossy = await readGlb((await get(`/templates/${gloss.id}/model?finish=gloss`)).rawPayload);
      expect(glossy.getRoot().listMaterials().find((m) => m.getName() === 'print-gloss')!.getRoughnessFactor()).toBeLessThan(0.5);
    });

    it('refuses what it cannot build: unknown template, sizes, material and finish not offered', async () => {
      expectError(await get('/templates/nope/model'), 404, "Template 'nope' was not found.");
      expectError(
        await get('/templates/mailer-box/model?widthMm=20'),
        400,
        'widthMm 20 mm is too small for a roll-end mailer: the minimum is 80 mm.',
      );
      expectError(
        await get('/templates/round-bottle/model?widthMm=500'),
        400,
        'widthMm 500 mm is too large for a bottle model: the maximum is 200 mm.',
      );
      expectError(
        await get('/templates/mailer-box/model?material=glass'),
        400,
        "Material 'glass' is not available for template 'mailer-box'.",
      );
      const noFoil = TEMPLATES.find((t) => !(t.finishes as string[]).includes('foil'))!;
      expectError(
        await get(`/templates/${noFoil.id}/model?finish=foil`),
        400,
        `Finish 'foil' is not available for template '${noFoil.id}'.`,
      );
      expect((await get('/templates/mailer-box/model?format=svg')).statusCode).toBe(400);
    });
  });

  describe('GET /v1/templates/:id/model', () => {
    it('needs a key and answers the same bytes with private caching', async () => {
      expectError(await get('/v1/templates/mailer-box/model'), 401, 'Missing x-api-key header.');
      const keyed = await get('/v1/templates/mailer-box/model', { 'x-api-key': apiKey.key });
      const open = await get('/templates/mailer-box/model');
      expect(keyed.statusCode).toBe(200);
      expect(keyed.headers['cache-control']).toBe('private, max-age=86400');
      expect(keyed.headers.etag).toBe(open.headers.etag);
      expect(Buffer.compare(keyed.rawPayload, open.rawPayload)).toBe(0);
    });
  });

  describe('GET /projects/:id/model', () => {
    /** The texture's pixel at the mean UV of a panel's vertices (its centre on the printed blank). */
    function textureAtPanelCentre(doc: Awaited<ReturnType<typeof readGlb>>, panelId: string, png: DecodedPng) {
      const [u, v] = meanUv(doc, panelId);
      return png.pixel(u * png.width, v * png.height);
    }

    async function createProject(account: TestAccount, templateId: string, artworkJson: Record<string, unknown>) {
      const template = TEMPLATES.find((t) => t.id === templateId)!;
      const response = await app.inject({
        method: 'POST',
        url: '/projects',
        headers: account.auth,
        payload: { name: `3D ${templateId}`, templateId, ...template.defaultDimensions, artworkJson },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ project: { id: string } }>().project.id;
    }

    it('carries the design: the background colour is the texture on the front panel', async () => {
      const id = await createProject(owner, 'mailer-box', { background: { kind: 'color', value: '#d0342c' }, finish: 'matte' });
      const response = await get(`/projects/${id}/model?textureSize=512`, owner.auth);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-cache');
      await expectValidGlb(response.rawPayload);
      const doc = await readGlb(response.rawPayload);
      const [texture] = doc.getRoot().listTextures();
      const png = await decodeTexture(texture!.getImage()!);
      expect(Math.max(png.width, png.height)).toBe(512);
      const front = nodeNamed(doc, 'front').getMesh()!.listPrimitives()[0]!;
      expect(front.getMaterial()!.getBaseColorTexture()).toBe(texture);
      // The UV of the front panel's centre samples the design colour.
      expectNearColour(textureAtPanelCentre(doc, 'front', png), [0xd0, 0x34, 0x2c, 255], 6);

      const again = await get(`/projects/${id}/model?textureSize=512`, { ...owner.auth, 'if-none-match': response.headers.etag as string });
      expect(again.statusCode).toBe(304);
      const bigger = await get(`/projects/${id}/model`, owner.auth);
      expect(bigger.headers.etag).not.toBe(response.headers.etag);
      const png2048 = await decodeTexture((await readGlb(bigger.rawPayload)).getRoot().listTextures()[0]!.getImage()!);
      expect(Math.max(png2048.width, png2048.height)).toBe(2048);
    });

    /** A mailer box of a new account: white, with a blue image on its front panel. */
    async function blueImageOnFront() {
      const designer = await registerAccount(app);
      const imageUrl = await uploadJpeg(app, designer, await twoToneJpeg(400, 400, BLUE, BLUE));
      const id = await createProject(designer, 'mailer-box', {
        background: { kind: 'color', value: '#ffffff' },
        artworks: [artwork('art-1', 'front', imageUrl, { scale: 0.5 })],
      });
      return { designer, imageUrl, id };
    }

    it("wears the project's print: an image placed on the front panel is on the model's front face", async () => {
      const { designer, id } = await blueImageOnFront();
      const response = await get(`/projects/${id}/model?textureSize=1024`, designer.auth);
      expect(response.statusCode, response.body).toBe(200);
      await expectValidGlb(response.rawPayload);
      const doc = await readGlb(response.rawPayload);
      const png = await decodeTexture(doc.getRoot().listTextures()[0]!.getImage()!);
      const uvCentre = (name: string) => textureAtPanelCentre(doc, name, png);
      const [r, g, b] = uvCentre('front');
      expect(b).toBeGreaterThan(200);
      expect(r).toBeLessThan(60);
      expect(g).toBeLessThan(60);
      // Another panel keeps the white background, and no dieline line is drawn into the texture.
      expectNearColour(uvCentre('back'), [255, 255, 255], 3);
    });

    it('changes when an image it wears is deleted: the new model is built without it', async () => {
      const { designer, imageUrl, id } = await blueImageOnFront();
      const url = `/projects/${id}/model?textureSize=512`;
      const before = await get(url, designer.auth);
      expect(before.statusCode, before.body).toBe(200);
      expect((await get(url, { ...designer.auth, 'if-none-match': before.headers.etag as string })).statusCode).toBe(304);

      const assetName = imageUrl.split('/').pop()!;
      const assets = (await get('/assets', designer.auth)).json<{ assets: Array<{ id: string; name: string }> }>().assets;
      const assetId = assets.find((asset) => asset.name === assetName)!.id;
      const deleted = await app.inject({ method: 'DELETE', url: `/assets/${assetId}`, headers: designer.auth });
      expect(deleted.statusCode, deleted.body).toBe(204);

      const after = await get(url, { ...designer.auth, 'if-none-match': before.headers.etag as string });
      expect(after.statusCode, after.body).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const doc = await readGlb(after.rawPayload);
      const png = await decodeTexture(doc.getRoot().listTextures()[0]!.getImage()!);
      expectNearColour(textureAtPanelCentre(doc, 'front', png), [255, 255, 255], 3);
    });

    it('changes when the design changes, and containers get a label texture', async () => {
      const id = await createProject(owner, 'round-bottle', {
        background: { kind: 'color', value: 'rgb(0, 128, 255)' },
        material: 'glass',
      });
      const first = await get(`/projects/${id}/model?textureSize=256`, owner.auth);
      expect(first.statusCode, first.body).toBe(200);
      await expectValidGlb(first.rawPayload);
      const doc = await readGlb(first.rawPayload);
      const labelMaterial = nodeNamed(doc, 'label').getMesh()!.listPrimitives()[0]!.getMaterial()!;
      expectNearColour((await decodeTexture(labelMaterial.getBaseColorTexture()!.getImage()!)).pixel(10, 10), [0, 128, 255, 255], 6);
      const update = await app.inject({
        method: 'PUT',
        url: `/projects/${id}`,
        headers: owner.auth,
        payload: { artworkJson: { background: { kind: 'color', value: '#fff' } } },
      });
      expect(update.statusCode, update.body).toBe(200);
      const second = await get(`/projects/${id}/model?textureSize=256`, { ...owner.auth, 'if-none-match': first.headers.etag as string });
      expect(second.statusCode).toBe(200);
      expect(second.headers.etag).not.toBe(first.headers.etag);
    });

    /** The label's UV where it faces +Z at mid-height: the vertices on the front meridian (x = 0, z ≥ 0). */
    function labelFrontUv(doc: Awaited<ReturnType<typeof readGlb>>): [number, number] {
      const label = nodeNamed(doc, 'label');
      const uv = label.getMesh()!.listPrimitives()[0]!.getAttribute('TEXCOORD_0')!;
      const front = worldPositionsMm(label)
        .map((p, i) => ({ p, uv: uv.getElement(i, [0, 0]) as [number, number] }))
        .filter(({ p }) => Math.abs(p[0]) < 1e-3 && p[2] >= 0);
      expect(front.length).toBeGreaterThan(1);
      const vs = front.map((entry) => entry.uv[1]);
      return [front.reduce((sum, entry) => sum + entry.uv[0], 0) / front.length, (Math.min(...vs) + Math.max(...vs)) / 2];
    }

    it.each(CONTAINER_TEMPLATES.map((template) => [template.id, template.kind] as const))(
      "%s (%s): the label wears the print's layers, the artwork on the front where the mesh faces +Z",
      async (id, kind) => {
        const designer = await registerAccount(app);
        const green = await uploadJpeg(app, designer, await twoToneJpeg(300, 300, GREEN, GREEN));
        const blue = await uploadJpeg(app, designer, await twoToneJpeg(300, 300, BLUE, BLUE));
        const projectId = await createProject(designer, id, {
          background: { kind: 'gradient', value: 'linear-gradient(90deg, #ff0000, #ffff00)' },
          artworks: [
            artwork('art-front', 'front', green, { scale: 0.3 }),
            // Centred on the seam at the back: it wraps, showing at both edges of the label.
            artwork('art-back', 'back', blue, { scale: 0.3 }),
            // Not one of the designer's assets: left out, never an error.
            artwork('art-missing', 'label', '/files/00000000-0000-4000-8000-000000000000.png', { scale: 1 }),
          ],
        });
        const response = await get(`/projects/${projectId}/model?textureSize=512`, designer.auth);
        expect(response.statusCode, response.body).toBe(200);
        await expectValidGlb(response.rawPayload);
        const doc = await readGlb(response.rawPayload);
        const texture = nodeNamed(doc, 'label').getMesh()!.listPrimitives()[0]!.getMaterial()!.getBaseColorTexture()!;
        const png = await decodeTexture(texture.getImage()!);
        expect(Math.max(png.width, png.height)).toBe(512);
        const at = (u: number, v: number) =>
          png.pixel(Math.min(png.width - 1, u * png.width), Math.min(png.height - 1, v * png.height)).slice(0, 3);
        const near = (actual: number[], expected: number[], label: string) =>
          expect(actual.some((c, i) => Math.abs(c - expected[i]!) > 40) ? actual : expected, label).toEqual(expected);

        const [u, v] = labelFrontUv(doc);
        expect(u).toBeCloseTo(0.5, 2);
        near(at(u, v), [0, 255, 0], 'front artwork at the front of the mesh');
        // The gradient runs left to right around the label: a quarter and three quarters along.
        near(at(0.25, v), [255, 64, 0], 'gradient at u = 0.25');
        near(at(0.75, v), [255, 191, 0], 'gradient at u = 0.75');
        if (kind === 'pouch') {
          // The pouch prints its front face only: no back panel, the gradient reaches both edges.
          near(at(0.01, v), [255, 3, 0], 'gradient at the left edge');
          near(at(0.99, v), [255, 252, 0], 'gradient at the right edge');
        } else {
          near(at(0.01, v), [0, 0, 255], 'back artwork right of the seam');
          near(at(0.99, v), [0, 0, 255], 'back artwork left of the seam');
        }
      },
    );

    it('a container with an image background wears the image on its label', async () => {
      const designer = await registerAccount(app);
      const blue = await uploadJpeg(app, designer, await twoToneJpeg(200, 100, BLUE, BLUE));
      const projectId = await createProject(designer, 'beverage-can', { background: { kind: 'image', value: blue } });
      const response = await get(`/projects/${projectId}/model?textureSize=256`, designer.auth);
      expect(response.statusCode, response.body).toBe(200);
      await expectValidGlb(response.rawPayload);
      const png = await decodeTexture((await readGlb(response.rawPayload)).getRoot().listTextures()[0]!.getImage()!);
      for (const [x, y] of [[0.1, 0.1], [0.5, 0.5], [0.9, 0.9]] as const) {
        const [r, g, b] = png.pixel(x * png.width, y * png.height);
        expect([r < 40, g < 40, b > 215], `${r},${g},${b}`).toEqual([true, true, true]);
      }
    });

    it('without a colour background the model has no texture; bounds, auth and ownership hold', async () => {
      const id = await createProject(owner, 'rsc-box', {});
      const plain = await get(`/projects/${id}/model`, owner.auth);
      expect(plain.statusCode).toBe(200);
      expect((await readGlb(plain.rawPayload)).getRoot().listTextures()).toEqual([]);
      expect((await get(`/projects/${id}/model?textureSize=255`, owner.auth)).statusCode).toBe(400);
      expect((await get(`/projects/${id}/model?textureSize=4097`, owner.auth)).statusCode).toBe(400);
      expect((await get(`/projects/${id}/model`)).statusCode).toBe(401);
      const stranger = await registerAccount(app);
      expect((await get(`/projects/${id}/model`, stranger.auth)).statusCode).toBe(404);
    });
  });
});
