// The answers Node's HTTP server and Fastify would write themselves are ApiErrors with a request id:
// the closing 503 (with Retry-After), a request without Host, an unsupported Expect, bytes the
// HTTP parser refuses.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { connect, listenLocally, parseResponse, type RawResponse } from '../helpers/raw-http.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function expectApiError(response: RawResponse, status: number, message: string) {
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
    expectApiError(response, 400, 'The Host header is required.');
    // HTTP/1.0 may omit it.
    expect((await send(port, 'GET /health HTTP/1.0\r\n\r\n')).statusCode).toBe(200);
  });

  it('answers an Expect other than 100-continue with a 417 ApiError', async () => {
    const response = await send(port, 'GET /templates HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n');
    expectApiError(response, 417, 'Only "Expect: 100-continue" is supported.');
  });

  it('answers a control byte in a header, and an oversized head, with ApiErrors and a request id', async () => {
    const control = await send(port, 'GET /templates HTTP/1.1\r\nHost: localhost\r\nX-Note: a\x01b\r\n\r\n');
    expectApiError(control, 400, 'The request is not valid HTTP.');
    const oversized = await send(port, `GET /templates HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectApiError(oversized, 431, 'The request headers are too large.');
  });

  it('answers a request arriving while the app closes with a 503 ApiError, x-request-id and Retry-After', async () => {
    const closing = await createTestApp();
    const { socket, response } = await connect(await listenLocally(closing));
    // A first request still in progress keeps the connection busy while the app starts closing;
    // the second, pipelined behind it, arrives after.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'password1' });
    socket.write(
      `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: ` +
        `application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
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
    expectApiError(parsed, 503, 'The service is shutting down; retry in a few seconds.');
    expect(parsed.headers['retry-after']).toBe('5');
  });
});
