// Uploads over real HTTP: bytes reach the disk while the body is still arriving, and an upload cut
// short by the client, or failing at the database, leaves neither a file nor a row.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { pngOfSize } from '../helpers/images.js';
import { bodyTail, multipartContentType, newBoundary, partHead } from '../helpers/multipart.js';
import { connect, listenLocally, rawRequest, requestHead, type RawConnection } from '../helpers/raw-http.js';
import { thumbnailNameOf } from '../../src/services/assets.js';
import { assetCount, eventually, uploadDirEntries } from './helpers.js';

const MiB = 1024 * 1024;

describe(`uploads over real HTTP (${engineName()})`, () => {
  let app: App;
  let port: number;

  beforeAll(async () => {
    app = await createTestApp();
    port = await listenLocally(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Sizes of the temporary files now in the upload directory. */
  async function temporaryFileSizes(): Promise<number[]> {
    const names = (await readdir(app.config.uploadDir)).filter((name) => name.startsWith('.tmp-'));
    const sizes = await Promise.all(names.map((name) => stat(path.join(app.config.uploadDir, name)).then((s) => s.size, () => -1)));
    return sizes.filter((size) => size >= 0);
  }

  /** Opens POST /assets for one PNG of fileSize bytes, sending the headers and the part head only. */
  async function startUpload(account: TestAccount, fileSize: number) {
    const boundary = newBoundary();
    const head = partHead({ name: 'file', filename: 'big.png', contentType: 'image/png' }, boundary);
    const tail = bodyTail(boundary);
    const connection: RawConnection = await connect(port);
    connection.socket.write(
      requestHead('POST', '/assets', {
        ...account.auth,
        'content-type': multipartContentType(boundary),
        'content-length': head.length + fileSize + tail.length,
      }),
    );
    connection.socket.write(head);
    return { ...connection, tail };
  }

  it('writes the file to disk while the body is still arriving', async () => {
    const account = await registerAccount(app);
    const before = await uploadDirEntries(app);
    const upload = await startUpload(account, 8 * MiB);
    const file = pngOfSize(8 * MiB);
    upload.socket.write(file.subarray(0, 3 * MiB));
    // Only 3 of 8 MiB sent, and already more than 1 MiB of it on disk under a temporary name.
    await eventually(async () => (await temporaryFileSizes()).some((size) => size > MiB), 10_000, 'a growing temporary file');
    upload.socket.write(file.subarray(3 * MiB));
    upload.socket.write(upload.tail);
    const response = await upload.response;
    expect(response.statusCode, response.body.toString()).toBe(201);
    const { asset } = JSON.parse(response.body.toString()) as { asset: { name: string; sizeBytes: number } };
    expect(asset.sizeBytes).toBe(8 * MiB);
    expect(await uploadDirEntries(app)).toEqual([...before, asset.name, thumbnailNameOf(asset.name)].sort());
  });

  it.each([
    ['half way through the file', 3 * MiB],
    ['inside the first bytes, before the type is known', 1000],
  ])('a client that disconnects %s leaves no file and no row', async (_label, sent) => {
    const account = await registerAccount(app);
    const before = await uploadDirEntries(app);
    const upload = await startUpload(account, 8 * MiB);
    upload.socket.write(pngOfSize(8 * MiB).subarray(0, sent));
    await eventually(async () => (await temporaryFileSizes()).length > 0, 10_000, 'the temporary file');
    upload.socket.destroy();
    await eventually(
      async () => JSON.stringify(await uploadDirEntries(app)) === JSON.stringify(before),
      10_000,
      'the temporary file to go',
    );
    expect(await assetCount(app, account.id)).toBe(0);
  });

  it('an account deleted after the file is complete: 401, the file removed, nothing left', async () => {
    const account = await registerAccount(app);
    const before = await uploadDirEntries(app);
    const upload = await startUpload(account, 2 * MiB);
    const file = pngOfSize(2 * MiB);
    upload.socket.write(file.subarray(0, MiB));
    await eventually(async () => (await temporaryFileSizes()).some((size) => size > 0), 10_000, 'the temporary file');
    // The account disappears between the token check and the insert: the row's foreign key fails.
    await app.db.prisma.user.delete({ where: { id: account.id } });
    upload.socket.write(file.subarray(MiB));
    upload.socket.write(upload.tail);
    const response = await upload.response;
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body.toString())).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Invalid or expired token.',
    });
    expect(await uploadDirEntries(app)).toEqual(before);
    expect(await app.db.prisma.asset.count({ where: { userId: account.id } })).toBe(0);
  });

  describe('request targets sent verbatim to GET /files', () => {
    it.each([
      '/files/../../etc/passwd',
      '/files/..%2f..%2fetc%2fpasswd',
      '/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/files/..%5c..%5cwindows%5cwin.ini',
      '/files//etc/passwd',
      '/files/%2Fetc%2Fpasswd',
      '/files/./aaaaaaaaaaaaaaaaaaaaaaaa.png',
    ])('%s → 404 ApiError', async (target) => {
      const response = await rawRequest(port, 'GET', target);
      expect(response.statusCode).toBe(404);
      const body = JSON.parse(response.body.toString()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
      expect(body.statusCode).toBe(404);
      expect(response.headers['cache-control']).toBeUndefined();
    });
  });
});
