// A busy render pool on a BullMQ worker makes an export wait, never fail (see busy-pool.test.ts
// for the web process): a real worker process on real Redis and PostgreSQL, one attempt per
// export, one render waiting per account. A costly export holds the account's render; of the two
// exports that follow, one waits behind it and the other is refused as busy: that one is delayed
// (logged `waiting`), not failed, and renders once the costly one has ended.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '../helpers/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/postgres-admin.js';
import { SHARED_REDIS_URL, uniqueNamespace } from '../helpers/redis.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { dashedCircles, modestFilterSvg } from '../../fixtures/svg-bombs.js';
import { MAILER, pollExport, printableDesign, sleep, type ExportBody } from './helpers.js';
import { startWorker, type WorkerProcess } from './worker-process.js';

const LOCAL_POSTGRES = 'postgresql://root@127.0.0.1:5432/postgres';

let scratch: ScratchDatabase;
let web: ServerProcess;
let worker: WorkerProcess | undefined;
let uploadDir: string;
let auth: Record<string, string>;

async function call<T>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${web.baseUrl}${url}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

async function upload(bytes: Buffer, type: string, filename: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const response = await fetch(`${web.baseUrl}/assets`, { method: 'POST', headers: auth, body: form });
  expect(response.status).toBe(201);
  return ((await response.json()) as { asset: { name: string } }).asset.name;
}

async function project(imageName: string): Promise<string> {
  const created = await call<{ project: { id: string } }>('POST', '/projects', {
    name: 'Busy',
    templateId: 'mailer-box',
    ...MAILER,
    artworkJson: printableDesign(`/files/${imageName}`),
  });
  expect(created.status).toBe(201);
  return created.body.project.id;
}

async function exportOf(projectId: string): Promise<string> {
  const created = await call<{ export: ExportBody }>('POST', `/projects/${projectId}/exports`, { format: 'preview-png' });
  expect(created.status).toBe(202);
  return created.body.export.id;
}

const readExport = (id: string) => async () => (await call<{ export: ExportBody }>('GET', `/exports/${id}`)).body.export;

beforeAll(async () => {
  scratch = await createScratchDatabase(databaseUrl() ?? LOCAL_POSTGRES, 'pf_busy_queue');
  uploadDir = mkdtempSync(path.join(tmpdir(), 'pf-busy-queue-uploads-'));
  const env = { DATABASE_URL: scratch.url, UPLOAD_DIR: uploadDir, REDIS_URL: SHARED_REDIS_URL, EXPORT_QUEUE_PREFIX: uniqueNamespace() };
  // The first uploads start analysis children on a loaded machine: a long analysis deadline.
  web = await startServer({ databaseUrl: scratch.url, uploadDir, env: { ...env, RENDER_ANALYSIS_TIMEOUT_MS: '120000' } });
  worker = await startWorker(
    { ...env, EXPORT_CONCURRENCY: '3', EXPORT_ATTEMPTS: '1', RENDER_ACCOUNT_QUEUE: '1', RENDER_PREVIEW_TIMEOUT_MS: '20000' },
    120_000,
  );
  const registered = await call<{ token: string; user: { id: string } }>('POST', '/auth/register', {
    email: `busy-${Date.now()}@example.com`,
    password: 'correct horse battery',
    name: 'Busy',
  });
  auth = { authorization: `Bearer ${registered.body.token}` };
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  await client.query(`UPDATE users SET plan = 'pro' WHERE id = $1`, [registered.body.user.id]);
  await client.end();
}, 240_000);

afterAll(async () => {
  await worker?.kill('SIGTERM');
  await web?.stop();
  await scratch?.drop();
}, 60_000);

describe('exports while a worker’s render pool is busy (BullMQ)', () => {
  it('the export refused as busy is delayed without using its attempt, and renders after the costly one', async () => {
    // A design whose raster takes librsvg minutes, stored as if before the upload checks existed.
    const slowImage = await upload(modestFilterSvg(), 'image/svg+xml', 'drawing.svg');
    writeFileSync(path.join(uploadDir, slowImage), dashedCircles());
    const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();
    const photoName = await upload(photo, 'image/jpeg', 'photo.jpg');
    const costly = await exportOf(await project(slowImage));
    const deadline = Date.now() + 30_000;
    while (!worker!.logged('started').includes(costly) && Date.now() < deadline) await sleep(50);
    expect(worker!.logged('started')).toContain(costly);
    await sleep(1_500);
    const cheap = await project(photoName);
    const quick = [await exportOf(cheap), await exportOf(cheap)];

    const ended = await Promise.all(quick.map((id) => pollExport(readExport(id), 120_000)));
    for (const done of ended) expect(done.status, `${JSON.stringify(done.error)}\n${worker!.output().slice(-6000)}`).toBe('succeeded');
    expect(quick.some((id) => worker!.logged('waiting').includes(id)), worker!.output().slice(-2000)).toBe(true);
    // The costly one ran out of its deadline (a render error on its only attempt).
    expect((await pollExport(readExport(costly), 60_000)).status).toBe('failed');
  }, 240_000);
});
