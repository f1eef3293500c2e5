// The service as deployed: a real server process behind a real nginx running deploy/nginx.conf,
// reached under the /api prefix. PostgreSQL when DATABASE_URL is set (a database of its own,
// dropped afterwards), otherwise the embedded engine in a temporary directory.
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../test/helpers/postgres-admin.js';
import { freePort, startServer, type ServerProcess } from '../test/helpers/server-process.js';
import { earlyCases, repeat, viaCurl, viaFetch, viaSlowSocket, type EarlyCase, type Outcome } from '../test/helpers/early-answers.js';
import { startNginx, type NginxProcess } from './nginx.js';
import { pngOfSize } from './png.js';

const ADMIN_URL = process.env.DATABASE_URL;
const REQUEST_TIMEOUT_MS = 20_000;
const MAX_UPLOAD = 25 * 1024 * 1024;
const LOCAL_CLIENT = '127.0.0.2';
/** Enough to catch a race that shows once in three (or once in forty) tries. */
const OVERSIZED_TRIES = 60;
/** Each early answer of POST /assets, from each client. */
const EARLY_TRIES = Number(process.env.EARLY_TRIES ?? 200);

interface ApiKeyReply {
  apiKey: { id: string; key: string };
}
interface Asset {
  id: string;
  name: string;
  url: string;
  mimeType: string;
  sizeBytes: number;
}


/** A GET from a chosen local address (fetch cannot bind one), with a bounded wait. */
function getFrom(localAddress: string, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.once('error', reject);
    req.end();
  });
}

interface LogLine {
  reqId?: string;
  msg?: string;
  remoteAddress?: string;
  route?: string;
}

function parseLogLine(text: string): LogLine | undefined {
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return undefined; // Not a JSON line (or the cut-off start of the captured output).
  }
}

