import { unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { imageFixture, type ImageFixture } from '../helpers/images.js';
import { expectApiError, uploadAsset, type AssetBody } from './helpers.js';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const CACHE = 'public, max-age=31536000, immutable';

describe(`GET /files/:name (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  let png: AssetBody;

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
    png = await uploadAsset(app, owner, imageFixture('tiny.png'));
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  describe('serving', () => {
    const cases: Array<[ImageFixture, string, string]> = [
      ['tiny.png', 'image/png', 'image/png'],
      ['tiny.jpg', 'image/jpeg', 'image/jpeg'],
      ['tiny.gif', 'image/gif', 'image/gif'],
      ['tiny.webp', 'image/webp', 'image/webp'],
      ['tiny.avif', 'image/avif', 'image/avif'],
      ['tiny.svg', 'image/svg+xml', 'image/svg+xml'],
      ['scripted.svg', 'image/svg+xml', 'image/svg+xml'],
    ];

    it.each(cases)('%s comes back byte for byte with every header, without a token', async (fixture, declared, served) => {
      const data = imageFixture(fixture);
      const asset = await uploadAsset(app, owner, data, { contentType: declared });
      const response = await get(`/files/${asset.name}`);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(data)).toBe(true);
      expect(response.headers['content-type']).toBe(served);
      expect(response.headers['content-length']).toBe(String(data.length));
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe(CACHE);
      expect(response.headers['content-security-policy']).toBe(CSP);
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
    });

    it('the ETag is strong and stable, and differs between files', async () => {
      const other = await uploadAsset(app, owner, imageFixture('tiny.png'));
      const [first, again, second] = [await get(`/files/${png.name}`), await get(`/files/${png.name}`), await get(`/files/${other.name}`)];
      expect(String(first.headers.etag).startsWith('W/')).toBe(false);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(second.headers.etag).not.toBe(first.headers.etag);
    });

    it("another account's file is public by name too", async () => {
      const stranger = await registerAccount(app);
      const response = await get(`/files/${png.name}`, stranger.auth);
      expect(response.statusCode).toBe(200);
    });
  });

  describe('conditional requests', () => {
    it('If-None-Match with the current ETag → 304 with no body, and the caching headers', async () => {
      const etag = String((await get(`/files/${png.name}`)).headers.etag);
      const response = await get(`/files/${png.name}`, { 'if-none-match': etag });
      expect(response.statusCode).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe(CACHE);
      expect(response.headers['content-type']).toBeUndefined();
    });

    it.each([
      ['a list that contains it', (etag: string) => `"nope", ${etag}`],
      ['its weak form', (etag: string) => `W/${etag}`],
      ['*', () => '*'],
    ])('If-None-Match with %s → 304', async (_label, header) => {
      const etag = String((await get(`/files/${png.name}`)).headers.etag);
      expect((await get(`/files/${png.name}`, { 'if-none-match': header(etag) })).statusCode).toBe(304);
    });

    it('If-None-Match with another ETag → 200 with the bytes', async () => {
      const response = await get(`/files/${png.name}`, { 'if-none-match': '"something-else"' });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(imageFixture('tiny.png'))).toBe(true);
    });
  });

  describe('HEAD', () => {
    it('answers the GET headers without a body', async () => {
      const response = await app.inject({ method: 'HEAD', url: `/files/${png.name}` });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['content-length']).toBe(String(imageFixture('tiny.png').length));
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe(CACHE);
      expect(response.headers['content-security-policy']).toBe(CSP);
      expect(response.headers.etag).toBe((await get(`/files/${png.name}`)).headers.etag);
    });

    it('with a matching If-None-Match → 304', async () => {
      const etag = String((await get(`/files/${png.name}`)).headers.etag);
      const response = await app.inject({ method: 'HEAD', url: `/files/${png.name}`, headers: { 'if-none-match': etag } });
      expect(response.statusCode).toBe(304);
    });

    it('of an unknown name → 404', async () => {
      const response = await app.inject({ method: 'HEAD', url: '/files/aaaaaaaaaaaaaaaaaaaaaaaa.png' });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('names that are not stored files → 404 "File not found."', () => {
    const attempts = [
      ['an unknown name of the stored form', '/files/zzzzzzzzzzzzzzzzzzzzzzzz.png'],
      ['encoded ../ segments', '/files/..%2F..%2F..%2Fetc%2Fpasswd'],
      ['lower-case encoded dots and slashes', '/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
      ['double-encoded traversal', '/files/%252e%252e%252fetc%252fpasswd'],
      ['backslashes', '/files/..%5C..%5Cwindows%5Cwin.ini'],
      ['an absolute path', '/files/%2Fetc%2Fpasswd'],
      ['a Windows drive path', '/files/C:%5Cwindows%5Cwin.ini'],
      ['a separator inside the name', '/files/abc%2Fdef.png'],
      ['a NUL byte', '/files/aaaaaaaaaaaaaaaaaaaaaaaa.png%00.html'],
      ['a temporary upload name', '/files/.tmp-aaaaaaaaaaaaaaaaaaaaaaaa'],
      ['an extension that is never stored', '/files/aaaaaaaaaaaaaaaaaaaaaaaa.html'],
      ['upper case', '/files/AAAAAAAAAAAAAAAAAAAAAAAA.PNG'],
      ['a bare dot', '/files/.'],
    ];

    it.each(attempts)('%s (%s)', async (_label, url) => {
      expectApiError(await get(url), 404, 'File not found.');
    });

    it('a stored name in another case or with a suffix', async () => {
      expectApiError(await get(`/files/${png.name.toUpperCase()}`), 404, 'File not found.');
      expectApiError(await get(`/files/${png.name}.png`), 404, 'File not found.');
    });

    it.each([
      ['dot segments (normalised away by URL parsing)', '/files/../../etc/passwd'],
      ['an empty name', '/files/'],
      // (/files/%2e%2e alone normalises to /, which redirects to the documentation.)
      ['encoded dots (normalised away too)', '/files/%2e%2e/passwd'],
      ['an extra path segment', `/files/x/y.png`],
    ])('%s → 404 ApiError', async (_label, url) => {
      expectApiError(await get(url), 404);
    });

    it('a file on disk that is not in the assets table is not served', async () => {
      const stray = 'strayfileaaaaaaaaaaaaaaa.png';
      await writeFile(path.join(app.config.uploadDir, stray), imageFixture('tiny.png'));
      expectApiError(await get(`/files/${stray}`), 404, 'File not found.');
    });

    it('a row whose file has gone → 404, and the 404 is not marked cacheable', async () => {
      const asset = await uploadAsset(app, owner, imageFixture('tiny.png'));
      await unlink(path.join(app.config.uploadDir, asset.name));
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await app.inject({ method, url: `/files/${asset.name}` });
        expect(response.statusCode).toBe(404);
        expect(response.headers['cache-control']).toBeUndefined();
        expect(response.headers.etag).toBeUndefined();
      }
      expectApiError(await get(`/files/${asset.name}`), 404, 'File not found.');
    });
  });

  it('an unknown query parameter → 400', async () => {
    expectApiError(await get(`/files/${png.name}?v=2`), 400);
  });
});
