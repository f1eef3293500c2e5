// One access-log line per request at the default level, instead of Fastify's two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { testConfig, engineName } from '../helpers/app.js';
import { captureLogLines } from '../helpers/log-capture.js';

const capture = captureLogLines;

describe(`the access log (${engineName()})`, () => {
  let app: App;
  const { lines, stream } = capture();
  beforeAll(async () => {
    // The default level (config.ts): info.
    const config = testConfig();
    app = await buildApp({ ...config, logLevel: 'info' }, { logStream: stream });
    await app.ready();
  });
  afterAll(() => app.close());

  const linesOf = (requestId: unknown) => lines.filter((line) => line.reqId === requestId);

  it('writes exactly one line per request: method, route, status, time and request id', async () => {
    const response = await app.inject({ method: 'GET', url: '/templates?q=box', headers: { 'x-request-id': 'access-log-1' } });
    expect(response.statusCode).toBe(200);
    const written = linesOf('access-log-1');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', route: '/templates', statusCode: 200 });
    expect(typeof written[0]!.responseTime).toBe('number');
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
  });

  it('names the route template, never the raw URL, and "unmatched" when no route matched', async () => {
    await app.inject({ method: 'GET', url: '/templates/mailer-box?x=s3cr3tvalue', headers: { 'x-request-id': 'access-log-2' } });
    await app.inject({ method: 'GET', url: '/nowhere/at/all', headers: { 'x-request-id': 'access-log-3' } });
    const [template] = linesOf('access-log-2').filter((line) => line.msg === 'request completed');
    expect(template).toMatchObject({ route: '/templates/:id', statusCode: 400 });
    expect(JSON.stringify(linesOf('access-log-2'))).not.toContain('s3cr3tvalue');
    const [unmatched] = linesOf('access-log-3').filter((line) => line.msg === 'request completed');
    expect(unmatched).toMatchObject({ method: 'GET', route: 'unmatched', statusCode: 404 });
  });

  it("labels a refusal and the access line after it with the request's id", async () => {
    const response = await app.inject({ method: 'GET', url: '/templates?category=nope', headers: { 'x-request-id': 'access-log-4' } });
    expect(response.statusCode).toBe(400);
    const mine = linesOf('access-log-4');
    expect(mine.map((line) => line.msg)).toEqual(['request rejected', 'request completed']);
    expect(mine[1]).toMatchObject({ route: '/templates', statusCode: 400 });
  });

  it('writes nothing per request above the info level', async () => {
    const quiet = capture();
    const warnApp = await buildApp({ ...testConfig(), logLevel: 'warn' }, { logStream: quiet.stream });
    try {
      await warnApp.inject({ method: 'GET', url: '/templates' });
      expect(quiet.lines).toEqual([]);
    } finally {
      await warnApp.close();
    }
  });
});
