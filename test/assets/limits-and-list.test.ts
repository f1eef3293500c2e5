import { stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { imageFixture, pngOfSize } from '../helpers/images.js';
import { assetCount, expectApiError, uploadAsset, uploadDirEntries, uploadFile, type AssetBody } from './helpers.js';

const LIMIT = 26_214_400;

describe(`upload size limit (${engineName()})`, () => {
  let app: App;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('accepts exactly 25 MB (26,214,400 bytes) and stores every byte', async () => {
    const account = await registerAccount(app);
    const data = pngOfSize(LIMIT);
    const asset = await uploadAsset(app, account, data);
    expect(asset.sizeBytes).toBe(LIMIT);
    expect((await stat(path.join(app.config.uploadDir, asset.name))).size).toBe(LIMIT);
    const served = await app.inject({ method: 'GET', url: `/files/${asset.name}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(data)).toBe(true);
  });

  it.each([
    ['one byte more', LIMIT + 1],
    ['5 MB more', LIMIT + 5 * 1024 * 1024],
  ])('%s → 413, with no file left (temporary names included) and no row', async (_label, size) => {
    const account = await registerAccount(app);
    const before = await uploadDirEntries(app);
    const response = await uploadFile(app, account, pngOfSize(size));
    expectApiError(response, 413, 'File is larger than 25 MB (26,214,400 bytes).');
    expect(await uploadDirEntries(app)).toEqual(before);
    expect(await assetCount(app, account.id)).toBe(0);
  });

  it('an oversized upload declared as text is refused for its type first (415)', async () => {
    const response = await uploadFile(app, await registerAccount(app), pngOfSize(LIMIT + 1), { contentType: 'text/plain' });
    expectApiError(response, 415);
  });
});

describe(`GET /assets (${engineName()})`, () => {
  let app: App;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const list = (auth: { authorization: string } | Record<string, never>, url = '/assets') =>
    app.inject({ method: 'GET', url, headers: auth });

  it('an account without uploads gets { assets: [], total: 0 }', async () => {
    const account = await registerAccount(app);
    const response = await list(account.auth);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ assets: [], total: 0 });
  });

  it("lists the caller's uploads alone, newest first, exactly as POST returned them", async () => {
    const alice = await registerAccount(app);
    const bob = await registerAccount(app);
    const uploaded: AssetBody[] = [];
    for (const fixture of ['tiny.png', 'tiny.gif', 'tiny.svg'] as const) {
      uploaded.push(await uploadAsset(app, alice, imageFixture(fixture), { filename: fixture, contentType: 'image/png' }));
      await sleep(5);
    }
    const bobs = await uploadAsset(app, bob, imageFixture('tiny.jpg'));

    const response = await list(alice.auth);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ assets: AssetBody[]; total: number }>();
    expect(Object.keys(body)).toEqual(['assets', 'total']);
    expect(body.total).toBe(3);
    expect(body.assets).toEqual([...uploaded].reverse());

    const bobsList = (await list(bob.auth)).json<{ assets: AssetBody[]; total: number }>();
    expect(bobsList).toEqual({ assets: [bobs], total: 1 });
  });

  it('orders ties on createdAt by id, descending', async () => {
    const account = await registerAccount(app);
    await Promise.all([1, 2, 3, 4].map(() => uploadAsset(app, account, imageFixture('tiny.png'))));
    const { assets } = (await list(account.auth)).json<{ assets: AssetBody[] }>();
    const sorted = [...assets].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1));
    expect(assets).toEqual(sorted);
  });

  it('without PUBLIC_BASE_URL the url is the path /files/<name>', async () => {
    const account = await registerAccount(app);
    const asset = await uploadAsset(app, account, imageFixture('tiny.png'));
    expect(asset.url).toBe(`/files/${asset.name}`);
    const { assets } = (await list(account.auth)).json<{ assets: AssetBody[] }>();
    expect(assets.map((listed) => listed.url)).toEqual([`/files/${asset.name}`]);
  });

  it('without a token → 401', async () => {
    expectApiError(await list({}), 401);
  });

  it('an unknown query parameter → 400', async () => {
    const account = await registerAccount(app);
    expectApiError(await list(account.auth, '/assets?page=2'), 400);
  });
});

describe(`asset url with PUBLIC_BASE_URL (${engineName()})`, () => {
  it('is PUBLIC_BASE_URL (without its trailing slash) + "/files/" + name, on POST and on GET', async () => {
    const app = await createTestApp({ PUBLIC_BASE_URL: 'https://example.com/api/' });
    try {
      const account = await registerAccount(app);
      const asset = await uploadAsset(app, account, imageFixture('tiny.png'));
      expect(asset.url).toBe(`https://example.com/api/files/${asset.name}`);
      const { assets } = (await app.inject({ method: 'GET', url: '/assets', headers: account.auth })).json<{ assets: AssetBody[] }>();
      expect(assets.map((listed) => listed.url)).toEqual([asset.url]);
    } finally {
      await app.close();
    }
  });
});
