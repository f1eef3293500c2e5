// A costly render never holds up another account's request: an upload whose analysis takes minutes
// leaves the other analysis child to other accounts, and one account's costly previews take one
// print child at a time. The deadlines are long (a minute): the order of the work is what is
// tested, not how fast a child starts on a loaded machine (bounded-renders.test.ts tests the
// deadlines). The costly renders end when their client goes away.
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { eventually, uploadAsset } from '../assets/helpers.js';
import { createProject } from '../print/harness.js';
import { dashedCircles, modestFilterSvg, translucentCircles } from '../../fixtures/svg-bombs.js';

let app: App;
let base: string;
let attacker: TestAccount;
let other: TestAccount;

const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };

/** The named stored image on the front panel. */
const onFront = (imageName: string) => ({
  artworks: [{ id: 'art-1', panelId: 'front', imageUrl: `/files/${imageName}`, offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 0 }],
});

/** Requests over real HTTP whose client can go away; answered() tells whether any was answered. */
function abortable(requests: Array<(signal: AbortSignal) => Promise<Response>>) {
  const client = new AbortController();
  let answered = false;
  const settled = Promise.all(
    requests.map((send) =>
      send(client.signal).then(
        () => {
          answered = true;
        },
        () => undefined,
      ),
    ),
  );
  return {
    answered: () => answered,
    async goAway(): Promise<void> {
      client.abort();
      await settled;
    },
  };
}

const poolStats = (pool: 'analysis' | 'print') => app.services.renderer.stats()[pool];

beforeAll(async () => {
  app = await createTestApp({ RENDER_ANALYSIS_TIMEOUT_MS: '60000', RENDER_PREVIEW_TIMEOUT_MS: '60000' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  attacker = await registerProAccount(app);
  other = await registerAccount(app);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe(`a costly render and other accounts (${engineName()})`, () => {
  it("an upload whose analysis takes minutes: another account's upload is analysed meanwhile, " +
    "and it ends when its client goes away", async () => {
    const smallPng = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const form = new FormData();
    form.append('file', new Blob([translucentCircles()], { type: 'image/svg+xml' }), 'circles.svg');
    const slow = abortable([(signal) => fetch(`${base}/assets`, { method: 'POST', headers: attacker.auth, body: form, signal })]);
    try {
      await eventually(async () => poolStats('analysis').busy === 1, 30_000, 'the costly analysis to take a child');
      expect((await uploadAsset(app, other, smallPng, { filename: 'small.png' })).name).toMatch(/\.png$/);
      expect(slow.answered(), "the other account's upload was analysed while the costly one was still running").toBe(false);
    } finally {
      await slow.goAway();
    }
    await eventually(async () => poolStats('analysis').busy === 0, 30_000, 'the costly analysis to be cancelled');
    expect(poolStats('analysis').kills.cancelled).toBe(1);
    const assets = (await (await fetch(`${base}/assets`, { headers: attacker.auth })).json()) as { total: number };
    expect(assets.total).toBe(0);
  }, 120_000);

  it("take one print child at a time: another account's preview is made while they run, " +
    "and they end when their client goes away", async () => {
    // A design whose raster takes librsvg minutes at any size, stored as if before the filter check existed.
    const slowImage = (await uploadAsset(app, attacker, modestFilterSvg(), { filename: 'drawing.svg', contentType: 'image/svg+xml' })).name;
    await app.services.storage.save(slowImage, dashedCircles());
    const slowProject = await createProject(app, attacker, 'mailer-box', onFront(slowImage), MAILER);
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();
    const photoName = (await uploadAsset(app, other, photo, { filename: 'photo.jpg', contentType: 'image/jpeg' })).name;
    const ownProject = await createProject(app, other, 'mailer-box', onFront(photoName), MAILER);

    const slow = abortable(
      [2048, 2000].map(
        (width) => (signal: AbortSignal) =>
          fetch(`${base}/projects/${slowProject}/preview?width=${width}`, { headers: attacker.auth, signal }),
      ),
    );
    try {
      await eventually(async () => poolStats('print').busy === 1, 30_000, 'the first costly preview to take a child');
      const preview = await fetch(`${base}/projects/${ownProject}/preview`, { headers: other.auth });
      expect(preview.status).toBe(200);
      expect(preview.headers.get('content-type')).toBe('image/png');
      expect((await sharp(Buffer.from(await preview.arrayBuffer())).metadata()).format).toBe('png');
      expect(slow.answered(), "the other account's preview was made while the costly previews were still running").toBe(false);
      // The account's second preview waits for its first: it holds no child.
      expect(poolStats('print').busy).toBe(1);
    } finally {
      await slow.goAway();
    }
    await eventually(
      async () => poolStats('print').busy === 0 && poolStats('print').waiting === 0,
      30_000,
      'the costly previews to be cancelled',
    );
    expect(poolStats('print').kills.cancelled).toBe(1);
    expect(slow.answered()).toBe(false);
  }, 120_000);
});
