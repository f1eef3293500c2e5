// A database outage under a running service: data routes answer 503 "Database is unavailable."
// quickly (never hang, never 401/500), liveness stays 200, readiness says 503, the same process
// recovers once the database is back, and no write is lost or half-done.
// PostgreSQL: a TCP relay between the app and the server is cut three ways. Embedded engine: the
// database is closed under the running app, then reopened from its files to check what was kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase } from '../../src/db/database.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, databaseUrl, embeddedTestDatabase, testConfig } from '../helpers/app.js';
import { startTcpRelay, type CutMode, type TcpRelay } from '../helpers/tcp-relay.js';

const UNAVAILABLE = { statusCode: 503, error: 'Service Unavailable', message: 'Database is unavailable.' };
/** Every request during an outage must be answered within this bound. */
const ANSWER_WITHIN_MS = 5_000;
/** After the database is back, the same process serves 200 again within this bound. */
const RECOVER_WITHIN_MS = 10_000;

interface Timed {
  label: string;
  status: number;
  body: unknown;
  sentAt: number;
  elapsedMs: number;
}

async function timed(app: App, label: string, options: InjectOptions): Promise<Timed> {
  const sentAt = performance.now();
  const response = await app.inject(options);
  const elapsedMs = performance.now() - sentAt;
  let body: unknown = response.body;
  try {
    body = response.json();
  } catch {
    // Not JSON: kept as text for the failure message.
  }
  return { label, status: response.statusCode, body, sentAt, elapsedMs };
}

const createProject = (app: App, account: TestAccount, name: string) =>
  timed(app, name, { method: 'POST', url: '/projects', headers: account.auth, payload: { name, templateId: 'mailer-box' } });

const listProjects = (app: App, account: TestAccount) =>
  timed(app, 'GET /projects', { method: 'GET', url: '/projects', headers: account.auth });

/** The data routes probed during an outage: reads behind a JWT, logins, registrations, writes. */
function outageProbes(app: App, account: TestAccount, tag: string): Array<Promise<Timed>> {
  return [
    listProjects(app, account),
    createProject(app, account, `${tag}-during-cut`),
    timed(app, 'GET /auth/me', { method: 'GET', url: '/auth/me', headers: account.auth }),
    timed(app, 'GET /api-keys', { method: 'GET', url: '/api-keys', headers: account.auth }),
    timed(app, 'POST /auth/login', {
      method: 'POST',
      url: '/auth/login',
      payload: { email: account.email, password: account.password },
    }),
    timed(app, 'POST /auth/register', {
      method: 'POST',
      url: '/auth/register',
      payload: { email: `outage-${tag}@example.com`, password: 'correct horse battery', name: 'Outage' },
    }),
    timed(app, 'GET /v1/templates', { method: 'GET', url: '/v1/templates', headers: { 'x-api-key': `pf_${'a'.repeat(48)}` } }),
  ];
}

function expectUnavailable(results: Timed[]): void {
  for (const result of results) {
    expect(result, result.label).toMatchObject({ status: 503, body: UNAVAILABLE });
    expect(result.elapsedMs, `${result.label} took ${Math.round(result.elapsedMs)} ms`).toBeLessThan(ANSWER_WITHIN_MS);
  }
}

/**
 * Writers that create projects (unique names) back to back until stopped, recording every answer.
 * Their owner is on the unlimited plan so the free cap never interferes.
 */
