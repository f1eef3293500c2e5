// Revocation must hold on every server sharing the database. On PostgreSQL: two real server
// processes. On the embedded engine (one process per database by nature): two app instances
// on one shared database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { databaseUrl, engineName, testConfig, uniqueEmail } from '../helpers/app.js';
import { startServers, stopServers, type ServerProcess } from '../helpers/server-process.js';
import { apiError, KEY_FORMAT, type IssuedKey } from './keys.js';

interface Reply {
  status: number;
  body: unknown;
}

interface Surface {
  send(method: 'GET' | 'POST' | 'DELETE', path: string, headers?: Record<string, string>, body?: unknown): Promise<Reply>;
}

function httpSurface(server: ServerProcess): Surface {
  return {
    async send(method, path, headers = {}, body) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : JSON.parse(text) };
    },
  };
}

function injectSurface(app: App): Surface {
  return {
    async send(method, path, headers = {}, body) {
      const response = await app.inject({ method, url: path, headers, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: response.statusCode, body: response.body === '' ? null : response.json() };
    },
  };
}

const runUrl = databaseUrl();
const setup = runUrl ? 'two server processes on one PostgreSQL database' : 'two app instances on one embedded database';

describe(`revocation across servers: ${setup} (${engineName()})`, () => {
  let a: Surface;
  let b: Surface;
  const cleanup: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (runUrl) {
      const servers = await startServers(2, { databaseUrl: runUrl });
      cleanup.push(() => stopServers(servers));
      [a, b] = servers.map(httpSurface) as [Surface, Surface];
    } else {
      const database: Database = await openDatabase({ kind: 'embedded', dataDir: 'memory://' });
      cleanup.push(() => database.close());
      const apps = [await buildApp(testConfig(), { database, logger: false }), await buildApp(testConfig(), { database, logger: false })];
      cleanup.unshift(async () => {
        await Promise.all(apps.map((app) => app.close()));
      });
      [a, b] = apps.map(injectSurface) as [Surface, Surface];
    }
  }, 90_000);

  afterAll(async () => {
    for (const step of cleanup) await step();
  });

  async function register(on: Surface): Promise<Record<string, string>> {
    const reply = await on.send('POST', '/auth/register', {}, { email: uniqueEmail('revoke'), password: 'correct horse battery', name: 'Revoker' });
    expect(reply.status).toBe(201);
    return { authorization: `Bearer ${(reply.body as { token: string }).token}` };
  }

  async function issue(on: Surface, auth: Record<string, string>): Promise<IssuedKey> {
    const reply = await on.send('POST', '/api-keys', auth);
    expect(reply.status).toBe(201);
    const { apiKey } = reply.body as { apiKey: IssuedKey };
    expect(apiKey.key).toMatch(KEY_FORMAT);
    return apiKey;
  }

  const useKey = (on: Surface, key: string) => on.send('GET', '/v1/templates/mailer-box', { 'x-api-key': key });

  it('a key issued through A works on B, and fails on B from the very next request after A revokes it', async () => {
    const auth = await register(a);
    for (let round = 0; round < 3; round++) {
      const apiKey = await issue(a, auth);
      expect((await useKey(b, apiKey.key)).status).toBe(200);
      expect((await useKey(a, apiKey.key)).status).toBe(200);

      const listed = await b.send('GET', '/api-keys', auth);
      expect(listed.status).toBe(200);
      expect((listed.body as { apiKeys: IssuedKey[] }).apiKeys).toContainEqual(apiKey);

      // B has just verified the key, so it holds a fresh lookup when A revokes it.
      expect((await useKey(b, apiKey.key)).status).toBe(200);
      const revoked = await a.send('DELETE', `/api-keys/${apiKey.id}`, auth);
      expect(revoked).toEqual({ status: 204, body: null });

      const next = await useKey(b, apiKey.key);
      expect(next).toEqual({ status: 401, body: apiError(401, 'Invalid API key.') });
      expect(await useKey(a, apiKey.key)).toEqual(next);
    }
  });

  it('revoking through B stops a key on A even while A is using it, and a second revoke on A is 404', async () => {
    const auth = await register(b);
    const apiKey = await issue(b, auth);
    expect((await useKey(a, apiKey.key)).status).toBe(200);
    const [used, revoked] = await Promise.all([useKey(a, apiKey.key), b.send('DELETE', `/api-keys/${apiKey.id}`, auth)]);
    expect(used.status === 200 || used.status === 401).toBe(true);
    expect(revoked.status).toBe(204);
    expect(await useKey(a, apiKey.key)).toEqual({ status: 401, body: apiError(401, 'Invalid API key.') });
    expect(await a.send('DELETE', `/api-keys/${apiKey.id}`, auth)).toEqual({
      status: 404,
      body: apiError(404, 'API key not found.'),
    });
  });
});
