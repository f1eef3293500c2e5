// Two service processes as two machines: each with its own local directory, behind the project's
// real nginx (deploy/nginx.conf with both as upstream servers), sharing PostgreSQL, the S3 gateway
// (Ceph radosgw) and Redis. Whatever one process did, the other sees.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../test/helpers/postgres-admin.js';
import { SHARED_REDIS_URL, uniqueNamespace } from '../test/helpers/redis.js';
import { createTestBucket, s3Env, type TestBucket } from '../test/helpers/s3.js';
import { freePort, startServer, stopServers, type ServerProcess } from '../test/helpers/server-process.js';
import { startNginx, type NginxProcess } from './nginx.js';
import { pngOfSize } from './png.js';

// Two processes cannot share the embedded engine: this test always runs on PostgreSQL.
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/postgres';
const TIMEOUT_MS = 20_000;

describe('two machines behind nginx, sharing PostgreSQL, S3 and Redis', () => {
  const nginxDir = mkdtempSync(path.join(tmpdir(), 'pf-nginx-lb-'));
  const localDirs = [mkdtempSync(path.join(tmpdir(), 'pf-machine-a-')), mkdtempSync(path.join(tmpdir(), 'pf-machine-b-'))];
  let database: ScratchDatabase | undefined;
  let bucket: TestBucket | undefined;
  const machines: ServerProcess[] = [];
  let nginx: NginxProcess | undefined;
  let api = '';
  let a = '';
  let b = '';

  beforeAll(async () => {
    database = await createScratchDatabase(ADMIN_URL, 'pf_machines');
    bucket = await createTestBucket('pf-machines');
    const nginxPort = await freePort();
    const env = {
      ...s3Env(bucket.name),
      REDIS_URL: SHARED_REDIS_URL,
      RATE_LIMIT_NAMESPACE: uniqueNamespace(),
      RATE_LIMIT_AUTH_PER_MIN: '5',
      TRUST_PROXY: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${nginxPort}/api`,
    };
    // One after the other: the first applies the migrations.
    for (const uploadDir of localDirs) machines.push(await startServer({ databaseUrl: database.url, uploadDir, env }));
    [a, b] = machines.map((machine) => machine.baseUrl);
    nginx = await startNginx({ dir: nginxDir, port: nginxPort, upstream: machines.map((machine) => new URL(machine.baseUrl).host) });
    api = `${nginx.origin}/api`;
  }, 180_000);

  afterAll(async () => {
    await nginx?.stop();
    await stopServers(machines);
    await bucket?.remove();
    await database?.drop();
    for (const dir of [nginxDir, ...localDirs]) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const call = (base: string, route: string, init: RequestInit = {}) =>
    fetch(`${base}${route}`, { signal: AbortSignal.timeout(TIMEOUT_MS), ...init });

  /** Registers through `base`, as the client `ip` (the machines trust 127.0.0.1's X-Forwarded-For). */
  async function register(base: string, ip: string): Promise<string> {
    const response = await call(base, '/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ email: `m-${randomBytes(6).toString('hex')}@example.com`, password: 'correct horse battery', name: 'M' }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { token: string }).token;
  }

  it('an upload through one machine is served by the other (and by nginx, whichever answers)', async () => {
    const token = await register(a, '198.51.100.1');
    const png = pngOfSize(6 * 1024 * 1024 + 7);
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'big.png');
    const uploaded = await call(a, '/assets', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status).toBe(201);
    const { asset } = (await uploaded.json()) as { asset: { name: string; url: string } };

    const fromB = await call(b, `/files/${asset.name}`);
    expect(fromB.status).toBe(200);
    expect(Buffer.from(await fromB.arrayBuffer()).equals(png)).toBe(true);
    const etag = fromB.headers.get('etag') ?? '';
    expect((await call(a, `/files/${asset.name}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    for (let i = 0; i < 4; i++) {
      const viaProxy = await fetch(asset.url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      expect(viaProxy.status).toBe(200);
      expect(Number(viaProxy.headers.get('content-length'))).toBe(png.length);
      await viaProxy.arrayBuffer();
    }
    // Nothing on either machine's own disk.
    for (const dir of localDirs) expect(readdirSync(dir)).toEqual([]);
  });

  it('one rate budget across both: limit 5, the sixth request through either is 429', async () => {
    const login = (base: string) =>
      call(base, '/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
      });
    const statuses = [];
    for (const base of [a, b, a, b, a]) statuses.push((await login(base)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect((await login(a)).status).toBe(429);
    expect((await login(b)).status).toBe(429);
    // Through nginx every request is 127.0.0.1's: five pass in total over both machines.
    const viaProxy = [];
    for (let i = 0; i < 7; i++) {
      const response = await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      viaProxy.push(response.status);
    }
    expect(viaProxy).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('a key revoked through one machine fails on the other at once', async () => {
    const token = await register(b, '198.51.100.2');
    const issued = await call(a, '/api-keys', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(issued.status).toBe(201);
    const { apiKey } = (await issued.json()) as { apiKey: { id: string; key: string } };
    expect((await call(b, '/v1/templates', { headers: { 'x-api-key': apiKey.key } })).status).toBe(200);
    const revoked = await call(a, `/api-keys/${apiKey.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(revoked.status).toBe(204);
    const after = await call(b, '/v1/templates', { headers: { 'x-api-key': apiKey.key } });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ message: 'Invalid API key.' });
  });

  it('the project cap holds across both machines', async () => {
    const token = await register(a, '198.51.100.3');
    const create = (base: string) =>
      call(base, '/projects', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'Cap', templateId: 'mailer-box' }),
      }).then((response) => response.status);
    const statuses = await Promise.all([a, b, a, b, a, b].map(create));
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 403)).toHaveLength(3);
  });
});
