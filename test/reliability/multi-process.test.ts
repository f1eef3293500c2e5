// Guarantees that must hold across several server processes sharing one database and one
// UPLOAD_DIR, over real HTTP: the free-plan cap, key revocation, unique emails, and uploads served
// by any process. PostgreSQL run: two real server processes. Embedded run (one process per
// database by nature): two app instances on one shared database, each listening on its own port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { databaseUrl, engineName, testConfig, uniqueEmail } from '../helpers/app.js';
import { pngOfSize } from '../helpers/images.js';
import { filePart, multipartBody } from '../helpers/multipart.js';
import { startServers, stopServers, type ServerProcess } from '../helpers/server-process.js';

const CAP_MESSAGE = 'The free plan includes up to 3 projects. Upgrade to create more.';

interface Answer {
  status: number;
  body: unknown;
  bytes: Buffer;
  headers: Headers;
}

async function call(
  baseUrl: string,
  method: string,
  url: string,
  options: { token?: string; json?: unknown; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.body) {
    body = new Uint8Array(options.body);
  }
  const response = await fetch(`${baseUrl}${url}`, { method, headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  let parsed: unknown = null;
  if (response.headers.get('content-type')?.startsWith('application/json') && bytes.length > 0) parsed = JSON.parse(bytes.toString('utf8'));
  return { status: response.status, body: parsed, bytes, headers: response.headers };
}

async function register(baseUrl: string): Promise<string> {
  const answer = await call(baseUrl, 'POST', '/auth/register', {
    json: { email: uniqueEmail('multi'), password: 'correct horse battery', name: 'Multi' },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return (answer.body as { token: string }).token;
}

describe(`several processes on one database (${engineName()})`, () => {
  let bases: [string, string];
  const cleanups: Array<() => Promise<unknown>> = [];
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'pf-multi-uploads-'));

  beforeAll(async () => {
    const url = databaseUrl();
    if (url) {
      const servers: ServerProcess[] = await startServers(2, { databaseUrl: url, uploadDir });
      cleanups.push(() => stopServers(servers));
      bases = [servers[0].baseUrl, servers[1].baseUrl];
      return;
    }
    const config = testConfig({ UPLOAD_DIR: uploadDir });
    const database: Database = await openDatabase(config.database);
    cleanups.push(() => database.close());
    const apps: App[] = [];
    for (let i = 0; i < 2; i++) {
      const app = await buildApp(config, { database, logger: false });
      cleanups.unshift(() => app.close());
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
    const baseOf = (app: App) => {
      const address = app.server.address();
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    };
    bases = [baseOf(apps[0]), baseOf(apps[1])];
  }, 90_000);

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('holds the free-plan cap when ten simultaneous creates are spread over both', async () => {
    const token = await register(bases[0]);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(bases[i % 2], 'POST', '/projects', { token, json: { name: `race ${i}`, templateId: 'mailer-box' } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 403)).toHaveLength(7);
    for (const answer of answers.filter((candidate) => candidate.status === 403)) {
      expect(answer.body).toEqual({ statusCode: 403, error: 'Forbidden', message: CAP_MESSAGE });
    }
    for (const base of bases) {
      const list = await call(base, 'GET', '/projects', { token });
      expect(list.body).toMatchObject({ total: 3 });
    }
  });

  it('fails a key on the other process from the very next request after it is revoked', async () => {
    for (const [issuer, user] of [[0, 1], [1, 0]] as const) {
      const token = await register(bases[issuer]);
      const issued = await call(bases[issuer], 'POST', '/api-keys', { token });
      expect(issued.status).toBe(201);
      const { id, key } = (issued.body as { apiKey: { id: string; key: string } }).apiKey;
      // Used on the other process first, so any lookup it might reuse is warm.
      for (let i = 0; i < 3; i++) {
        expect((await call(bases[user], 'GET', '/v1/templates', { headers: { 'x-api-key': key } })).status).toBe(200);
      }
      const revoked = await call(bases[issuer], 'DELETE', `/api-keys/${id}`, { token });
      expect(revoked.status).toBe(204);
      const after = await call(bases[user], 'GET', '/v1/templates', { headers: { 'x-api-key': key } });
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid API key.' });
    }
  });

  it('gives one 201 and one 409 for the same email registered on both at once', async () => {
    for (let round = 0; round < 5; round++) {
      const email = uniqueEmail('twice');
      const answers = await Promise.all(
        bases.map((base, i) =>
          call(base, 'POST', '/auth/register', { json: { email, password: 'correct horse battery', name: `Twice ${i}` } }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: 'An account with this email already exists.',
      });
    }
  });

  it('serves an asset uploaded through one process from the other, byte for byte', async () => {
    const token = await register(bases[0]);
    const image = pngOfSize(300 * 1024);
    image.fill(7, 100);
    const upload = multipartBody([filePart(image, { filename: 'shared.png' })]);
    const created = await call(bases[0], 'POST', '/assets', {
      token,
      headers: { 'content-type': upload.contentType },
      body: upload.body,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { name, id } = (created.body as { asset: { name: string; id: string } }).asset;

    const served = await call(bases[1], 'GET', `/files/${name}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.bytes.equals(image)).toBe(true);
    const listed = await call(bases[1], 'GET', '/assets', { token });
    expect((listed.body as { assets: Array<{ id: string }> }).assets.map((asset) => asset.id)).toContain(id);
  });
});
