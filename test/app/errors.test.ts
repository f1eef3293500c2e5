import { Agent, request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { registerAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, testConfig } from '../helpers/app.js';
import { listenLocally } from '../helpers/raw-http.js';

const expectApiError = (body: unknown, statusCode: number, error: string) => {
  expect(Object.keys(body as object).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(body).toMatchObject({ statusCode, error });
};

describe(`error contract (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('answers an unknown route with 404 naming method and path', async () => {
    const response = await app.inject({ method: 'GET', url: '/x' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route GET /x not found.' });
    const withQuery = await app.inject({ method: 'DELETE', url: '/nope/deeper?token=secret' });
    expect(withQuery.json().message).toBe('Route DELETE /nope/deeper not found.');
  });

  it('answers malformed JSON with a fixed message that never quotes the body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.co","password":hunter2secret}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Request body is not valid JSON.' });
    expect(response.body).not.toContain('hunter2');
  });

  it('refuses prototype-poisoning keys in JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.co","password":"12345678","__proto__":{"admin":true}}',
    });
    expect(response.statusCode).toBe(400);
    expectApiError(response.json(), 400, 'Bad Request');
  });

  it('answers 415 for text/plain and other non-JSON bodies', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const response = await app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': type }, payload: 'a=b' });
      expect(response.statusCode, type).toBe(415);
      expect(response.json()).toEqual({
        statusCode: 415,
        error: 'Unsupported Media Type',
        message: 'Unsupported Content-Type for this route: send the body as application/json.',
      });
    }
  });

  it('answers 415 naming multipart/form-data on the upload route, for another type or none', async () => {
    const account = await registerAccount(app);
    for (const headers of [{ ...account.auth, 'content-type': 'text/plain' }, account.auth]) {
      const response = await app.inject({ method: 'POST', url: '/assets', headers, payload: Buffer.from('abc') });
      expect(response.statusCode).toBe(415);
      expect(response.json().message).toBe('Unsupported Content-Type for this route: send the body as multipart/form-data.');
    }
    expect(await app.inject({ method: 'GET', url: '/assets', headers: account.auth }).then((r) => r.json().total)).toBe(0);
  });

  it('answers 415 naming application/json for a JSON body sent without a Content-Type', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: Buffer.from('{"email":"a@b.co","password":"12345678"}'),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message: 'Unsupported Content-Type for this route: send the body as application/json.',
    });
  });

  it('answers 413 for a JSON body over 1 MiB', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expectApiError(response.json(), 413, 'Payload Too Large');
  });

  it('reads an oversized or early-refused body to its end and keeps the connection (no reset under a proxy)', async () => {
    // Fastify refuses a Content-Length over the limit before reading a byte and asks to close:
    // closing with the body unread resets the socket, which nginx turns into a 502.
    const port = await listenLocally(app);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (target: string, chunks: Buffer[], contentLength: boolean) =>
      new Promise<{ status: number; connection: string | undefined; body: unknown; reused: boolean }>((resolve, reject) => {
        const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: target,
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', ...(contentLength ? { 'content-length': String(size) } : {}) },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.once('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                connection: res.headers.connection,
                body: JSON.parse(text),
                reused: req.reusedSocket,
              }),
            );
          },
        );
        req.once('error', reject);
        for (const chunk of chunks) req.write(chunk);
        req.end();
      });
    const oversized = Buffer.alloc(1024 * 1024 + 1, 0x20);
    oversized[0] = 0x7b;
    try {
      const answers = [
        await post('/auth/register', [oversized], true),
        // Chunked, no Content-Length: refused once the limit is passed, the rest still read.
        await post('/auth/register', [oversized.subarray(0, 600_000), oversized.subarray(600_000), Buffer.alloc(300_000, 0x20)], false),
        // 401 before the body is parsed.
        await post('/projects', [oversized], true),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([413, 413, 401]);
      expect(answers[0]?.body).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'Request body is larger than 1 MiB.' });
      expect(answers[1]?.body).toEqual(answers[0]?.body);
      expect(answers[2]?.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Authentication required.' });
      // One connection throughout, never told to close.
      expect(answers.map((answer) => [answer.connection, answer.reused])).toEqual([
        ['keep-alive', false],
        ['keep-alive', true],
        ['keep-alive', true],
      ]);
    } finally {
      agent.destroy();
    }
  });

  it('rejects unknown fields instead of stripping them', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.co', password: '12345678', role: 'admin' },
    });
    expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: "body has an unknown field 'role'." });
  });

  it('rejects wrong JSON types instead of coercing them', async () => {
    const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'a@b.co', password: 12345678 } });
    expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'body/password must be string.' });
    const missing = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'a@b.co' } });
    expect(missing.json().message).toBe("body must have required property 'password'.");
  });

  it('puts a request id on every response, reusing a sane incoming one', async () => {
    const generated = await app.inject({ method: 'GET', url: '/health' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const reused = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123.def' } });
    expect(reused.headers['x-request-id']).toBe('abc-123.def');
    const insane = await app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'a b<script>' } });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe(`unexpected errors (${engineName()})`, () => {
  it('answers 500 with the fixed message and logs the cause with the request id', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        callback();
      },
    });
    const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), { logStream });
    app.get('/boom', async () => {
      throw new Error('secret detail: SELECT * FROM users');
    });
    await app.ready();
    try {
      const response = await app.inject({ method: 'GET', url: '/boom', headers: { 'x-request-id': 'req-500' } });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'An unexpected error occurred.',
      });
      expect(response.body).not.toContain('secret');
      const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.level === 50);
      expect(logged).toMatchObject({ reqId: 'req-500', err: { message: 'secret detail: SELECT * FROM users' } });
    } finally {
      await app.close();
    }
  });

  it('redacts credentials from log lines', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), { logStream });
    app.get('/log-headers', async (request) => {
      request.log.info({ req: { headers: request.headers }, body: { password: 'hunter2hunter2' } }, 'headers seen');
      return { ok: true };
    });
    await app.ready();
    try {
      await app.inject({
        method: 'GET',
        url: '/log-headers',
        headers: { authorization: 'Bearer abc.def.ghi', 'x-api-key': 'pf_secretkey', cookie: 'session=1' },
      });
      const text = lines.join('\n');
      expect(text).toContain('headers seen');
      expect(text).not.toContain('abc.def.ghi');
      expect(text).not.toContain('pf_secretkey');
      expect(text).not.toContain('session=1');
      expect(text).not.toContain('hunter2hunter2');
    } finally {
      await app.close();
    }
  });
});

describe(`router-level errors (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('answers a malformed URL and an over-long path parameter with an ApiError 404 that does not echo the path', async () => {
    const malformed = await app.inject({ method: 'GET', url: '/files/%c0%ae%c0%ae%c0%afetc%E0%A4%A' });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'The URL is malformed.' });
    expect(malformed.headers['x-request-id']).toBeDefined();
    // Credentials come first under /projects (401 without a token); with one, the id is refused unread.
    const anonymous = await app.inject({ method: 'GET', url: `/projects/${'a'.repeat(150)}` });
    expect(anonymous.statusCode).toBe(401);
    const account = await registerAccount(app);
    const long = await app.inject({ method: 'GET', url: `/projects/${'a'.repeat(150)}`, headers: account.auth });
    expect(long.statusCode).toBe(404);
    expect(long.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'A path parameter is too long.' });
    expect(long.body).not.toContain('aaaa');
  });
});
