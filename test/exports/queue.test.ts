// Exports on the BullMQ queue (real Redis, a prefix of its own) rendered by two real worker
// processes sharing a PostgreSQL database and an upload directory with the web process: the
// workers share the jobs, and one killed with SIGKILL in the middle of a render loses nothing:
// the other takes the job over once its lock runs out. A job whose workers keep dying fails, with
// its export, once it has stalled more often than the workers allow. The queue mode needs a server
// database (processes cannot share an embedded one), so this file always runs on PostgreSQL.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '../helpers/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/postgres-admin.js';
import { SHARED_REDIS_URL, uniqueNamespace } from '../helpers/redis.js';
import { freePort, startServer, type ServerProcess } from '../helpers/server-process.js';
import { MAILER, pdfPageSizes, pollExport, sleep, type ExportBody } from './helpers.js';
import { startWorker, type WorkerProcess } from './worker-process.js';
import { EXPORT_MESSAGES } from '../../src/services/exports.js';

const LOCAL_POSTGRES = 'postgresql://root@127.0.0.1:5432/postgres';

let scratch: ScratchDatabase;
let web: ServerProcess;
let workers: WorkerProcess[] = [];
let env: Record<string, string>;
let auth: Record<string, string>;
let metricsPort: number;
const METRICS = 'worker-metrics-token-for-tests';

