import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, testConfig } from '../helpers/app.js';
import { listenLocally } from '../helpers/raw-http.js';
import { apiError, issueKey, type IssuedKey } from './keys.js';

const MISSING = apiError(401, 'Missing x-api-key header.');
const INVALID = apiError(401, 'Invalid API key.');
const UNKNOWN_KEY = `pf_${'0123456789abcdef'.repeat(3)}`;

describe(`the /v1 surface (${engineName()})`, () => {
  let app: App;
  let account: TestAccount;
  let apiKey: IssuedKey;

  beforeAll(async () => {
    app = await createTestApp();
    account = await registerAccount(app);
    apiKey = await issueKey(app, account);
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  describe('the key check', () => {
    it('opens /v1/templates and /v1/templates/:id with a valid key', async () => {
      const list = await get('/v1/templates', { 'x-api-key': apiKey.key });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject({ total: 11 });
      const one = await get('/v1/templates/mailer-box', { 'x-api-key': apiKey.key });
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ template: { id: 'mailer-box', category: 'mailer-boxes', kind: 'box' } });
    });

    it.each([
      ['no header', {}],
      ['an empty header', { 'x-api-key': '' }],
      ['a whitespace-only header', { 'x-api-key': ' \t ' }],
      ['only a JWT', 'jwt'],
    ])('answers 401 "Missing x-api-key header." to %s', async (_name, headers) => {
      for (const url of ['/v1/templates', '/v1/templates/mailer-box']) {
        const response = await get(url, headers === 'jwt' ? account.auth : headers);
        expect(response.statusCode).toBe(401);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.json()).toEqual(MISSING);
      }
    });

    it.each([
      ['a well-formed unknown key', () => UNKNOWN_KEY],
      ['a key in upper case', () => apiKey.key.toUpperCase()],
      ['a key with hex in upper case', () => `pf_${apiKey.key.slice(3).toUpperCase()}`],
      ['a key one character short', () => apiKey.key.slice(0, -1)],
      ['a key one character long', () => `${apiKey.key}0`],
      ['a key without its prefix', () => apiKey.key.slice(3)],
      ['a key with another prefix', () => `sk_${apiKey.key.slice(3)}`],
      ['a key inside a longer value', () => `x ${apiKey.key}`],
      ['a bearer-style value', () => `Bearer ${apiKey.key}`],
      ['a JWT', () => account.token],
      ['a non-hex key of the right length', () => `pf_${'g'.repeat(48)}`],
      ['a very long value', () => `pf_${'a'.repeat(8000)}`],
    ])('answers 401 "Invalid API key." to %s', async (_name, key) => {
      const response = await get('/v1/templates', { 'x-api-key': key() });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID);
    });

    it('ignores the spaces HTTP allows around a header value', async () => {
      expect((await get('/v1/templates', { 'x-api-key': ` ${apiKey.key}\t` })).statusCode).toBe(200);
    });

    it('answers "Invalid API key." to a revoked key, exactly like an unknown one', async () => {
      const revoked = await issueKey(app, account);
      // In use up to its revocation: the very next request is refused.
      expect((await get('/v1/templates', { 'x-api-key': revoked.key })).statusCode).toBe(200);
      const remove = await app.inject({ method: 'DELETE', url: `/api-keys/${revoked.id}`, headers: account.auth });
      expect(remove.statusCode).toBe(204);
      const afterRevoke = await get('/v1/templates', { 'x-api-key': revoked.key });
      const unknown = await get('/v1/templates', { 'x-api-key': UNKNOWN_KEY });
      expect(afterRevoke.statusCode).toBe(401);
      expect(afterRevoke.body).toBe(unknown.body);
      expect(afterRevoke.headers['content-type']).toBe(unknown.headers['content-type']);
      expect(afterRevoke.json()).toEqual(INVALID);
    });

    it('a JWT never opens /v1, and does not rescue a bad key', async () => {
      const withBad = await get('/v1/templates', { ...account.auth, 'x-api-key': UNKNOWN_KEY });
      expect(withBad.json()).toEqual(INVALID);
    });

    it('stops working from the next request when the owning account is deleted', async () => {
      const doomed = await registerAccount(app);
      const key = await issueKey(app, doomed);
      expect((await get('/v1/templates', { 'x-api-key': key.key })).statusCode).toBe(200);
      await app.db.prisma.user.delete({ where: { id: doomed.id } });
      expect((await get('/v1/templates', { 'x-api-key': key.key })).json()).toEqual(INVALID);
    });

    it('answers a repeated x-api-key header with "Invalid API key." over real HTTP', async () => {
      const server = await createTestApp();
      try {
        const owner = await registerAccount(server);
        const key = await issueKey(server, owner);
        const port = await listenLocally(server);
        const twice = await rawGet(port, '/v1/templates', { 'x-api-key': [key.key, key.key] });
        expect(twice.status).toBe(401);
        expect(JSON.parse(twice.body)).toEqual(INVALID);
        const once = await rawGet(port, '/v1/templates', { 'x-api-key': key.key });
        expect(once.status).toBe(200);
      } finally {
        await server.close();
      }
    });
  });

  describe('the key is checked before anything else', () => {
    it.each([
      '/v1/templates?category=nope',
      '/v1/templates?unknown=1',
      `/v1/templates?q=${'a'.repeat(201)}`,
      '/v1/templates/mailer-box?unknown=1',
      '/v1/templates/does-not-exist',
      '/v1/nope',
      '/v1',
      '/v1/',
    ])('GET %s is 401 without a key and with a bad key', async (url) => {
      expect((await get(url)).json()).toEqual(MISSING);
      expect((await get(url, { 'x-api-key': UNKNOWN_KEY })).json()).toEqual(INVALID);
      expect((await get(url, { 'x-api-key': 'garbage' })).json()).toEqual(INVALID);
    });

    it('a body on a /v1 request without a key is 401, not a parsing error', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/templates',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(response.json()).toEqual(MISSING);
    });

    it('with a valid key, unknown /v1 routes are the usual 404 ApiError', async () => {
      const response = await get('/v1/nope?x=1', { 'x-api-key': apiKey.key });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(apiError(404, 'Route GET /v1/nope not found.'));
    });
  });

  describe('same payload as the public routes', () => {
    it.each([
      ['/templates', 200],
      ['/templates?category=mailer-boxes', 200],
      ['/templates?q=BOX', 200],
      ['/templates?category=bottles-jars&q=bottle', 200],
      ['/templates?category=labels-sleeves', 200],
      ['/templates?q=no-such-thing', 200],
      ['/templates/mailer-box', 200],
      ['/templates/rsc-box', 200],
      ['/templates?category=nope', 400],
      ['/templates?unknown=1', 400],
      [`/templates?q=${'a'.repeat(201)}`, 400],
      ['/templates/mailer-box?unknown=1', 400],
      ['/templates/does-not-exist', 404],
    ])('GET /v1%s answers byte for byte what GET %s answers', async (path, status) => {
      const pub = await get(path);
      const v1 = await get(`/v1${path}`, { 'x-api-key': apiKey.key });
      expect(pub.statusCode).toBe(status);
      expect(v1.statusCode).toBe(status);
      expect(v1.headers['content-type']).toBe(pub.headers['content-type']);
      expect(v1.rawPayload.equals(pub.rawPayload)).toBe(true);
    });

    it('the public routes still need no key', async () => {
      expect((await get('/templates')).statusCode).toBe(200);
      expect((await get('/templates', { 'x-api-key': 'garbage' })).statusCode).toBe(200);
    });
  });

  it('identifies the key and its owner in the request log, never the key itself', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    const logged = await buildApp(testConfig({ LOG_LEVEL: 'info' }), { logStream: stream });
    try {
      const owner = await registerAccount(logged);
      const key = await issueKey(logged, owner);
      const response = await logged.inject({
        method: 'GET',
        url: '/v1/templates/does-not-exist',
        headers: { 'x-api-key': key.key },
      });
      expect(response.statusCode).toBe(404);
      const requestId = response.headers['x-request-id'];
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.reqId === requestId);
      const completed = entries.find((entry) => entry.msg === 'request completed');
      const rejected = entries.find((entry) => entry.msg === 'request rejected');
      expect(completed).toMatchObject({ apiKeyId: key.id, userId: owner.id });
      expect(rejected).toMatchObject({ apiKeyId: key.id, userId: owner.id });
      expect(lines.join('\n')).not.toContain(key.key.slice(3));

      // The key belongs to that request's logger alone, not to the next request's.
      const publicRequest = await logged.inject({ method: 'GET', url: '/templates/does-not-exist' });
      const publicEntries = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.reqId === publicRequest.headers['x-request-id']);
      expect(publicEntries.length).toBeGreaterThan(0);
      for (const entry of publicEntries) expect(entry).not.toHaveProperty('apiKeyId');
    } finally {
      await logged.close();
    }
  });
});

