// Start-up faults: a process either starts whole or says why in one line and exits 1. It never
// listens half-started. An unreachable database is retried with back-off for
// DATABASE_STARTUP_RETRY_MS, one line per attempt; an unwritable UPLOAD_DIR stops it at once.
import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseUrl } from '../helpers/app.js';
import { freePort, spawnServer, type Exit, type LifecycleServer } from '../helpers/server-lifecycle.js';
import { startTcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';

const spawned: LifecycleServer[] = [];
const relays: TcpRelay[] = [];
afterEach(async () => {
  await Promise.all(spawned.splice(0).map((server) => server.cleanup()));
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

async function start(env: Record<string, string>): Promise<LifecycleServer> {
  const server = await spawnServer(env);
  spawned.push(server);
  return server;
}

/**
 * Waits for the process to exit while probing its port: until then every connection must be
 * refused (nothing half-started may answer). Returns the exit and how many probes were made.
 */
async function exitWhileRefusing(server: LifecycleServer, timeoutMs: number): Promise<Exit & { probes: number }> {
  let exit: Exit | undefined;
  void server.exited.then((value) => (exit = value));
  const deadline = performance.now() + timeoutMs;
  let probes = 0;
  while (!exit) {
    if (performance.now() > deadline) throw new Error(`Still running after ${timeoutMs} ms:\n${server.output()}`);
    const answer = await fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => `answered ${response.status}`,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.name,
    );
    probes++;
    if (!exit) expect(answer, server.output()).toBe('ECONNREFUSED');
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return { ...exit, probes };
}

const lines = (output: string) => output.split('\n').filter((line) => line.trim() !== '');
const deadUrl = (port: number) => `postgresql://root@127.0.0.1:${port}/postgres`;

describe('start-up with an unreachable database', () => {
  it('retries with back-off, one line per attempt, then exits 1 with one clear line', async () => {
    const server = await start({ DATABASE_URL: deadUrl(await freePort()), DATABASE_STARTUP_RETRY_MS: '2500' });
    const exit = await exitWhileRefusing(server, 20_000);
    expect(exit.code, server.output()).toBe(1);
    expect(exit.probes).toBeGreaterThan(3);
    const output = lines(server.output());
    const retries = output.filter((line) => line.startsWith('Database unreachable at start-up (attempt '));
    expect(retries.length, server.output()).toBeGreaterThanOrEqual(2);
    expect(retries[0]).toMatch(/^Database unreachable at start-up \(attempt 1\): connect ECONNREFUSED .*; retrying in 500 ms\.$/);
    expect(retries[1]).toMatch(/\(attempt 2\).*; retrying in 1000 ms\.$/);
    expect(output.at(-1)).toMatch(
      /^Start-up failed \(gave up after DATABASE_STARTUP_RETRY_MS=2500\): connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
    );
    expect(output).toHaveLength(retries.length + 1);
  });

  it('with DATABASE_STARTUP_RETRY_MS=0 gives up at the first failure', async () => {
    const server = await start({ DATABASE_URL: deadUrl(await freePort()), DATABASE_STARTUP_RETRY_MS: '0' });
    const exit = await exitWhileRefusing(server, 20_000);
    expect(exit.code).toBe(1);
    expect(lines(server.output())).toEqual([
      expect.stringMatching(/^Start-up failed \(gave up after DATABASE_STARTUP_RETRY_MS=0\): connect ECONNREFUSED /),
    ]);
  });

  it('bounds every attempt when the database never answers (connections black-holed)', async () => {
    const relay = await startTcpRelay({ host: '127.0.0.1', port: 9 });
    relays.push(relay);
    await relay.cut('blackhole');
    const server = await start({
      DATABASE_URL: deadUrl(relay.port),
      DATABASE_TIMEOUT_MS: '500',
      DATABASE_STARTUP_RETRY_MS: '1500',
    });
    const exit = await exitWhileRefusing(server, 20_000);
    expect(exit.code, server.output()).toBe(1);
    const output = lines(server.output());
    expect(output.filter((line) => line.startsWith('Database unreachable at start-up')).length).toBeGreaterThanOrEqual(1);
    expect(output.at(-1)).toMatch(/^Start-up failed \(gave up after DATABASE_STARTUP_RETRY_MS=1500\): .*timeout/i);
  });

  const url = databaseUrl();
  // Needs a real PostgreSQL behind the relay: registered on the PostgreSQL run only.
  if (url) {
    it('starts normally once the database comes back within the retry budget', async () => {
      const target = new URL(url);
      const relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
      relays.push(relay);
      await relay.cut('refuse');
      const server = await start({ DATABASE_URL: relay.rewrite(url), DATABASE_STARTUP_RETRY_MS: '30000' });
      const deadline = performance.now() + 20_000;
      while (!server.output().includes('(attempt 2)')) {
        if (performance.now() > deadline) throw new Error(`No retry line:\n${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await relay.restore();
      await server.waitUntilHealthy(30_000);
      expect((await fetch(`${server.baseUrl}/health/ready`)).status).toBe(200);
      const registered = await fetch(`${server.baseUrl}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `startup-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Late' }),
      });
      expect(registered.status).toBe(201);
    });
  }
});

describe('start-up with an unwritable UPLOAD_DIR', () => {
  const notWritable = /^Start-up failed: UPLOAD_DIR .+ is not a writable directory \(E[A-Z]+\)\.$/;

  it.each([
    ['an existing regular file', () => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'pf-updir-')), 'a-file');
      writeFileSync(file, 'x');
      return file;
    }],
    ['a path below a regular file', () => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'pf-updir-')), 'a-file');
      writeFileSync(file, 'x');
      return path.join(file, 'uploads');
    }],
    ['an existing directory it may not write to', () => {
      // root ignores permission bits, so as root use a directory of the kernel's (sysfs).
      if (process.getuid?.() === 0) return '/sys/kernel';
      const dir = mkdtempSync(path.join(tmpdir(), 'pf-updir-'));
      chmodSync(dir, 0o555);
      return dir;
    }],
  ])('refuses to start with one line when UPLOAD_DIR is %s', async (_label, makeDir) => {
    const uploadDir = makeDir();
    const server = await start({ UPLOAD_DIR: uploadDir });
    const exit = await exitWhileRefusing(server, 20_000);
    expect(exit.code).toBe(1);
    expect(lines(server.output()), server.output()).toEqual([expect.stringMatching(notWritable)]);
    expect(server.output()).toContain(uploadDir);
  });
});