describe(`the service behind nginx under /api (${ADMIN_URL ? 'postgres' : 'embedded'})`, () => {
  const workDir = mkdtempSync(path.join(tmpdir(), 'pf-proxy-'));
  const nginxDir = mkdtempSync(path.join(tmpdir(), 'pf-nginx-'));
  let database: ScratchDatabase | undefined;
  let service: ServerProcess | undefined;
  let nginx: NginxProcess | undefined;
  let api = '';
  let publicBaseUrl = '';
  let token = '';

  const call = (pathAndQuery: string, init: RequestInit = {}) =>
    fetch(`${api}${pathAndQuery}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...init });

  beforeAll(async () => {
    if (ADMIN_URL) database = await createScratchDatabase(ADMIN_URL, 'pf_proxy');
    const nginxPort = await freePort();
    publicBaseUrl = `http://127.0.0.1:${nginxPort}/api`;
    service = await startServer({
      // Empty: the embedded engine (the configuration treats an empty variable as unset).
      databaseUrl: database?.url ?? '',
      uploadDir: path.join(workDir, 'uploads'),
      env: { TRUST_PROXY: '127.0.0.1', PUBLIC_BASE_URL: publicBaseUrl, LOG_LEVEL: 'info' },
    });
    nginx = await startNginx({
      dir: nginxDir,
      port: nginxPort,
      upstream: new URL(service.baseUrl).host,
    });
    api = `${nginx.origin}/api`;
  }, 90_000);

  afterAll(async () => {
    await nginx?.stop();
    await service?.stop();
    await database?.drop();
    rmSync(workDir, { recursive: true, force: true });
    rmSync(nginxDir, { recursive: true, force: true });
  }, 60_000);

  /** The service's access-log line for a request id. */
  async function accessLogLine(requestId: string): Promise<{ remoteAddress?: string; route?: string }> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const line = (service?.output() ?? '')
        .split('\n')
        .map(parseLogLine)
        .find((entry) => entry?.reqId === requestId && entry.msg === 'request completed');
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`No access-log line for ${requestId}.`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('answers /api/health with the prefix stripped', async () => {
    const response = await call('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    // No id from the caller: nginx's own $request_id reaches the service and comes back.
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    const traced = await call('/health', { headers: { 'x-request-id': 'caller-trace-1' } });
    expect(traced.headers.get('x-request-id')).toBe('caller-trace-1');
  });

  it('registers, issues a developer key and reads /v1 with it', async () => {
    const register = await call('/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `proxy-${randomBytes(6).toString('hex')}@example.com`,
        password: 'correct horse battery',
        name: 'Proxy',
      }),
    });
    expect(register.status).toBe(201);
    token = ((await register.json()) as { token: string }).token;

    const issued = await call('/api-keys', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(issued.status).toBe(201);
    const { apiKey } = (await issued.json()) as ApiKeyReply;
    expect(apiKey.key).toMatch(/^pf_[0-9a-f]{48}$/);

    const listed = await call('/v1/templates', { headers: { 'x-api-key': apiKey.key } });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { total: number }).total).toBe(11);

    const refused = await call('/v1/templates');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Missing x-api-key header.' });
  });

  it('passes query strings through', async () => {
    const response = await call('/templates?category=mailer-boxes');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { templates: Array<{ id: string; category: string }>; total: number };
    expect(body.total).toBe(1);
    expect(body.templates.map((template) => template.id)).toEqual(['mailer-box']);
  });

  it('streams an upload of a few MB and serves it back at its public URL, byte for byte', async () => {
    expect(token).not.toBe('');
    const image = pngOfSize(3 * 1024 * 1024 + 17);
    const form = new FormData();
    form.append('file', new File([image], 'proxy.png', { type: 'image/png' }));
    const uploaded = await call('/assets', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status).toBe(201);
    const { asset } = (await uploaded.json()) as { asset: Asset };
    expect(asset.sizeBytes).toBe(image.length);
    expect(asset.url).toBe(`${publicBaseUrl}/files/${asset.name}`);

    const file = await fetch(asset.url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^image\/png/);
    expect(Buffer.from(await file.arrayBuffer()).equals(image)).toBe(true);
  });

  it('lets a 25 MB upload through (body limit leaves room for the multipart framing)', async () => {
    expect(token).not.toBe('');
    const image = pngOfSize(MAX_UPLOAD);
    const form = new FormData();
    form.append('file', new File([image], 'largest.png', { type: 'image/png' }));
    const uploaded = await call('/assets', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status).toBe(201);
    expect(((await uploaded.json()) as { asset: Asset }).asset.sizeBytes).toBe(MAX_UPLOAD);
  });

  it('answers a body over the proxy limit with an ApiError 413 before reading it', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${api}/assets`, {
        method: 'POST',
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(30 * 1024 * 1024),
        },
      });
      req.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => {
          resolve({ status: res.statusCode ?? 0, body: text });
          req.destroy();
        });
      });
      req.once('timeout', () => req.destroy(new Error('no answer to the oversized request')));
      req.once('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  /** A request with the path exactly as given (fetch would resolve "..") and its whole answer. */
  function rawCall(pathAsSent: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}) {
    const origin = new URL(api);
    return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: origin.hostname,
          port: origin.port,
          path: pathAsSent,
          method: init.method ?? 'GET',
          headers: init.headers,
          timeout: REQUEST_TIMEOUT_MS,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.once('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: text }));
        },
      );
      req.once('timeout', () => req.destroy(new Error(`${pathAsSent} timed out`)));
      req.once('error', reject);
      req.end(init.body);
    });
  }

  it('answers paths nginx would normalise out of /api/ with the service’s own ApiError', async () => {
    for (const pathAsSent of [
      '/api/files/../../etc/passwd',
      '/api/../api/health/../../etc/passwd',
      '/api/files/%2e%2e/%2e%2e/etc/passwd',
      '/api/templates/./../../x',
    ]) {
      const answer = await rawCall(pathAsSent);
      expect(answer.status, pathAsSent).toBe(404);
      expect(answer.type, pathAsSent).toMatch(/^application\/json/);
      const body = JSON.parse(answer.body) as { statusCode: number; error: string; message: string };
      expect(body, pathAsSent).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: expect.stringMatching(/^(Route GET \/.* not found\.|File not found\.)$/),
      });
    }
    // The API itself is still reached through the same location.
    expect((await rawCall('/api/health')).status).toBe(200);
  });

  /**
   * POSTs a body over keep-alive connections (`agent`, one socket reused) or a fresh connection
   * each time, and reads the whole answer.
   */
  function postBody(target: string, body: Buffer, agent: Agent | undefined) {
    const origin = new URL(api);
    return new Promise<{ status: number; body: string; reused: boolean }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: origin.hostname,
          port: origin.port,
          path: target,
          method: 'POST',
          agent: agent ?? false,
          headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
          timeout: REQUEST_TIMEOUT_MS,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text, reused: req.reusedSocket }));
        },
      );
      req.once('timeout', () => req.destroy(new Error(`${target} timed out`)));
      req.once('error', reject);
      req.end(body);
    });
  }

  it('answers a JSON body of 1 MiB + 1 byte with the service’s own error, every time (no 502 race)', async () => {
    const oversized = Buffer.alloc(1024 * 1024 + 1, 0x20);
    oversized[0] = 0x7b; // "{" followed by spaces: its size, not its content, is what is refused
    const tooLarge = { statusCode: 413, error: 'Payload Too Large', message: 'Request body is larger than 1 MiB.' };
    const unauthenticated = { statusCode: 401, error: 'Unauthorized', message: 'Authentication required.' };
    // One client connection reused for every request of the first half (nginx's keep-alive to the
    // service is reused throughout), a new one for each request of the second half.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answers: string[] = [];
    let reused = 0;
    try {
      for (let i = 0; i < OVERSIZED_TRIES; i++) {
        // Public (413 from the body parser) and unauthenticated (401 before parsing) routes alike.
        const [target, expected] = i % 3 === 2 ? ['/api/projects', unauthenticated] : ['/api/auth/register', tooLarge];
        const answer = await postBody(target, oversized, i < OVERSIZED_TRIES / 2 ? agent : undefined);
        if (answer.reused) reused++;
        answers.push(`${answer.status}`);
        expect(JSON.parse(answer.body), `attempt ${i + 1} (${answers.join(' ')}):\n${nginx?.errorLog()}`).toEqual(expected);
      }
    } finally {
      agent.destroy();
    }
    expect(reused).toBeGreaterThan(0);
    expect(answers.filter((status) => status === '502')).toEqual([]);
    // nginx saw no connection closed under it.
    expect(nginx?.errorLog()).not.toMatch(/prematurely closed|reset by peer|broken pipe/i);
  });

  describe('early answers on POST /assets arrive through nginx, from every client', () => {
    const expectAnswers = (outcomes: Outcome[], early: EarlyCase) => {
      expect(outcomes).toHaveLength(EARLY_TRIES);
      expect(outcomes.filter((outcome) => outcome.status !== early.status).slice(0, 3)).toEqual([]);
      for (const outcome of outcomes) expect(JSON.parse(outcome.body)).toMatchObject({ statusCode: early.status, message: early.message });
    };
    const concurrencyOf = (early: EarlyCase) => (early.status === 413 ? 4 : 1);
    const casesNow = () => earlyCases({ authorization: `Bearer ${token}` });

    for (const index of [0, 1, 2, 3]) {
      it(`case ${index + 1}: Node's fetch, a slow raw socket and curl each get every answer`, { timeout: 600_000 }, async () => {
        expect(token).not.toBe('');
        const early = casesNow()[index]!;
        const url = `${api}/assets`;
        expectAnswers(await repeat(EARLY_TRIES, concurrencyOf(early), () => viaFetch(url, early)), early);
        expectAnswers(await repeat(EARLY_TRIES, concurrencyOf(early), () => viaSlowSocket(url, early)), early);
        expectAnswers(await viaCurl(url, early, EARLY_TRIES, workDir, concurrencyOf(early)), early);
        expect(nginx?.errorLog()).not.toMatch(/prematurely closed|reset by peer|broken pipe/i);
      });
    }
  });

  it('sees the caller’s address through nginx, never a client-written X-Forwarded-For', async () => {
    const viaProxy = `proxy-ip-${randomBytes(6).toString('hex')}`;
    const status = await getFrom(LOCAL_CLIENT, `${api}/health`, {
      'x-request-id': viaProxy,
      'x-forwarded-for': '203.0.113.9',
    });
    expect(status).toBe(200);
    expect(await accessLogLine(viaProxy)).toMatchObject({ remoteAddress: LOCAL_CLIENT, route: '/health' });

    // Straight to the service from an address that is not the trusted proxy: the header is ignored.
    const direct = `direct-ip-${randomBytes(6).toString('hex')}`;
    expect(
      await getFrom(LOCAL_CLIENT, `${service?.baseUrl}/health`, { 'x-request-id': direct, 'x-forwarded-for': '203.0.113.9' }),
    ).toBe(200);
    expect((await accessLogLine(direct)).remoteAddress).toBe(LOCAL_CLIENT);
  });

  it('serves the OpenAPI document with PUBLIC_BASE_URL as its server', async () => {
    const response = await call('/openapi.json');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { servers: Array<{ url: string }>; paths: Record<string, unknown> };
    expect(doc.servers.map((server) => server.url)).toEqual([publicBaseUrl]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/v1/templates', '/assets']));
  });

  it('serves Swagger UI under the prefix, with and without the trailing slash, assets included', async () => {
    for (const page of [`${api}/docs`, `${api}/docs/`]) {
      const response = await fetch(page, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      const assets = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => new URL(match[1] ?? '', page).href);
      expect(assets.length).toBeGreaterThanOrEqual(5);
      // The initializer fetches the document from "./json" relative to the page.
      assets.push(new URL('./json', page.endsWith('/') ? page : `${page}/`).href);
      for (const asset of assets) {
        expect(asset.startsWith(`${api}/docs/`), asset).toBe(true);
        const loaded = await fetch(asset, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        expect(loaded.status, asset).toBe(200);
        await loaded.arrayBuffer();
      }
    }
  });

  it('answers with an ApiError 502 once the service is gone', async () => {
    await service?.stop();
    const response = await call('/health');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ statusCode: 502, error: 'Bad Gateway', message: 'The service is unavailable.' });
  });
});
