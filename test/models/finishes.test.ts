// Finishes on the 3D model: where nothing prints the substrate shows (kraft stays kraft under any
// artwork), foil is metallic only inside its mask (the metallic-roughness texture), emboss raises
// its mask (a normal texture); the preview shows foil flat and the substrate around the print.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { App } from '../../src/app.js';
import { generateDieline } from '../../src/dielines/index.js';
import { modelParts } from '../../src/models/index.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { uploadAsset } from '../assets/helpers.js';
import { artwork, createProject } from '../print/harness.js';
import { decodeTexture, expectNearColour, expectValidGlb, meanUv, readGlb } from './glb.js';

const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };
const KRAFT = [0xb4, 0x8a, 0x5c];
const SCALE = 0.3;

let app: App;
let owner: TestAccount;
let disc: string;

async function discPng(): Promise<Buffer> {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><circle cx="200" cy="200" r="150" fill="#0f6b63"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function get(url: string) {
  return app.inject({ method: 'GET', url, headers: owner.auth });
}

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  disc = `/files/${(await uploadAsset(app, owner, await discPng(), { filename: 'disc.png', contentType: 'image/png' })).name}`;
});
afterAll(() => app.close());

describe(`finishes on the model and the preview (${engineName()})`, () => {
  it('a kraft mailer with a foil logo: kraft where nothing prints, metallic only inside the foil', async () => {
    const design = {
      material: 'kraft',
      finish: 'matte',
      artworks: [{ ...artwork('logo', 'lid', disc, { scale: SCALE }), effect: 'foil-gold' }],
    };
    const id = await createProject(app, owner, 'mailer-box', design, MAILER);
    const response = await get(`/projects/${id}/model?textureSize=1024`);
    expect(response.statusCode, response.body).toBe(200);
    await expectValidGlb(response.rawPayload);
    const doc = await readGlb(response.rawPayload);
    const material = doc.getRoot().listMaterials().find((m) => m.getBaseColorTexture())!;
    expect(material.getBaseColorFactor()).toEqual([1, 1, 1, 1]);
    const base = await decodeTexture(material.getBaseColorTexture()!.getImage()!);
    const surface = await decodeTexture(material.getMetallicRoughnessTexture()!.getImage()!);
    const at = (texture: typeof base, [u, v]: [number, number]) => texture.pixel(u * texture.width, v * texture.height);

    // Unprinted panels keep the kraft colour; the foil shows gold, metallic and smooth.
    for (const panel of ['bottom', 'front', 'left']) expectNearColour(at(base, meanUv(doc, panel)).slice(0, 3), KRAFT, 10, panel);
    const logo = meanUv(doc, 'lid');
    expect(at(surface, logo)[2]).toBeGreaterThanOrEqual(0.9 * 255);

    // Every other texel is non-metallic: the metallic texels are the disc, no more.
    const { atlas } = modelParts({ templateId: 'mailer-box', kind: 'box', dimensions: MAILER, material: 'kraft', textureSize: 1024 });
    const pxPerMm = atlas!.pxPerMm;
    const lidWidth = generateDieline('mailer-box', MAILER).panels.find((panel) => panel.id === 'lid')!.frame.width;
    const radiusPx = ((SCALE * lidWidth * 150) / 400) * pxPerMm;
    let metallic = 0;
    let between = 0;
    for (let i = 0; i < surface.pixels.length; i += 4) {
      const value = surface.pixels[i + 2]!;
      if (value >= 0.9 * 255) metallic++;
      else if (value > 0.1 * 255) between++;
    }
    const discArea = Math.PI * radiusPx * radiusPx;
    expect(metallic / discArea).toBeGreaterThan(0.85);
    expect(metallic / discArea).toBeLessThan(1.15);
    // Anti-aliased rim only.
    expect(between).toBeLessThan(2 * Math.PI * radiusPx * 2);
  });

  it('emboss adds a normal texture; a design without effects has neither map', async () => {
    const embossed = await createProject(
      app,
      owner,
      'mailer-box',
      { artworks: [{ ...artwork('mark', 'lid', disc, { scale: SCALE }), effect: 'emboss' }] },
      MAILER,
    );
    const response = await get(`/projects/${embossed}/model?textureSize=512`);
    expect(response.statusCode).toBe(200);
    await expectValidGlb(response.rawPayload);
    const doc = await readGlb(response.rawPayload);
    const material = doc.getRoot().listMaterials().find((m) => m.getBaseColorTexture())!;
    const normal = await decodeTexture(material.getNormalTexture()!.getImage()!);
    // Flat (128, 128, 255) at the disc's centre and far from it, tilted on its rim.
    const [u, v] = meanUv(doc, 'lid');
    expectNearColour(normal.pixel(u * normal.width, v * normal.height).slice(0, 3), [128, 128, 255], 4, 'centre');
    let tilted = 0;
    for (let i = 0; i < normal.pixels.length; i += 4) {
      if (Math.abs(normal.pixels[i]! - 128) > 20 || Math.abs(normal.pixels[i + 1]! - 128) > 20) tilted++;
    }
    expect(tilted).toBeGreaterThan(50);
    expect(material.getMetallicRoughnessTexture()).toBeNull();

    const plain = await createProject(app, owner, 'mailer-box', { artworks: [artwork('mark', 'lid', disc, { scale: SCALE })] }, MAILER);
    const plainDoc = await readGlb((await get(`/projects/${plain}/model?textureSize=512`)).rawPayload);
    const plainMaterial = plainDoc.getRoot().listMaterials().find((m) => m.getBaseColorTexture())!;
    expect(plainMaterial.getNormalTexture()).toBeNull();
    expect(plainMaterial.getMetallicRoughnessTexture()).toBeNull();
  });

  it('the preview shows foil as its flat colour and the kraft around the print', async () => {
    const id = await createProject(
      app,
      owner,
      'mailer-box',
      { material: 'kraft', artworks: [{ ...artwork('logo', 'lid', disc, { scale: SCALE }), effect: 'foil-silver' }] },
      MAILER,
    );
    const response = await get(`/projects/${id}/preview?width=800`);
    expect(response.statusCode, response.body).toBe(200);
    const png = await decodeTexture(response.rawPayload);
    const dieline = generateDieline('mailer-box', MAILER);
    const k = 800 / dieline.artboard.width;
    const at = ([x, y]: readonly number[]) => png.pixel((x! - dieline.artboard.x) * k, (y! - dieline.artboard.y) * k);
    expectNearColour(at(dieline.panels.find((panel) => panel.id === 'lid')!.frame.center).slice(0, 3), [0xc0, 0xc0, 0xc8], 6, 'foil');
    expectNearColour(at(dieline.panels.find((panel) => panel.id === 'bottom')!.frame.center).slice(0, 3), KRAFT, 6, 'kraft');
  });
  it('clear film without white ink: the print blends, transparent where nothing prints and the ink translucent', async () => {
    const design = { material: 'glass', finish: 'gloss', artworks: [artwork('logo', 'front', disc, { scale: SCALE })] };
    const id = await createProject(app, owner, 'round-bottle', design, { widthMm: 70, depthMm: 70, heightMm: 230 });
    const printOf = async (url: string) => {
      const response = await get(url);
      expect(response.statusCode, response.body).toBe(200);
      await expectValidGlb(response.rawPayload);
      const doc = await readGlb(response.rawPayload);
      const materials = doc.getRoot().listMaterials();
      const print = materials.find((m) => m.getBaseColorTexture())!;
      return { etag: response.headers.etag, print, labelBack: materials.find((m) => m.getName().includes('label-back'))! };
    };

    // On glass `auto` is a white underlay: an opaque JPEG print and a paper back, as `underlay` gives.
    const opaque = await printOf(`/projects/${id}/model?textureSize=512`);
    expect(opaque.print.getAlphaMode()).toBe('OPAQUE');
    expect(opaque.print.getBaseColorTexture()!.getMimeType()).toBe('image/jpeg');
    expect(opaque.labelBack.getAlphaMode()).toBe('OPAQUE');
    expect((await printOf(`/projects/${id}/model?textureSize=512&white=underlay`)).etag).toBe(opaque.etag);

    const clear = await printOf(`/projects/${id}/model?textureSize=512&white=none`);
    expect(clear.etag).not.toBe(opaque.etag);
    expect(clear.print.getAlphaMode()).toBe('BLEND');
    expect(clear.print.getBaseColorTexture()!.getMimeType()).toBe('image/png');
    expect(clear.labelBack.getAlphaMode()).toBe('BLEND');
    expect(clear.labelBack.getBaseColorFactor()[3]).toBe(0);
    const texture = await decodeTexture(clear.print.getBaseColorTexture()!.getImage()!);
    let transparent = 0;
    let ink = 0;
    for (let i = 0; i < texture.pixels.length; i += 4) {
      const alpha = texture.pixels[i + 3]!;
      if (alpha === 0) transparent++;
      // The disc's teal at three quarters' opacity: the container shows through the ink.
      else if (Math.abs(alpha - 191) <= 2) {
        expectNearColour([...texture.pixels.subarray(i, i + 3)], [0x0f, 0x6b, 0x63], 4, 'ink');
        ink++;
      }
    }
    const texels = texture.width * texture.height;
    expect(transparent / texels).toBeGreaterThan(0.5);
    expect(ink).toBeGreaterThan(100);
    expect(transparent + ink).toBeGreaterThan(0.98 * texels);

    const wrong = await get(`/projects/${id}/model?white=clear`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('white');
  });
});