async function call<T>(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${web.baseUrl}${url}`, {
    method,
    headers: { ...auth, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

async function uploadImage(bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const response = await fetch(`${web.baseUrl}/assets`, { method: 'POST', headers: auth, body: form });
  expect(response.status).toBe(201);
  return `/files/${((await response.json()) as { asset: { name: string } }).asset.name}`;
}

const readExport = (id: string) => async () => (await call<{ export: ExportBody }>('GET', `/exports/${id}`)).body.export;

beforeAll(async () => {
  scratch = await createScratchDatabase(databaseUrl() ?? LOCAL_POSTGRES, 'pf_queue');
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'pf-queue-uploads-'));
  env = {
    DATABASE_URL: scratch.url,
    UPLOAD_DIR: uploadDir,
    REDIS_URL: SHARED_REDIS_URL,
    EXPORT_QUEUE_PREFIX: uniqueNamespace(),
    EXPORT_LEASE_MS: '3000',
    EXPORT_CONCURRENCY: '2',
  };
  web = await startServer({ databaseUrl: scratch.url, uploadDir, env });
  metricsPort = await freePort();
  workers = await Promise.all([
    startWorker({ ...env, WORKER_METRICS_PORT: String(metricsPort), METRICS_TOKEN: METRICS }),
    startWorker(env),
  ]);
  const email = `queue-${Date.now()}@example.com`;
  const registered = await call<{ token: string; user: { id: string } }>('POST', '/auth/register', {
    email,
    password: 'correct horse battery',
    name: 'Queue',
  });
  auth = { authorization: `Bearer ${registered.body.token}` };
  const pg_ = new pg.Client({ connectionString: scratch.url });
  await pg_.connect();
  await pg_.query(`UPDATE users SET plan = 'pro' WHERE id = $1`, [registered.body.user.id]);
  await pg_.end();
}, 300_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill('SIGTERM')));
  await web?.stop();
  await scratch?.drop();
}, 60_000);

describe('exports on the queue with two worker processes', () => {
  it('the two workers share the exports, and the web process renders none of them', async () => {
    const project = await call<{ project: { id: string } }>('POST', '/projects', { name: 'Queue', templateId: 'mailer-box', ...MAILER });
    expect(project.status).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < 16; i += 1) {
      const created = await call<{ export: ExportBody }>('POST', `/projects/${project.body.project.id}/exports`, {
        format: i % 2 ? 'dieline-pdf' : 'preview-png',
      });
      expect(created.status).toBe(202);
      ids.push(created.body.export.id);
    }
    for (const id of ids) expect((await pollExport(readExport(id))).status).toBe('succeeded');
    // A worker logs an attempt's end just after writing it to the database.
    const loggedAll = () => workers.flatMap((worker) => worker.logged('succeeded')).length >= ids.length;
    for (let waited = 0; !loggedAll() && waited < 5_000; waited += 50) await sleep(50);
    const [first, second] = workers.map((worker) => worker.logged('succeeded')) as [string[], string[]];
    expect([...first, ...second].sort()).toEqual([...ids].sort());
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    // The first worker's own /metrics counts its renders by format and outcome.
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    const counted = [
      ...text.matchAll(/^export_job_duration_seconds_count\{format="(preview-png|dieline-pdf)",outcome="succeeded"\} (\d+)$/gm),
    ];
    expect(counted.reduce((sum, match) => sum + Number(match[2]), 0)).toBe(first.length);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(404);
  }, 120_000);

  it('a worker killed with SIGKILL in the middle of a render loses no export: the other worker finishes it', async () => {
    const id = await longExport('Kill');

    const deadline = Date.now() + 30_000;
    let victim: WorkerProcess | undefined;
    while (!victim && Date.now() < deadline) {
      victim = workers.find((worker) => worker.logged('started').includes(id));
      if (!victim) await sleep(20);
    }
    expect(victim, 'no worker started the export').toBeDefined();
    expect(victim!.logged('succeeded')).not.toContain(id);
    // The worker logs the start just before it writes its claim: wait for the claim.
    let claimed = await readExport(id)();
    while (claimed.attempts < 1 && Date.now() < deadline) {
      await sleep(20);
      claimed = await readExport(id)();
    }
    expect(claimed).toMatchObject({ status: 'running', attempts: 1 });
    await victim!.kill('SIGKILL');
    const survivor = workers.find((worker) => worker !== victim)!;

    // Seen from the client: running throughout (never queued again), attempts 2 once taken over,
    // and the first attempt's start kept.
    const seen: ExportBody[] = [];
    const done = await pollExport(async () => {
      const current = await readExport(id)();
      seen.push(current);
      return current;
    }, 90_000);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(seen.filter((state) => state.status !== 'succeeded').map((state) => state.status)).not.toContain('queued');
    expect(seen.some((state) => state.status === 'running' && state.attempts === 2)).toBe(true);
    expect(done.attempts).toBe(2);
    expect(done.startedAt).toBe(claimed.startedAt);
    for (let waited = 0; !survivor.logged('succeeded').includes(id) && waited < 5_000; waited += 50) await sleep(50);
    expect(victim!.logged('succeeded')).not.toContain(id);
    expect(survivor.logged('started')).toContain(id);
    expect(survivor.logged('succeeded')).toContain(id);
    const file = await fetch(`${web.baseUrl}${done.downloadUrl}`);
    expect(file.status).toBe(200);
    expect(pdfPageSizes(Buffer.from(await file.arrayBuffer()))).toHaveLength(1);
  }, 150_000);

  it('an export whose workers keep dying fails once its job has stalled more often than the workers allow', async () => {
    // Only this test's workers from here on: EXPORT_ATTEMPTS 2 lets a job stall once.
    await Promise.all(workers.map((worker) => worker.kill('SIGTERM')));
    const stalling = { ...env, EXPORT_ATTEMPTS: '2' };
    const id = await longExport('Stall');
    for (let death = 0; death < 2; death += 1) {
      const worker = await startWorker(stalling);
      workers.push(worker);
      const deadline = Date.now() + 30_000;
      while (!worker.logged('started').includes(id) && Date.now() < deadline) await sleep(20);
      expect(worker.logged('started'), `death ${death + 1}: the worker never started the export`).toContain(id);
      // Killed once it holds the export (its claim is written), in the middle of the render.
      while ((await readExport(id)()).attempts < death + 1 && Date.now() < deadline) await sleep(20);
      expect((await readExport(id)()).attempts).toBe(death + 1);
      await worker.kill('SIGKILL');
    }
    const last = await startWorker(stalling);
    workers.push(last);
    const done = await pollExport(readExport(id), 60_000);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ statusCode: 500, error: 'Internal Server Error', message: "The export's worker stopped 2 times." });
    expect(EXPORT_MESSAGES.workerStopped(2)).toBe(done.error!.message);
    expect(done.downloadUrl).toBeNull();
    // The third worker failed the job when it took it, without rendering it again, and logged why.
    expect(last.logged('started')).not.toContain(id);
    const logged = () =>
      last
        .output()
        .split('\n')
        .some((line) => line.includes(id) && line.includes("export failed: The export's worker stopped 2 times."));
    for (let waited = 0; !logged() && waited < 5_000; waited += 50) await sleep(50);
    expect(logged(), last.output()).toBe(true);

    // The web process counts the workers that answer, and stays ready without any.
    // (the killed ones answered within the minute too, so they still count for a while).
    const alive = await call<{ status: string; workers: number }>('GET', '/health/ready');
    expect(alive.body.workers).toBeGreaterThanOrEqual(1);
    await Promise.all(workers.map((worker) => worker.kill('SIGTERM')));
    const deadline = Date.now() + 75_000;
    let ready = await call<{ status: string; workers: number }>('GET', '/health/ready');
    while (ready.body.workers !== 0 && Date.now() < deadline) {
      expect(ready.status).toBe(200);
      await sleep(1_000);
      ready = await call<{ status: string; workers: number }>('GET', '/health/ready');
    }
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', workers: 0 });
  }, 260_000);
});

/** A large CMYK print export (long enough to be killed in the middle of its render); its id. */
async function longExport(name: string): Promise<string> {
  const inset = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#f0a020' } }).png().toBuffer();
  const photo = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#3060c0' } })
    .composite([{ input: inset, top: 500, left: 500 }])
    .jpeg({ quality: 95 })
    .toBuffer();
  const imageUrl = await uploadImage(photo);
  const design = {
    material: 'kraft',
    background: { kind: 'image', value: imageUrl },
    artworks: ['front', 'back', 'lid', 'left', 'right'].map((panelId, i) => ({
      id: `a${i}`,
      panelId,
      imageUrl,
      offsetX: 0,
      offsetY: 0,
      scale: 0.5,
      rotationDeg: 0,
    })),
  };
  const project = await call<{ project: { id: string } }>('POST', '/projects', {
    name,
    templateId: 'mailer-box',
    ...MAILER,
    artworkJson: design,
  });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  const created = await call<{ export: ExportBody }>('POST', `/projects/${project.body.project.id}/exports`, {
    format: 'print-pdf',
    options: { colorSpace: 'cmyk' },
  });
  expect(created.status).toBe(202);
  return created.body.export.id;
}
