// The catalog's HTTP caching: a strong ETag on every listing (any query), five minutes of freshness
// for shared caches on the public route and for the client's own cache behind a key, and a 304
// with no body when If-None-Match names the current listing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { issueKey, type IssuedKey } from '../api-keys/keys.js';
import { registerAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';

const PUBLIC = 'public, max-age=300, stale-while-revalidate=86400';
const PRIVATE = 'private, max-age=300, stale-while-revalidate=86400';
const STRONG_ETAG = /^"[A-Za-z0-9_-]{27}"$/;

describe(`catalog caching (${engineName()})`, () => {
  let app: App;
  let key: IssuedKey;
  beforeAll(async () => {
    app = await createTestApp();
    key = await issueKey(app, await registerAccount(app));
  });
  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it.each(['/templates', '/templates?category=product-boxes', '/templates?q=box', '/templates?category=tubes&q=zzz'])(
    'GET %s has a strong ETag, public caching and a 304 on If-None-Match',
    async (url) => {
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe(PUBLIC);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(STRONG_ETAG);

      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe(PUBLIC);
      expect(again.headers['x-request-id']).toBeTruthy();
      // Weak comparison, lists and "*" (RFC 9110 §13.1.2).
      expect((await get(url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
      expect((await get(url, { 'if-none-match': '*' })).statusCode).toBe(304);
      const stale = await get(url, { 'if-none-match': '"not-this-one"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.body).toBe(first.body);
    },
  );

  it('gives different listings different ETags and the same listing the same one', async () => {
    const tags = await Promise.all(
      ['/templates', '/templates?q=box', '/templates?category=product-boxes', '/templates?q=BOX'].map(
        async (url) => (await get(url)).headers.etag,
      ),
    );
    expect(new Set(tags.slice(0, 3)).size).toBe(3);
    expect(tags[3]).toBe(tags[1]);
  });

  it('/v1/templates has the same ETag and 304, but private caching', async () => {
    for (const url of ['/templates', '/templates?category=product-boxes']) {
      const pub = await get(url);
      const v1 = await get(`/v1${url}`, { 'x-api-key': key.key });
      expect(v1.statusCode).toBe(200);
      expect(v1.headers.etag).toBe(pub.headers.etag);
      expect(v1.headers['cache-control']).toBe(PRIVATE);
      const notModified = await get(`/v1${url}`, { 'x-api-key': key.key, 'if-none-match': String(pub.headers.etag) });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe('');
      expect(notModified.headers['cache-control']).toBe(PRIVATE);
    }
  });

  it('checks the key before answering 304', async () => {
    const etag = String((await get('/templates')).headers.etag);
    const response = await get('/v1/templates', { 'if-none-match': etag });
    expect(response.statusCode).toBe(401);
  });

  it('the OpenAPI document lists ETag, Cache-Control and Vary as sent on every listing answer, its 304 included', async () => {
    type Headers = Record<string, { required?: boolean; description?: string }>;
    type Paths = Record<string, { get: { responses: Record<string, { headers?: Headers }> } }>;
    const { paths } = (await get('/openapi.json')).json<{ paths: Paths }>();
    for (const path of ['/templates', '/v1/templates']) {
      for (const status of ['200', '304']) {
        const headers = paths[path]?.get.responses[status]?.headers ?? {};
        for (const name of ['etag', 'cache-control', 'vary']) expect(headers[name]?.required, `${path} ${status} ${name}`).toBe(true);
        expect(headers['cache-control']?.description).toContain(PUBLIC);
        expect(headers.vary?.description).toMatch(/^accept-encoding: /);
      }
    }
  });

  it('an unknown category is still a 400 without caching headers', async () => {
    const response = await get('/templates?category=nope', { 'if-none-match': '*' });
    expect(response.statusCode).toBe(400);
    expect(response.headers.etag).toBeUndefined();
  });
});
