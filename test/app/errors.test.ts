// The one error path (src/plugins/errors.ts): thrown errors, unknown routes, URLs the router
// cannot take (credentials first under a guarded prefix), and the answers Node's HTTP server and
// Fastify would write themselves (the closing 503 with Retry-After, a request without Host, an
// unsupported Expect, bytes the HTTP parser refuses), all ApiErrors with a request id.
import { Agent, request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { HttpError, MESSAGES } from '../../src/errors.js';
import { apiError, registerAdmin } from '../accounts/helpers.js';
import { issueKey, type IssuedKey } from '../api-keys/keys.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, testConfig } from '../helpers/app.js';
import { captureLogLines } from '../helpers/log-capture.js';
import { connect, listenLocally, parseResponse, rawRequest, type RawResponse } from '../helpers/raw-http.js';

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

  // A deliberate 503 is logged at warn without a stack.
  it('logs the print queue refusal as a warning naming the reason', async () => {
    const { lines, stream } = captureLogLines();
    const logged = await buildApp({ ...testConfig(), logLevel: 'info' }, { logStream: stream });
    // The print service's refusal when its queue is full, as its routes throw it.
    logged.get('/busy-for-this-test', async () => {
      throw new HttpError(503, MESSAGES.printBusy);
    });
    try {
      const response = await logged.inject({ method: 'GET', url: '/busy-for-this-test', headers: { 'x-request-id': 'busy-1' } });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      const refusal = lines.filter((line) => line.reqId === 'busy-1' && line.msg !== 'request completed');
      expect(refusal).toEqual([expect.objectContaining({ level: 40, statusCode: 503, reason: MESSAGES.printBusy })]);
      expect(JSON.stringify(refusal)).not.toContain('stack');
    } finally {
      await logged.close();
    }
  });
});

describe(`router-level errors (${engineName()})`, () => {
  let app: App;
  let port = 0;
  let user: TestAccount;
  let admin: TestAccount;
  let key: IssuedKey;
  beforeAll(async () => {
    app = await createTestApp();
    port = await listenLocally(app);
    user = await registerAccount(app);
    admin = await registerAdmin(app);
    key = await issueKey(app, user);
  });
  afterAll(() => app.close());

  const raw = (target: string, headers: Record<string, string> = {}) => rawRequest(port, 'GET', target, headers);
  const bodyOf = (response: RawResponse) => JSON.parse(response.body.toString('utf8')) as unknown;

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

  it('checks the key on a malformed /v1 URL before saying the URL is malformed', async () => {
    const missing = await raw('/v1/%');
    expect(missing.statusCode).toBe(401);
    expect(bodyOf(missing)).toEqual(apiError(401, MESSAGES.missingApiKey));
    expect(missing.headers['x-request-id']).toBeTruthy();
    expect(bodyOf(await raw('/v1/%', { 'x-api-key': `pf_${'0'.repeat(48)}` }))).toEqual(apiError(401, MESSAGES.invalidApiKey));
    expect(bodyOf(await raw('/v1/templates/%zz', { 'x-api-key': key.key }))).toEqual(apiError(404, 'The URL is malformed.'));
  });

  it('checks the token and the role on a malformed /admin URL first', async () => {
    expect(bodyOf(await raw('/admin/%'))).toEqual(apiError(401, MESSAGES.authRequired));
    expect(bodyOf(await raw('/admin/%', { authorization: 'Bearer a.b.c' }))).toEqual(apiError(401, MESSAGES.invalidToken));
    expect(bodyOf(await raw('/admin/%', user.auth))).toEqual(apiError(403, MESSAGES.adminRequired));
    expect(bodyOf(await raw('/admin/%', admin.auth))).toEqual(apiError(404, 'The URL is malformed.'));
  });

  it('answers a 200-character project id with a bad token 401, with a good one 404', async () => {
    const longId = 'a'.repeat(200);
    expect(bodyOf(await raw(`/projects/${longId}`, { authorization: 'Bearer a.b.c' }))).toEqual(apiError(401, MESSAGES.invalidToken));
    expect(bodyOf(await raw(`/projects/${longId}`))).toEqual(apiError(401, MESSAGES.authRequired));
    expect(bodyOf(await raw(`/projects/${longId}`, user.auth))).toEqual(apiError(404, 'A path parameter is too long.'));
    // Public routes are unchanged.
    expect(bodyOf(await raw('/templates/%'))).toEqual(apiError(404, 'The URL is malformed.'));
  });
});

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function expectRawApiError(response: RawResponse, status: number, message: string) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['x-request-id']).toMatch(REQUEST_ID);
  expect(JSON.parse(response.body.toString('utf8'))).toEqual({ statusCode: status, error: expect.any(String), message });
}

/** Sends raw bytes on a new connection and returns the first response. */
async function send(port: number, raw: string): Promise<RawResponse> {
  const { socket, response } = await connect(port);
  socket.end(Buffer.from(raw, 'latin1'));
  return response;
}

describe(`framework answers are ApiErrors (${engineName()})`, () => {
  let app: App;
  let port = 0;
  beforeAll(async () => {
    app = await createTestApp();
    port = await listenLocally(app);
  });
  afterAll(() => app.close());

  it('answers an HTTP/1.1 request without Host with a 400 ApiError', async () => {
    const response = await send(port, 'GET /templates HTTP/1.1\r\nConnection: close\r\n\r\n');
    expectRawApiError(response, 400, 'The Host header is required.');
    // HTTP/1.0 may omit it.
    expect((await send(port, 'GET /health HTTP/1.0\r\n\r\n')).statusCode).toBe(200);
  });

  it('answers an Expect other than 100-continue with a 417 ApiError', async () => {
    const response = await send(port, 'GET /templates HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n');
    expectRawApiError(response, 417, 'Only "Expect: 100-continue" is supported.');
  });

  it('answers a control byte in a header, and an oversized head, with ApiErrors and a request id', async () => {
    const control = await send(port, 'GET /templates HTTP/1.1\r\nHost: localhost\r\nX-Note: a\x01b\r\n\r\n');
    expectRawApiError(control, 400, 'The request is not valid HTTP.');
    const oversized = await send(port, `GET /templates HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectRawApiError(oversized, 431, 'The request headers are too large.');
  });

  it('answers a request arriving while the app closes with a 503 ApiError, x-request-id and Retry-After', async () => {
    const closing = await createTestApp();
    const { socket, response } = await connect(await listenLocally(closing));
    // A first request still in progress keeps the connection busy while the app starts closing;
    // the second, pipelined behind it, arrives after.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'password1' });
    const head = `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    socket.write(`${head}${body.slice(0, 5)}`);
    await sleep(100);
    const closed = closing.close();
    await sleep(100);
    socket.write(`${body.slice(5)}GET /templates HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    // The first response, then the second's head and body, until the service closes the connection.
    const first = await response;
    await closed;
    expect(first.statusCode).toBe(401);
    const rest = first.body.toString('latin1');
    const parsed = parseResponse(Buffer.from(rest.slice(rest.indexOf('HTTP/1.1 ')), 'latin1'));
    expectRawApiError(parsed, 503, 'The service is shutting down; retry in a few seconds.');
    expect(parsed.headers['retry-after']).toBe('5');
  });
});
