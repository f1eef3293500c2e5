// SIGTERM to a real server process while a client sends an upload's body very slowly: half way
// through the grace period the upload is answered 503 (an ApiError with Retry-After), and the
// process exits cleanly (exit code 0, not the grace timer's 1) within the grace period.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, engineName } from '../helpers/app.js';
import { pngOfSize } from '../helpers/images.js';
import { filePart, multipartBody } from '../helpers/multipart.js';
import { connect, requestHead, type RawResponse } from '../helpers/raw-http.js';
import { registerOver, startServer, type ServerProcess } from '../helpers/server-process.js';

const GRACE_MS = 4_000;

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ databaseUrl: databaseUrl() ?? '', env: { SHUTDOWN_GRACE_MS: String(GRACE_MS) } });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe(`shutdown during a slow upload (${engineName()})`, () => {
  it('SIGTERM while an upload body trickles in: 503 with the ApiError body, the process exits 0 within the grace period', async () => {
    const token = await registerOver(server.baseUrl, 'Slow');

    const body = multipartBody([filePart(pngOfSize(256 * 1024), { filename: 'slow.png', contentType: 'image/png' })]);
    const { socket, response } = await connect(Number(new URL(server.baseUrl).port));
    socket.write(
      requestHead('POST', '/assets', {
        authorization: `Bearer ${token}`,
        'content-type': body.contentType,
        'content-length': body.body.length,
      }),
    );
    // 64 bytes every 100 ms: the whole body would take minutes.
    let sent = 4096;
    socket.write(body.body.subarray(0, sent));
    const trickle = setInterval(() => {
      if (socket.destroyed || sent >= body.body.length) return;
      socket.write(body.body.subarray(sent, sent + 64), () => undefined);
      sent += 64;
    }, 100);
    const answered = response.then(
      (value): RawResponse | Error => value,
      (error: Error) => error,
    );
    try {
      // The server is reading the body (the handler has its first part).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const signalled = Date.now();
      process.kill(server.pid, 'SIGTERM');
      const upload = await answered;
      const answeredAfter = Date.now() - signalled;
      const code = await server.exited;
      const took = Date.now() - signalled;

      expect(upload instanceof Error ? upload.message : upload.statusCode, server.output()).toBe(503);
      const answer = upload as RawResponse;
      expect(JSON.parse(answer.body.toString('utf8'))).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The service is shutting down; retry in a few seconds.',
      });
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      expect(answeredAfter, 'answered within the grace period').toBeLessThan(GRACE_MS);
      expect(code, server.output()).toBe(0);
      expect(took, 'exit within the grace period').toBeLessThan(GRACE_MS);
      expect(sent).toBeLessThan(body.body.length);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  }, 60_000);
});