describe(`the /v1 rate limit per key (${engineName()})`, () => {
  let app: App;
  let account: TestAccount;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_V1_PER_MIN: '2' });
    account = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, key?: string) =>
    app.inject({ method: 'GET', url, headers: key === undefined ? {} : { 'x-api-key': key } });

  it('answers the request over the limit with a 429 ApiError and Retry-After; another key is not limited', async () => {
    const first = await issueKey(app, account);
    const second = await issueKey(app, account);
    expect((await get('/v1/templates', first.key)).statusCode).toBe(200);
    expect((await get('/v1/templates/mailer-box', first.key)).statusCode).toBe(200);
    const limited = await get('/v1/templates', first.key);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(Object.keys(limited.json()).sort()).toEqual(['error', 'message', 'statusCode']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await get('/v1/templates', second.key)).statusCode).toBe(200);
  });

  it('checks the key before the limit: missing and invalid keys stay 401 and spend no budget', async () => {
    const key = await issueKey(app, account);
    for (let i = 0; i < 5; i++) {
      expect((await get('/v1/templates')).json()).toEqual(MISSING);
      expect((await get('/v1/templates', UNKNOWN_KEY)).json()).toEqual(INVALID);
    }
    expect((await get('/v1/templates', key.key)).statusCode).toBe(200);
    expect((await get('/v1/templates', key.key)).statusCode).toBe(200);
    expect((await get('/v1/templates', key.key)).statusCode).toBe(429);
  });

  it('never limits the public routes', async () => {
    for (let i = 0; i < 5; i++) expect((await get('/templates')).statusCode).toBe(200);
  });
});

