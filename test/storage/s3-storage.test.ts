// Uploads and /files on a real S3 gateway (Ceph radosgw, scripts/start-s3.sh): the same guarantees
// as on the local disk — streamed, sniffed, nothing half-written, every /files header, ETag and
// 304 — plus what only object storage has: a rejected upload aborts its multipart upload.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { thumbnailNameOf } from '../../src/services/assets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createS3Storage } from '../../src/storage/s3.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { imageFixture, pngOfSize } from '../helpers/images.js';
import { createTestBucket, s3Env, type TestBucket } from '../helpers/s3.js';
import { assetCount, expectApiError, uploadAsset, uploadFile } from '../assets/helpers.js';
import { Readable } from 'node:stream';

const MiB = 1024 * 1024;

describe(`object storage on a real S3 gateway (${engineName()})`, () => {
  let bucket: TestBucket;
  let app: App;
  let account: TestAccount;

  beforeAll(async () => {
    bucket = await createTestBucket();
    app = await createTestApp(s3Env(bucket.name));
    account = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
    await bucket?.remove();
  });

  const objectBytes = async (key: string) => {
    const reply = await bucket.client.send(new GetObjectCommand({ Bucket: bucket.name, Key: key }));
    return Buffer.from(await reply.Body!.transformToByteArray());
  };

  it('stores an upload under its name only, and /files serves it with every header, ETag and 304', async () => {
    const png = imageFixture('tiny.png');
    const asset = await uploadAsset(app, account, png);
    // The upload and the thumbnail made from it (issue 15), each under the service's own name.
    expect((await bucket.keys()).sort()).toEqual([asset.name, thumbnailNameOf(asset.name)].sort());
    expect(await objectBytes(asset.name)).toEqual(png);
    expect(await bucket.openUploads()).toEqual([]);

    const got = await app.inject({ method: 'GET', url: `/files/${asset.name}` });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload).toEqual(png);
    expect(got.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(png.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    });
    const etag = got.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);

    const head = await app.inject({ method: 'HEAD', url: `/files/${asset.name}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(png.length));
    expect(head.headers.etag).toBe(etag);

    const again = await app.inject({ method: 'GET', url: `/files/${asset.name}`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('streams a multi-part upload (over 5 MiB) byte for byte', async () => {
    const png = pngOfSize(12 * MiB + 12345);
    const asset = await uploadAsset(app, account, png);
    expect(asset.sizeBytes).toBe(png.length);
    expect(await bucket.openUploads()).toEqual([]);
    const got = await app.inject({ method: 'GET', url: `/files/${asset.name}` });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(png)).toBe(true);
    expect((await bucket.keys()).filter((key) => key.startsWith('.tmp-'))).toEqual([]);
  });

  it('a rejected upload leaves no object, no open multipart upload and no row', async () => {
    const before = (await bucket.keys()).sort();
    const rows = await assetCount(app, account.id);

    // Not an image: refused on its first bytes, before anything reaches the bucket.
    expectApiError(await uploadFile(app, account, Buffer.alloc(7 * MiB, 0x41)), 415);
    // An image one byte over 25 MB: five parts are already in the bucket when the limit trips.
    expectApiError(await uploadFile(app, account, pngOfSize(25 * MiB + 1)), 413);

    expect((await bucket.keys()).sort()).toEqual(before);
    expect(await bucket.openUploads()).toEqual([]);
    expect(await assetCount(app, account.id)).toBe(rows);
  });

  it('unknown names are 404 without touching the bucket, a stored name missing from it is 404', async () => {
    expectApiError(await app.inject({ method: 'GET', url: '/files/..%2F..%2Fetc%2Fpasswd' }), 404, 'File not found.');
    const asset = await uploadAsset(app, account, imageFixture('tiny.gif'), { filename: 'a.gif', contentType: 'image/gif' });
    await app.services.storage.delete(asset.name);
    expectApiError(await app.inject({ method: 'GET', url: `/files/${asset.name}` }), 404, 'File not found.');
  });

  it('save() writes a derived object whole, overwriting, and open/stat read it back', async () => {
    const storage = createS3Storage(bucket.target);
    try {
      await storage.save('derivedthumbnail0001.png', Buffer.from('first'));
      await storage.save('derivedthumbnail0001.png', Buffer.from('second version'));
      expect(await objectBytes('derivedthumbnail0001.png')).toEqual(Buffer.from('second version'));
      expect(await storage.stat('derivedthumbnail0001.png')).toEqual({ size: 14 });
      const opened = await storage.open('derivedthumbnail0001.png');
      const chunks: Buffer[] = [];
      for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('second version');
      expect(await storage.open('derivedthumbnail0002.png')).toBeNull();
      await storage.delete('derivedthumbnail0001.png');
      await storage.delete('derivedthumbnail0001.png');
      expect(await storage.stat('derivedthumbnail0001.png')).toBeNull();
      await expect(storage.save('../escape', Buffer.from('x'))).rejects.toThrow(/unsafe storage name/);
    } finally {
      storage.close();
    }
  });

  it('a source that fails half-way aborts the multipart upload: no object, nothing open', async () => {
    const storage = createS3Storage(bucket.target);
    const before = (await bucket.keys()).sort();
    try {
      const failing = Readable.from(
        (async function* () {
          for (let i = 0; i < 3; i++) yield Buffer.alloc(4 * MiB, i);
          throw new Error('client went away');
        })(),
      );
      await expect(storage.put(failing)).rejects.toThrow('client went away');
      expect((await bucket.keys()).sort()).toEqual(before);
      expect(await bucket.openUploads()).toEqual([]);
    } finally {
      storage.close();
    }
  });

  it('/health/ready checks the bucket', async () => {
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
  });
});
