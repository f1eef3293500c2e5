// GET /templates over real HTTP is answered by the server's fast path (src/lib/fast-path.ts)
// without entering Fastify, and its answer cannot be told from the route's own: same status,
// headers and bytes, the request id, the request metrics. Whatever else reaches the route, and
// every request while requests are logged or the app closes, goes through Fastify.
import { request as httpRequest, Agent } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { FULL_LISTING_BYTES } from '../../src/catalog/index.js';
import { engineName, testConfig } from '../helpers/app.js';
import { listenLocally } from '../helpers/raw-http.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(port: number, path: string, options: { agent?: Agent; headers?: Record<string, string>; method?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', agent: options.agent, headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe(`the catalog's fast path (${engineName()})`, { timeout: 60_000 }, () => {
  const apps: App[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  /** A listening app that counts the requests Fastify's pipeline sees. */
  async function start(env: Record<string, string> = {}, lines?: string[], beforeReady?: (app: App) => void) {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines?.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp(testConfig({ METRICS_TOKEN, ...env }), lines ? { logStream } : { logger: false });
    apps.push(app);
    const seen: string[] = [];
    app.addHook('onRequest', async (request) => {
      seen.push(`${request.method} ${request.url}`);
    });
    beforeReady?.(app);
    await app.ready();
    return { app, seen, port: await listenLocally(app) };
  }

  const durationCount = async (app: App) => {
    const text = (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    return Number(/http_request_duration_seconds_count\{method="GET",route="\/templates",status_code="200"\} (\d+)/.exec(text)?.[1] ?? 0);
  };

  it("answers GET /templates without Fastify, with the route's status, headers and bytes", async () => {
    const { app, seen, port } = await start();
    const fast = await get(port, '/templates');
    expect(seen).toEqual([]);
    const fromRoute = await app.inject({ url: '/templates' });
    expect(seen).toEqual(['GET /templates']);

    expect(fast.status).toBe(200);
    expect(fast.body.equals(FULL_LISTING_BYTES)).toBe(true);
    expect(fast.body.equals(fromRoute.rawPayload)).toBe(true);
    for (const name of ['content-type', 'content-length']) expect(fast.headers[name]).toBe(fromRoute.headers[name]);
    expect(fast.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // What Node adds to every answer, the route's as well.
    expect(fast.headers.date).toBeDefined();
    expect(fast.headers.connection).toBe('keep-alive');
    expect(fast.headers['keep-alive']).toBe('timeout=72');
  });

  it('reuses a sane incoming request id and replaces any other, like every route', async () => {
    const { seen, port } = await start();
    expect((await get(port, '/templates', { headers: { 'x-request-id': 'edge-7f3a.2' } })).headers['x-request-id']).toBe('edge-7f3a.2');
    const replaced = (await get(port, '/templates', { headers: { 'x-request-id': 'no spaces allowed' } })).headers['x-request-id'];
    expect(replaced).not.toBe('no spaces allowed');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen).toEqual([]);
  });

  it('counts its answers in the request metrics under the route template, beside the route\'s own', async () => {
    const { app, port } = await start();
    await app.inject({ url: '/templates' });
    expect(await durationCount(app)).toBe(1);
    for (let i = 0; i < 3; i++) await get(port, '/templates');
    expect(await durationCount(app)).toBe(4);
  });

  it('leaves every other request to Fastify: a query, a trailing slash, HEAD, a body, another path', async () => {
    const { seen, port } = await start();
    const filtered = await get(port, '/templates?category=mailer-boxes');
    expect(filtered.status).toBe(200);
    expect((JSON.parse(filtered.body.toString()) as { templates: unknown[] }).templates.length).toBeGreaterThan(0);
    expect((await get(port, '/templates?category=nope')).status).toBe(400);
    expect((await get(port, '/templates/')).status).toBe(200);
    const head = await get(port, '/templates', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(FULL_LISTING_BYTES.length));
    expect((await get(port, '/templates', { method: 'POST' })).status).toBe(404);
    expect((await get(port, '/templates', { headers: { 'content-length': '0' } })).status).toBe(200);
    expect((await get(port, '/health')).status).toBe(200);
    expect(seen).toEqual([
      'GET /templates?category=mailer-boxes',
      'GET /templates?category=nope',
      'GET /templates/',
      'HEAD /templates',
      'POST /templates',
      'GET /templates',
      'GET /health',
    ]);
  });

  it('steps aside while requests are logged: Fastify writes both lines with the request id', async () => {
    const lines: string[] = [];
    const { seen, port } = await start({ LOG_LEVEL: 'info' }, lines);
    const answer = await get(port, '/templates');
    expect(answer.status).toBe(200);
    expect(answer.body.equals(FULL_LISTING_BYTES)).toBe(true);
    expect(seen).toEqual(['GET /templates']);
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; reqId?: string });
    expect(logged.filter((line) => line.reqId === answer.headers['x-request-id']).map((line) => line.msg)).toEqual([
      'incoming request',
      'request completed',
    ]);
  });

  it('steps aside once the app starts closing: a kept-alive connection gets the 503 every route gives', async () => {
    let releaseClose!: () => void;
    const closeHeld = new Promise<void>((resolve) => (releaseClose = resolve));
    let closeStarted!: () => void;
    const started = new Promise<void>((resolve) => (closeStarted = resolve));
    const { app, port } = await start({}, undefined, (app) =>
      app.addHook('preClose', async () => {
        closeStarted();
        await closeHeld;
      }),
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await get(port, '/templates', { agent })).status).toBe(200);
      apps.splice(apps.indexOf(app), 1);
      const closed = app.close();
      await started;
      const during = await get(port, '/templates', { agent });
      expect(during.status).toBe(503);
      expect(during.headers.connection).toBe('close');
      releaseClose();
      await closed;
    } finally {
      releaseClose();
      agent.destroy();
    }
  });
});
