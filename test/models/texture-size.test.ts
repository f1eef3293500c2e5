// The weight of a project model: its print texture is a JPEG (core glTF), so a mailer with two
// full-panel photographs stays small enough for a shop page.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { artwork, createProject, uploadJpeg } from '../print/harness.js';
import { expectValidGlb, readGlb } from './glb.js';

const MIB = 1024 * 1024;

/** A photograph-like 2048 × 1536 JPEG: smooth light and shade with fine grain, as a camera makes it. */
async function photograph(seed: number): Promise<Buffer> {
  const width = 2048;
  const height = 1536;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  const grain = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return (state / 0x7fffffff - 0.5) * 18;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const shade = 0.5 + 0.5 * Math.sin(x / (90 + seed * 7)) * Math.cos(y / 130);
      pixels[i] = Math.max(0, Math.min(255, 60 + 150 * shade + grain()));
      pixels[i + 1] = Math.max(0, Math.min(255, 90 + 110 * (1 - shade) + grain()));
      pixels[i + 2] = Math.max(0, Math.min(255, 140 + 80 * Math.sin(y / 200 + seed) + grain()));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

describe(`project model weight (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a mailer with full-panel photos on its lid and front: a JPEG texture, at most 1.5 MiB at the default size', async () => {
    const lid = await uploadJpeg(app, owner, await photograph(1));
    const front = await uploadJpeg(app, owner, await photograph(2));
    const id = await createProject(app, owner, 'mailer-box', {
      artworks: [artwork('lid-photo', 'lid', lid, { scale: 1 }), artwork('front-photo', 'front', front, { scale: 1 })],
    });
    const model = await app.inject({ method: 'GET', url: `/projects/${id}/model`, headers: owner.auth });
    expect(model.statusCode, model.body).toBe(200);
    await expectValidGlb(model.rawPayload);
    expect(model.rawPayload.length).toBeLessThanOrEqual(1.5 * MIB);

    const doc = await readGlb(model.rawPayload);
    const textures = doc.getRoot().listTextures();
    expect(textures.map((texture) => texture.getMimeType())).toEqual(['image/jpeg']);
    const image = textures[0]!.getImage()!;
    const meta = await sharp(image).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBe(2048);
    // The photographs are on it: the texture is far from a blank sheet.
    const stats = await sharp(image).stats();
    expect(stats.channels[0]!.stdev).toBeGreaterThan(20);
  }, 90_000);
});
