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

  const get = (url: string, encoding?: string) =>
    app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

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
    const packed = await get(url, accepted);
    expect(packed.statusCode).toBe(200);
    expect(packed.headers['content-encoding']).toBe(expected);
    expect(String(packed.headers.vary)).toMatch(/accept-encoding/i);
    expect(packed.headers['content-type']).toBe(plain.headers['content-type']);
    const unpacked = expected === 'br' ? brotliDecompressSync(packed.rawPayload) : gunzipSync(packed.rawPayload);
    expect(unpacked.equals(plain.rawPayload)).toBe(true);
    expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
  });
});
