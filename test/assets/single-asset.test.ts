// GET /assets/:id and DELETE /assets/:id, and the deletion outbox that makes removing files
// survive a failure or a crash between the row's deletion and the files'.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { inTransaction } from '../../src/repositories/driver-sql.js';
import { deleteRecordingFiles } from '../../src/repositories/file-deletions.js';
import { thumbnailNameOf } from '../../src/services/assets.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { expectApiError, restartableApps, type AssetBody, uploadAsset, uploadDirEntries } from './helpers.js';
import * as made from './made-images.js';

describe(`GET and DELETE /assets/:id (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    app = await createTestApp();
    [owner, stranger] = [await registerAccount(app), await registerAccount(app)];
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (account: TestAccount | null, id: string) =>
    app.inject({ method: 'GET', url: `/assets/${id}`, headers: account ? account.auth : {} });
  const remove = (account: TestAccount | null, id: string) =>
    app.inject({ method: 'DELETE', url: `/assets/${id}`, headers: account ? account.auth : {} });

  it('GET → 200 { asset }, exactly as the upload answered', async () => {
    const asset = await uploadAsset(app, owner, await made.jpeg(30, 20, { density: 72 }), { contentType: 'image/jpeg' });
    const response = await get(owner, asset.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ asset });
  });

  it("another account's asset, an unknown id and malformed ids (a space, a NUL byte, an emoji) → 404 \"Asset not found.\"", async () => {
    const asset = await uploadAsset(app, owner, await made.png(4, 4));
    for (const [account, id] of [
      [stranger, asset.id],
      [owner, 'nosuchassetid0000000000000'],
      [owner, 'not%20an%20id'],
      [owner, 'nul%00byte'],
      [owner, '%F0%9F%98%80'],
    ] as const) {
      expectApiError(await get(account, id), 404, 'Asset not found.');
      expectApiError(await remove(account, id), 404, 'Asset not found.');
    }
    expect((await get(owner, asset.id)).statusCode).toBe(200);
    expect(await uploadDirEntries(app)).toContain(asset.name);
  });

  it('without a token → 401', async () => {
    const asset = await uploadAsset(app, owner, await made.png(4, 4));
    expectApiError(await get(null, asset.id), 401);
    expectApiError(await remove(null, asset.id), 401);
  });

  it('DELETE → 204: the row, the file and the thumbnail go; the URLs answer 404; a second DELETE → 404', async () => {
    const asset = await uploadAsset(app, owner, await made.png(40, 40));
    const thumbnail = thumbnailNameOf(asset.name);
    expect(await uploadDirEntries(app)).toEqual(expect.arrayContaining([asset.name, thumbnail]));
    const response = await remove(owner, asset.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const entries = await uploadDirEntries(app);
    expect(entries).not.toContain(asset.name);
    expect(entries).not.toContain(thumbnail);
    expectApiError(await get(owner, asset.id), 404, 'Asset not found.');
    expectApiError(await app.inject({ method: 'GET', url: `/files/${asset.name}` }), 404, 'File not found.');
    expectApiError(await app.inject({ method: 'GET', url: `/files/${thumbnail}` }), 404, 'File not found.');
    expect(await app.db.prisma.fileDeletion.count({ where: { name: { in: [asset.name, thumbnail] } } })).toBe(0);
    expectApiError(await remove(owner, asset.id), 404, 'Asset not found.');
  });

  it('the list no longer shows a deleted asset', async () => {
    const account = await registerAccount(app);
    const [kept, gone] = [await uploadAsset(app, account, await made.png(4, 4)), await uploadAsset(app, account, await made.png(4, 4))];
    expect((await remove(account, gone.id)).statusCode).toBe(204);
    const list = await app.inject({ method: 'GET', url: '/assets', headers: account.auth });
    expect(list.json<{ assets: AssetBody[] }>().assets.map((asset) => asset.id)).toEqual([kept.id]);
  });
});

describe(`the deletion outbox across failures and restarts (${engineName()})`, () => {
  const { config, start } = restartableApps();

  it('a file that cannot be removed stays recorded, and the next start-up removes it', async () => {
    const first = await start();
    const account = await registerAccount(first);
    const asset = await uploadAsset(first, account, await made.png(30, 30));
    const thumbnail = thumbnailNameOf(asset.name);
    // A directory where the thumbnail was: removing it fails.
    const thumbnailPath = path.join(config.uploadDir, thumbnail);
    await rm(thumbnailPath);
    await mkdir(thumbnailPath);
    const response = await first.inject({ method: 'DELETE', url: `/assets/${asset.id}`, headers: account.auth });
    expect(response.statusCode).toBe(204);
    expect(await first.db.prisma.asset.count({ where: { id: asset.id } })).toBe(0);
    expect(await readdir(config.uploadDir)).not.toContain(asset.name);
    expect((await first.db.prisma.fileDeletion.findMany()).map((row) => row.name)).toEqual([thumbnail]);
    await first.close();

    // The obstacle is gone by the next start: the drain finishes the job.
    await rm(thumbnailPath, { recursive: true });
    await writeFile(thumbnailPath, 'left behind');
    const second = await start();
    try {
      await second.backgroundWork.idle();
      expect(await readdir(config.uploadDir)).not.toContain(thumbnail);
      expect(await second.db.prisma.fileDeletion.count()).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('an account deletion records its files and thumbnails in the same outbox: ' +
    'a file that cannot be removed is removed by the next start-up', async () => {
    const first = await start();
    const account = await registerAccount(first);
    const [one, two] = [
      await uploadAsset(first, account, await made.png(20, 20)),
      await uploadAsset(first, account, await made.png(24, 24)),
    ];
    const stuck = thumbnailNameOf(two.name);
    const stuckPath = path.join(config.uploadDir, stuck);
    await rm(stuckPath);
    await mkdir(stuckPath);
    const response = await first.inject({
      method: 'DELETE',
      url: '/auth/me',
      headers: account.auth,
      payload: { password: account.password },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await first.db.prisma.asset.count({ where: { userId: account.id } })).toBe(0);
    const left = await readdir(config.uploadDir);
    for (const name of [one.name, thumbnailNameOf(one.name), two.name]) expect(left).not.toContain(name);
    expect((await first.db.prisma.fileDeletion.findMany()).map((row) => row.name)).toEqual([stuck]);
    await first.close();

    await rm(stuckPath, { recursive: true });
    await writeFile(stuckPath, 'left behind');
    const second = await start();
    try {
      await second.backgroundWork.idle();
      expect(await readdir(config.uploadDir)).not.toContain(stuck);
      expect(await second.db.prisma.fileDeletion.count()).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('a process that dies after the commit (row gone, names recorded, files still there) is finished by the next start-up', async () => {
    const first = await start();
    const account = await registerAccount(first);
    const asset = await uploadAsset(first, account, await made.png(30, 30));
    const names = [asset.name, thumbnailNameOf(asset.name)];
    // What DELETE commits, without what it does after the commit: the process "dies" here.
    await deleteRecordingFiles(first.db.sql, 'assets', ['name', 'thumbnailName'], '"id" = $1', [asset.id]);
    await first.close();
    expect(await readdir(config.uploadDir)).toEqual(expect.arrayContaining(names));

    const second = await start();
    try {
      // Ready before the drain ran; it finishes in the background.
      await second.backgroundWork.idle();
      const entries = await readdir(config.uploadDir);
      expect(entries.filter((entry) => names.includes(entry))).toEqual([]);
      expect(await second.db.prisma.fileDeletion.count()).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('a transaction that rolls back records nothing and removes nothing', async () => {
    const app = await start();
    try {
      const account = await registerAccount(app);
      const asset = await uploadAsset(app, account, await made.png(30, 30));
      await expect(
        inTransaction(app.db.sql, async (tx) => {
          await deleteRecordingFiles(tx, 'assets', ['name'], '"id" = $1', [asset.id]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await app.db.prisma.fileDeletion.count()).toBe(0);
      await app.services.fileJanitor.drain();
      expect((await app.inject({ method: 'GET', url: `/files/${asset.name}` })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
