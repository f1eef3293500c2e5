// A render child that outgrows RENDER_CHILD_MEMORY_MB is killed: the print of a 100-megapixel
// image (about half a gigabyte while it is decoded) under a 320 MB cap is answered 503 with
// Retry-After, the child is gone, and the next render gets a fresh one.
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName } from '../helpers/app.js';
import type { TestAccount } from '../helpers/accounts.js';
import { uploadAsset } from '../assets/helpers.js';
import { artwork, createProject } from '../print/harness.js';
import { registerProAccount } from '../projects/fixtures.js';

const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };

let app: App;
let owner: TestAccount;

beforeAll(async () => {
  app = await createTestApp({ RENDER_CHILD_MEMORY_MB: '320', RENDER_PRINT_TIMEOUT_MS: '60000' });
  owner = await registerProAccount(app);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe(`the memory cap of a render child (${engineName()})`, () => {
  it('a print that outgrows it → 503 with Retry-After naming the cap; its child is killed; a small print then succeeds', async () => {
    const large = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#336699' } }).png().toBuffer();
    const big = await uploadAsset(app, owner, large, { filename: 'large.png', contentType: 'image/png' });
    const id = await createProject(
      app,
      owner,
      'mailer-box',
      { artworks: [artwork('art-1', 'front', `/files/${big.name}`, { scale: 0.5 })] },
      MAILER,
    );

    const pending = app.inject({ method: 'GET', url: `/projects/${id}/print`, headers: owner.auth });
    let pid: number | undefined;
    while (!pid) {
      [pid] = app.services.renderer.stats().print.busyPids;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const response = await pending;
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The print file needed more than the 320 MB of memory one render may use.',
    });
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(app.services.renderer.stats().print.kills.memory).toBe(1);
    const until = Date.now() + 5_000;
    while (existsSync(`/proc/${pid}`) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(`/proc/${pid}`), `render child ${pid} is gone`).toBe(false);

    const small = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#993366' } }).jpeg().toBuffer();
    const smallAsset = await uploadAsset(app, owner, small, { filename: 'small.jpg', contentType: 'image/jpeg' });
    const ok = await createProject(
      app,
      owner,
      'mailer-box',
      { artworks: [artwork('art-1', 'front', `/files/${smallAsset.name}`, { scale: 0.2 })] },
      MAILER,
    );
    const printed = await app.inject({ method: 'GET', url: `/projects/${ok}/print`, headers: owner.auth });
    expect(printed.statusCode, printed.body).toBe(200);
    expect(printed.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 90_000);
});
