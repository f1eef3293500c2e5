// A busy render pool makes an export wait, never fail: the busy answer uses none of its attempts,
// the export stays queued and is tried again with backoff until it renders. In the web process
// (no Redis) here; on BullMQ workers in busy-pool-queue.test.ts. With one attempt allowed, an
// export that spent it on the busy answer would end `failed`.
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName, ownDatabase } from '../helpers/app.js';
import type { TestAccount } from '../helpers/accounts.js';
import { eventually, uploadAsset } from '../assets/helpers.js';
import { createProject } from '../print/harness.js';
import { registerProAccount } from '../projects/fixtures.js';
import { dashedCircles, modestFilterSvg } from '../../fixtures/svg-bombs.js';
import { MAILER, pollInjected, printableDesign, sleep, type ExportBody } from './helpers.js';

let app: App;
let base: string;
let owner: TestAccount;
let own: Awaited<ReturnType<typeof ownDatabase>>;

beforeAll(async () => {
  own = await ownDatabase('pf_busy_exports');
  // One attempt per export; the account may have one render waiting behind its running one.
  app = await createTestApp({
    ...own.env,
    EXPORT_ATTEMPTS: '1',
    RENDER_ACCOUNT_QUEUE: '1',
    RENDER_PREVIEW_TIMEOUT_MS: '60000',
    RENDER_ANALYSIS_TIMEOUT_MS: '120000',
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  owner = await registerProAccount(app);
}, 240_000);

afterAll(async () => {
  await app?.close();
  await own?.drop();
});

describe(`exports while the render pool is busy (${engineName()}, in process)`, () => {
  it('an export refused by a busy pool stays queued, uses no attempt, and renders once the pool has room', async () => {
    // A design whose raster takes librsvg minutes, stored as if before the upload checks existed.
    const slowImage = (await uploadAsset(app, owner, modestFilterSvg(), { filename: 'drawing.svg', contentType: 'image/svg+xml' })).name;
    await app.services.storage.save(slowImage, dashedCircles());
    const slowProject = await createProject(
      app,
      owner,
      'mailer-box',
      { artworks: [{ id: 'a', panelId: 'front', imageUrl: `/files/${slowImage}`, offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 0 }] },
      MAILER,
    );
    const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();
    const photoName = (await uploadAsset(app, owner, photo, { filename: 'photo.jpg', contentType: 'image/jpeg' })).name;
    const project = await createProject(app, owner, 'mailer-box', printableDesign(`/files/${photoName}`), MAILER);

    // The account's costly preview runs and a second one waits: its render queue is full.
    const client = new AbortController();
    const held = [2048, 2000].map((width) =>
      fetch(`${base}/projects/${slowProject}/preview?width=${width}`, { headers: owner.auth, signal: client.signal }).then(
        () => 'answered',
        () => 'gone',
      ),
    );
    let done: ExportBody;
    try {
      await eventually(async () => app.services.renderer.stats().print.busy === 1, 30_000, 'the costly preview to take a child');
      // The second preview waits in the account's admission, which has no gauge: time for it to get there on a loaded machine.
      await sleep(2_000);
      const created = await app.inject({
        method: 'POST',
        url: `/projects/${project}/exports`,
        headers: owner.auth,
        payload: { format: 'preview-png' },
      });
      expect(created.statusCode, created.body).toBe(202);
      const id = created.json<{ export: ExportBody }>().export.id;
      // Tried and refused (busy) at least once by now, and waiting: not failed.
      await sleep(3_000);
      const read = await app.inject({ method: 'GET', url: `/exports/${id}`, headers: owner.auth });
      const waiting = read.json<{ export: ExportBody }>().export;
      expect(waiting.status).toBe('queued');
      expect(waiting.error).toBeNull();
      client.abort();
      done = await pollInjected(app, `/exports/${id}`, owner.auth, 60_000);
    } finally {
      client.abort();
    }
    expect(await Promise.all(held)).toEqual(['gone', 'gone']);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    const file = await app.inject({ method: 'GET', url: done.downloadUrl! });
    expect(file.statusCode).toBe(200);
    expect((await sharp(file.rawPayload).metadata()).format).toBe('png');
  }, 180_000);
});
