// SIGTERM to a real server process while a render child is rasterising an SVG librsvg cannot
// finish: the render is stopped within the grace period, the upload is answered 503, the render
// child is gone and the process exits cleanly (exit code 0, not the grace timer's 1).
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, engineName } from '../helpers/app.js';
import { filePart, multipartBody } from '../helpers/multipart.js';
import { connect, requestHead, type RawResponse } from '../helpers/raw-http.js';
import { registerOver, startServer, type ServerProcess } from '../helpers/server-process.js';
import { translucentCircles } from '../../fixtures/svg-bombs.js';

const GRACE_MS = 4_000;
const METRICS_TOKEN = 'shutdown-test-metrics-token';

let server: ServerProcess;

/** Child processes of pid running the render child's entry. */
function renderChildren(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (!new RegExp(`^PPid:\\s+${pid}$`, 'm').test(status)) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('render/child')) found.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

beforeAll(async () => {
  server = await startServer({
    databaseUrl: databaseUrl() ?? '',
    env: { SHUTDOWN_GRACE_MS: String(GRACE_MS), RENDER_ANALYSIS_TIMEOUT_MS: '300000', METRICS_TOKEN },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe(`shutdown during a render (${engineName()})`, () => {
  it('SIGTERM while a render child rasterises: the upload gets 503, ' +
    'the child is killed, the process exits 0 within the grace period', async () => {
    const token = await registerOver(server.baseUrl, 'Shutdown');

    const body = multipartBody([filePart(translucentCircles(), { filename: 'drawing.svg', contentType: 'image/svg+xml' })]);
    const { socket, response } = await connect(Number(new URL(server.baseUrl).port));
    socket.write(
      requestHead('POST', '/assets', {
        authorization: `Bearer ${token}`,
        'content-type': body.contentType,
        'content-length': body.body.length,
      }),
    );
    socket.write(body.body);
    const answered = response.then(
      (value): RawResponse | Error => value,
      (error: Error) => error,
    );

    // The analysis child has started and taken the task: it is rasterising now.
    const analysisBusy = async () => {
      const metrics = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      return (await metrics.text()).includes('render_children{pool="analysis",state="busy"} 1');
    };
    const until = Date.now() + 30_000;
    let busy = await analysisBusy();
    while (!busy && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      busy = await analysisBusy();
    }
    expect(busy, server.output()).toBe(true);
    const children = renderChildren(server.pid);
    expect(children.length, server.output()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(alive(children[0]!)).toBe(true);

    const signalled = Date.now();
    process.kill(server.pid, 'SIGTERM');
    const code = await server.exited;
    const took = Date.now() - signalled;

    expect(code, server.output()).toBe(0);
    expect(took, 'exit within the grace period').toBeLessThan(GRACE_MS);
    expect(alive(children[0]!), `render child ${children[0]} is gone`).toBe(false);
    const upload = await answered;
    expect(upload instanceof Error ? upload.message : upload.statusCode).toBe(503);
  }, 90_000);
});
