// Compressed answers: the viewer's script, models and JSON go out with brotli or gzip when the
// client accepts it, decompress to the very bytes an uncompressed request gets, and say so
// (content-encoding, vary). A client that accepts nothing gets the plain bytes.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName } from '../helpers/app.js';

describe(`compression (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it.each([
    ['/viewer/viewer.js', 'br', 'br'],
    ['/viewer/viewer.js', 'gzip', 'gzip'],
    ['/templates/mailer-box/model', 'gzip, deflate, br', 'br'],
    ['/templates/mailer-box/model', 'gzip', 'gzip'],
    ['/templates', 'br', 'br'],
    ['/templates/rsc-box/dieline', 'gzip', 'gzip'],
  ])('%s with accept-encoding %s → %s', async (url, accepted, expected) => {
    const plain = await get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const packed = await get(url, { 'accept-encoding': accepted });
    expect(packed.statusCode).toBe(200);
    expect(packed.headers['content-encoding']).toBe(expected);
    expect(String(packed.headers.vary)).toMatch(/accept-encoding/i);
    expect(packed.headers['content-type']).toBe(plain.headers['content-type']);
    const unpacked = expected === 'br' ? brotliDecompressSync(packed.rawPayload) : gunzipSync(packed.rawPayload);
    expect(unpacked.equals(plain.rawPayload)).toBe(true);
    expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
  });

  describe("the catalog listing's content codings", () => {
    it.each([
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['*', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
    ])('accept-encoding %s → %s, the same bytes, ETag and caching, and Vary on every answer', async (accepted, expected) => {
      const plain = await get('/templates');
      expect(plain.headers.vary).toBe('accept-encoding');
      const answer = await get('/templates', { 'accept-encoding': accepted });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding']).toBe(expected);
      expect(answer.headers.vary).toBe('accept-encoding');
      for (const header of ['etag', 'cache-control', 'content-type']) expect(answer.headers[header]).toBe(plain.headers[header]);
      const decode = { br: brotliDecompressSync, gzip: gunzipSync }[expected ?? ''] ?? ((bytes: Buffer) => bytes);
      const bytes = decode(answer.rawPayload);
      expect(bytes.equals(plain.rawPayload)).toBe(true);
      expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
    });

    it('x-no-compression gets the plain bytes; a 304 carries Vary; a filtered listing is compressed with Vary once', async () => {
      const plain = await get('/templates', { 'accept-encoding': 'br', 'x-no-compression': '1' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.json().templates.length).toBeGreaterThan(0);
      const notModified = await get('/templates', { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.rawPayload.length).toBe(0);
      expect(notModified.headers.vary).toBe('accept-encoding');
      expect(notModified.headers['content-encoding']).toBeUndefined();
      const filtered = await get('/templates?q=box', { 'accept-encoding': 'br' });
      expect(filtered.statusCode).toBe(200);
      expect(filtered.headers.vary).toBe('accept-encoding');
      const unfiltered = await get('/templates?q=box');
      expect(unfiltered.headers.vary).toBe('accept-encoding');
      expect(filtered.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(filtered.rawPayload).equals(unfiltered.rawPayload)).toBe(true);
    });
  });
});
