// Assets stored before metadata and thumbnails existed: the start-up backfill fills them in the
// background (the service answers meanwhile), resumably, and keeps what it cannot decode; the
// backfill command also finds stored SVGs the cost model refuses.
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { thumbnailNameOf } from '../../src/services/assets.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { engineName } from '../helpers/app.js';
import { restartableApps, type AssetBody, uploadAsset } from './helpers.js';
import * as made from './made-images.js';
import { blurMorphologyBomb } from '../../fixtures/svg-bombs.js';

const LEGACY = {
  widthPx: null,
  heightPx: null,
  dpi: null,
  colorSpace: 'other',
  hasAlpha: false,
  sha256: null,
  thumbnailName: null,
  thumbnailBytes: null,
  metadataReadAt: null,
} as const;

describe(`metadata backfill of older assets (${engineName()})`, () => {
  const { config, start } = restartableApps();

  /** Turns an uploaded asset back into a row as it was before this change: no metadata, no thumbnail. */
  async function makeLegacy(app: App, asset: AssetBody): Promise<void> {
    await app.db.prisma.asset.update({ where: { id: asset.id }, data: LEGACY });
    await rm(path.join(config.uploadDir, thumbnailNameOf(asset.name)));
  }

  const fetchAsset = async (app: App, account: TestAccount, id: string) =>
    (await app.inject({ method: 'GET', url: `/assets/${id}`, headers: account.auth })).json<{ asset: Record<string, unknown> }>().asset;

  it('fills every older asset at start-up, in the background, while the service answers', async () => {
    const first = await start();
    const account = await registerAccount(first);
    const jpeg = await uploadAsset(first, account, await made.jpeg(900, 600, { density: 300 }), { contentType: 'image/jpeg' });
    const svg = await uploadAsset(first, account, '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"/>', {
      contentType: 'image/svg+xml',
    });
    const expected = { jpeg: await fetchAsset(first, account, jpeg.id), svg: await fetchAsset(first, account, svg.id) };
    // A file accepted once but that no longer decodes, and a row whose file is not in this storage.
    const brokenName = `${createId()}.png`;
    const brokenBytes = made.truncated(await made.png(100, 100));
    await writeFile(path.join(config.uploadDir, brokenName), brokenBytes);
    const broken = await first.db.prisma.asset.create({
      data: {
        id: createId(),
        userId: account.id,
        name: brokenName,
        filename: 'old.png',
        mimeType: 'image/png',
        sizeBytes: brokenBytes.length,
      },
    });
    const elsewhere = await first.db.prisma.asset.create({
      data: {
        id: createId(),
        userId: account.id,
        name: `${createId()}.png`,
        filename: 'elsewhere.png',
        mimeType: 'image/png',
        sizeBytes: 10,
      },
    });
    await makeLegacy(first, jpeg);
    await makeLegacy(first, svg);
    const legacy = await fetchAsset(first, account, jpeg.id);
    expect(legacy).toMatchObject({ widthPx: null, heightPx: null, dpi: null, sha256: null, thumbnailUrl: null });
    await first.close();

    const second = await start();
    try {
      // Ready, and answering, whatever the backfill is doing.
      expect((await second.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      await second.backgroundWork.idle();
      expect(await fetchAsset(second, account, jpeg.id)).toEqual(expected.jpeg);
      expect(await fetchAsset(second, account, svg.id)).toEqual(expected.svg);
      const thumbnail = await second.inject({ method: 'GET', url: String(expected.jpeg.thumbnailUrl) });
      expect([thumbnail.statusCode, thumbnail.headers['content-type']]).toEqual([200, 'image/webp']);
      // Kept without metadata (and not retried), its digest recorded; the other left for a storage that has it.
      expect(await fetchAsset(second, account, broken.id)).toMatchObject({
        widthPx: null,
        thumbnailUrl: null,
        colorSpace: 'other',
        sha256: createHash('sha256').update(await readFile(path.join(config.uploadDir, brokenName))).digest('hex'),
      });
      const rows = await second.db.prisma.asset.findMany({
        where: { id: { in: [broken.id, elsewhere.id] } },
        select: { id: true, metadataReadAt: true },
      });
      expect(Object.fromEntries(rows.map((row) => [row.id, row.metadataReadAt !== null]))).toEqual({
        [broken.id]: true,
        [elsewhere.id]: false,
      });
    } finally {
      await second.close();
    }
  });

  it('finds every stored SVG the cost model refuses (a nested `use` bomb, a filter bomb), and no other', async () => {
    const app = await start();
    try {
      await app.backgroundWork.idle();
      const account = await registerAccount(app);
      const plain = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="10" height="10"/></svg>';
      const [useBomb, filterBomb, fine] = [
        await uploadAsset(app, account, plain, { contentType: 'image/svg+xml' }),
        await uploadAsset(app, account, plain, { contentType: 'image/svg+xml' }),
        await uploadAsset(app, account, plain, { contentType: 'image/svg+xml' }),
      ];
      let nested = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs><rect id="l0" width="1" height="1"/>';
      for (let level = 1; level <= 10; level++) nested += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`;
      // Stored before the model refused them.
      await app.services.storage.save(useBomb.name, Buffer.from(`${nested}</defs><use href="#l10"/></svg>`));
      await app.services.storage.save(filterBomb.name, blurMorphologyBomb());
      const costly = await app.services.assets.findCostlySvgs();
      expect(costly.filter((svg) => svg.userId === account.id)).toEqual([
        {
          id: useBomb.id,
          userId: account.id,
          name: useBomb.name,
          reason: '46913580235 elements once `use` is expanded, at most 20000 are rendered',
        },
        {
          id: filterBomb.id,
          userId: account.id,
          name: filterBomb.name,
          reason: 'feGaussianBlur stdDeviation is 1024 px at 4096 px, at most 200 px is rendered',
        },
      ]);
      expect(costly.map((svg) => svg.id)).not.toContain(fine.id);
    } finally {
      await app.close();
    }
  });

  it('is resumable: what is done stays done, a later run does only the rest', async () => {
    const app = await start();
    try {
      await app.backgroundWork.idle();
      const account = await registerAccount(app);
      const [a, b, c] = [
        await uploadAsset(app, account, await made.png(20, 20)),
        await uploadAsset(app, account, await made.png(30, 30)),
        await uploadAsset(app, account, await made.png(40, 40)),
      ];
      await makeLegacy(app, a);
      await makeLegacy(app, b);
      const aborted = new AbortController();
      aborted.abort();
      expect(await app.services.assets.backfill(aborted.signal)).toEqual({ filled: 0, unreadable: 0, skipped: 0 });
      expect(await app.services.assets.backfill()).toMatchObject({ filled: 2, unreadable: 0 });
      await makeLegacy(app, c);
      expect(await app.services.assets.backfill()).toMatchObject({ filled: 1, unreadable: 0 });
      for (const [asset, size] of [[a, 20], [b, 30], [c, 40]] as const) {
        expect(await fetchAsset(app, account, asset.id)).toMatchObject({
          widthPx: size,
          heightPx: size,
          thumbnailUrl: `/files/${thumbnailNameOf(asset.name)}`,
        });
      }
    } finally {
      await app.close();
    }
  });
});