function startWriters(app: App, owner: TestAccount, tag: string, count: number) {
  let running = true;
  const results: Timed[] = [];
  let next = 0;
  const loops = Array.from({ length: count }, async () => {
    while (running) {
      results.push(await createProject(app, owner, `${tag}-${next++}`));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  return {
    results,
    async stop() {
      running = false;
      await Promise.all(loops);
      return results;
    },
  };
}

/**
 * What the writers' answers promise about the rows: every 201 is stored, every answer came in
 * bounded time and was 201 or 503, every 503 sent after the cut began left no row, and nothing
 * else was stored. A create already sent when the cut began may have committed with its answer
 * lost (the one ambiguity no server removes), so its 503 promises nothing either way.
 */
function checkWrites(results: Timed[], stored: string[], cutAt: number): void {
  const sent = new Set(results.map((result) => result.label));
  for (const result of results) {
    expect(result.elapsedMs, `${result.label} took ${Math.round(result.elapsedMs)} ms`).toBeLessThan(ANSWER_WITHIN_MS);
    if (result.status === 201) {
      expect(stored, `${result.label} answered 201`).toContain(result.label);
    } else {
      expect(result, result.label).toMatchObject({ status: 503, body: UNAVAILABLE });
      if (result.sentAt >= cutAt) expect(stored, `${result.label} answered 503`).not.toContain(result.label);
    }
  }
  for (const name of stored) expect(sent.has(name), `${name} stored but never sent`).toBe(true);
  expect(results.filter((result) => result.status === 201 && result.sentAt < cutAt).length).toBeGreaterThan(0);
  expect(results.filter((result) => result.status === 503 && result.sentAt >= cutAt).length).toBeGreaterThan(0);
}

/** Polls until GET /projects answers 200 again; returns how long that took. */
async function waitForRecovery(app: App, account: TestAccount): Promise<number> {
  const started = performance.now();
  let last: Timed | undefined;
  while (performance.now() - started < RECOVER_WITHIN_MS) {
    last = await listProjects(app, account);
    if (last.status === 200) return performance.now() - started;
    expect(last, 'while recovering').toMatchObject({ status: 503, body: UNAVAILABLE });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No 200 within ${RECOVER_WITHIN_MS} ms after the database came back; last answer ${JSON.stringify(last)}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits (bounded) until a create sent after `since` has been refused: a writer whose create was in
 * flight when the cut began sends its next one only once that one failed, so without this wait
 * the link could come back before any create sent during the cut was answered.
 */
async function refusedDuringCut(results: Timed[], since: number): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!results.some((result) => result.status === 503 && result.sentAt >= since)) {
    if (performance.now() > deadline) throw new Error('No create sent during the cut was refused within 10 s.');
    await sleep(20);
  }
}

/** Waits (bounded) until the writers have had `count` creates acknowledged since `since`. */
async function acknowledged(results: Timed[], since: number, count = 3): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (results.filter((result) => result.status === 201 && result.sentAt >= since).length < count) {
    if (performance.now() > deadline) throw new Error(`Writers had no ${count} acknowledged creates within 10 s.`);
    await sleep(20);
  }
}

const url = databaseUrl();

// The PostgreSQL run cuts a TCP link; the embedded run, which has no server to cut off, checks the
// embedded equivalent (a separate describe so neither run reports skipped tests).
if (url) {
  describe('database outage on PostgreSQL (TCP relay between app and server)', () => {
    let relay: TcpRelay;
    let app: App;
    let direct: pg.Client;

    beforeAll(async () => {
      const target = new URL(url);
      relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
      // The shipped DATABASE_TIMEOUT_MS (3000) and pool size: what production runs with.
      app = await createTestApp({ DATABASE_URL: relay.rewrite(url) });
      direct = new pg.Client({ connectionString: url });
      await direct.connect();
    });
    afterAll(async () => {
      await app?.close();
      await relay?.close();
      await direct?.end();
    });

    const storedNames = async (account: TestAccount) => {
      const { rows } = await direct.query<{ name: string }>('SELECT "name" FROM "projects" WHERE "userId" = $1', [account.id]);
      return rows.map((row) => row.name);
    };

    it.each<CutMode>(['refuse', 'blackhole', 'freeze'])(
      '%s: 503 within 5 s, health 200, ready 503; the same process recovers; no lost or half-done write',
      async (mode) => {
        const tag = `${mode}-${Date.now()}`;
        const [writer, reader] = [await registerAccount(app), await registerAccount(app)];
        await direct.query(`UPDATE "users" SET "plan" = 'pro' WHERE "id" = $1`, [writer.id]);

        const writers = startWriters(app, writer, tag, 3);
        let cutAt: number;
        let restored = false;
        try {
          await acknowledged(writers.results, 0);
          await relay.cut(mode);
          // Taken once the cut is complete: a create sent while it was under way may have committed
          // and lost its answer (the ambiguity checkWrites allows for), so it is not "after the cut".
          cutAt = performance.now();

          // More concurrent requests than the pool has connections, so queued ones are bounded too.
          const [probes, reads, live, ready] = await Promise.all([
            Promise.all(outageProbes(app, reader, tag)),
            Promise.all(Array.from({ length: 10 }, () => listProjects(app, reader))),
            timed(app, 'GET /health', { method: 'GET', url: '/health' }),
            timed(app, 'GET /health/ready', { method: 'GET', url: '/health/ready' }),
          ]);
          expectUnavailable([...probes, ...reads, ready]);
          expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
          expect(live.elapsedMs).toBeLessThan(1_000);
          await refusedDuringCut(writers.results, cutAt);

          await relay.restore();
          restored = true;
          expect(await waitForRecovery(app, reader)).toBeLessThan(RECOVER_WITHIN_MS);
          expect((await timed(app, 'GET /health/ready', { method: 'GET', url: '/health/ready' })).status).toBe(200);
          await acknowledged(writers.results, performance.now());
        } finally {
          if (!restored) await relay.restore();
          await writers.stop();
        }
        const results = writers.results;

        checkWrites(results, await storedNames(writer), cutAt);
        expect(await storedNames(reader)).toEqual([]);
      },
    );
  });
}

if (!url) {
  describe('database outage on the embedded engine (database closed under the running app)', () => {
    it('answers 503 within 5 s, stays live, and its files keep exactly the acknowledged writes', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-outage-pglite-'));
      const config = { ...testConfig(), database: { ...embeddedTestDatabase(), dataDir } };
      const database = await openDatabase(config.database);
      const app = await buildApp(config, { database, logger: false });
      await app.ready();
      const [writer, reader] = [await registerAccount(app), await registerAccount(app)];
      await database.prisma.user.update({ where: { id: writer.id }, data: { plan: 'pro' } });
      const writers = startWriters(app, writer, 'embedded', 3);
      let cutAt: number;
      try {
        await acknowledged(writers.results, 0);
        await database.close();
        // After the close completes, as in the PostgreSQL run: writes in flight during it are ambiguous.
        cutAt = performance.now();

        const [probes, live, ready] = await Promise.all([
          Promise.all(outageProbes(app, reader, `embedded-${Date.now()}`)),
          timed(app, 'GET /health', { method: 'GET', url: '/health' }),
          timed(app, 'GET /health/ready', { method: 'GET', url: '/health/ready' }),
        ]);
        expectUnavailable([...probes, ready]);
        expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
        await sleep(100);
      } finally {
        await writers.stop();
        await app.close();
      }
      const results = writers.results;

      // Reopened from its files, the database holds exactly what was acknowledged, and a restarted
      // app serves it.
      const reopened = await openDatabase(config.database);
      try {
        const stored = await reopened.prisma.project.findMany({ where: { userId: writer.id }, select: { name: true } });
        checkWrites(results, stored.map((row) => row.name), cutAt);
        const restarted = await buildApp(config, { database: reopened, logger: false });
        try {
          const list = await restarted.inject({ method: 'GET', url: '/projects', headers: writer.auth });
          expect(list.statusCode).toBe(200);
          expect(list.json().total).toBe(stored.length);
        } finally {
          await restarted.close();
        }
      } finally {
        await reopened.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
