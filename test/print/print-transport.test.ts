// GET /projects/:id/print over real HTTP streams the file its render child wrote: the answer has
// its Content-Length and the bytes of the file, and the file (already unlinked) is closed when the
// answer is sent, and when the client goes away in the middle of it; nothing stays on disk.
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import type { TestAccount } from '../helpers/accounts.js';
import { eventually } from '../assets/helpers.js';
import { openOutputs, outputFiles } from '../render/output-dirs.js';
import { artwork, createProject, uploadJpeg } from './harness.js';

const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };

let app: App;
let base: string;
let owner: TestAccount;
let projectId: string;

/** A JPEG of grain, about 8 MB: it passes into an rgb print as it is. */
const grainJpeg = () =>
  sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .jpeg({ quality: 95 })
    .toBuffer();

beforeAll(async () => {
  app = await createTestApp();
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  owner = await registerProAccount(app);
  const artworks = [];
  for (const [i, panel] of ['front', 'back', 'lid'].entries()) {
    artworks.push(artwork(`art-${i}`, panel, await uploadJpeg(app, owner, await grainJpeg())));
  }
  projectId = await createProject(app, owner, 'mailer-box', { artworks }, MAILER);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe(`print file transport (${engineName()})`, () => {
  it('streams the whole file with its Content-Length, then closes it; a 304 still needs no render', async () => {
    const response = await fetch(`${base}/projects/${projectId}/print`, { headers: owner.auth });
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBeGreaterThan(20_000_000);
    expect(Number(response.headers.get('content-length'))).toBe(body.length);
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await eventually(async () => openOutputs().length === 0, 10_000, 'the file to be closed');
    expect(outputFiles()).toEqual([]);

    const etag = response.headers.get('etag')!;
    const again = await fetch(`${base}/projects/${projectId}/print`, { headers: { ...owner.auth, 'if-none-match': etag } });
    expect(again.status).toBe(304);
  }, 120_000);

  it('closes the file when the client goes away in the middle of the answer', async () => {
    const client = new AbortController();
    const response = await fetch(`${base}/projects/${projectId}/print`, { headers: owner.auth, signal: client.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // Tens of MB and a client that reads no more: the answer is still being sent from the file.
    expect(openOutputs()).toHaveLength(1);
    expect(outputFiles()).toEqual([]);
    client.abort();
    await reader.cancel().catch(() => undefined);
    await eventually(async () => openOutputs().length === 0, 10_000, 'the file to be closed');
    expect(outputFiles()).toEqual([]);
  }, 120_000);
});