// On one keep-alive connection, every request is judged by its own key.
describe(`/v1 keys on one keep-alive connection, over real HTTP (${engineName()})`, () => {
  it('identifies each request by its own key, whatever the connection carried before', async () => {
    const server = await createTestApp({ RATE_LIMIT_V1_PER_MIN: '3' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const owner = await registerAccount(server);
      const first = await issueKey(server, owner);
      const second = await issueKey(server, owner);
      let connections = 0;
      server.server.on('connection', () => (connections += 1));
      const port = await listenLocally(server);
      const get = (key: string) => rawGet(port, '/v1/templates', { 'x-api-key': key }, agent);
      const remaining = async (key: string) => {
        const response = await get(key);
        expect(response.status, response.body).toBe(200);
        return response.headers['x-ratelimit-remaining'];
      };

      // Each key spends its own per-key budget, alternating on one connection.
      expect([await remaining(first.key), await remaining(second.key), await remaining(first.key), await remaining(second.key)]).toEqual([
        '2', '2', '1', '1',
      ]);
      // A key one character away from the one the connection last carried, and a malformed one.
      const nearMiss = second.key.slice(0, -1) + (second.key.endsWith('0') ? '1' : '0');
      expect(JSON.parse((await get(nearMiss)).body)).toEqual(INVALID);
      expect(JSON.parse((await get(`${second.key}0`)).body)).toEqual(INVALID);
      // Revoked between two requests on the connection.
      expect(await remaining(first.key)).toBe('0');
      const revoked = await server.inject({ method: 'DELETE', url: `/api-keys/${first.id}`, headers: owner.auth });
      expect(revoked.statusCode).toBe(204);
      const afterRevoke = await get(first.key);
      expect(afterRevoke.status).toBe(401);
      expect(JSON.parse(afterRevoke.body)).toEqual(INVALID);
      expect(await remaining(second.key)).toBe('0');
      expect(connections, 'every request went over one connection').toBe(1);
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});

function rawGet(port: number, path: string, headers: Record<string, string | string[]>, agent?: Agent) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}
