/**
 * Exports as jobs: 200 print-PDF exports POSTed over 10 connections to a web process on Redis,
 * rendered by two worker processes (dist/worker.js), while a separate process probes the web
 * process's /health. Figures: POST latency (p50/p99), exports per second from the first POST to
 * the last export finished, and /health p99 while they render. 50 dieline exports warm the web
 * process up first (not counted). The workers run at nice +10 (as `npm run worker` does). Needs DATABASE_URL (workers share
 * a server database) and Redis (REDIS_URL, default 127.0.0.1:6379).
 * Run alone after `npm run build`: DATABASE_URL=… npx tsx bench/exports.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { API_KEY_SECRET, createDatabase, JWT_SECRET, ROOT, startService, json } from './support.js';

export const EXPORTS_TOTAL = 200;
export const EXPORT_CONNECTIONS = 10;
export const POST_P99_TARGET_MS = 50;
export const HEALTH_P99_TARGET_MS = 20;
const HEALTH_PROBE_SECONDS = Number(process.env.BENCH_EXPORT_PROBE_SECONDS ?? 20);

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/worker.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 30_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('export worker started')) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${output}`)));
  });
}

function healthProbe(url: string, seconds: number): Promise<{ p50: number; p99: number; max: number; probes: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/health-probe.ts'), `${url}/health`, String(seconds)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`health probe exited with ${code}`)))),
  );
}

export async function benchExports(
  baseDatabaseUrl: string,
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<Record<string, number>> {
  const database = await createDatabase(baseDatabaseUrl, 'pf_bench_exports');
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-exports-'));
  const shared = { REDIS_URL: redisUrl, EXPORT_QUEUE_PREFIX: `pf-bench-${randomBytes(4).toString('hex')}`, EXPORT_CONCURRENCY: '2' };
  const service = await startService({ databaseUrl: database.url, uploadDir, env: shared });
  const workerEnv = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'pf-bench-worker-')),
    UPLOAD_DIR: uploadDir,
    JWT_SECRET,
    API_KEY_SECRET,
    LOG_LEVEL: 'info',
    ...shared,
  };
  const workers = await Promise.all([startWorker(workerEnv), startWorker(workerEnv)]);
  try {
    const registered = await json<{ token: string; user: { id: string } }>(
      await fetch(`${service.url}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `bench-exports-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Bench' }),
      }),
    );
    const auth = { authorization: `Bearer ${registered.token}` };
    const created = await json<{ project: { id: string } }>(
      await fetch(`${service.url}/projects`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Bench exports',
          templateId: 'mailer-box',
          artworkJson: { templateId: 'mailer-box', material: 'kraft', background: { kind: 'color', value: '#2a6' }, artworks: [] },
        }),
      }),
    );
    const projectId = created.project.id;

    // Warm-up (JIT, connection pools, prepared statements): dieline exports, not counted below.
    await autocannon({
      url: `${service.url}/projects/${projectId}/exports`,
      method: 'POST',
      connections: EXPORT_CONNECTIONS,
      amount: 50,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'dieline-svg' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const probe = healthProbe(service.url, HEALTH_PROBE_SECONDS);
    const started = performance.now();
    const posted = await autocannon({
      url: `${service.url}/projects/${projectId}/exports`,
      method: 'POST',
      connections: EXPORT_CONNECTIONS,
      amount: EXPORTS_TOTAL,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'print-pdf', options: { marks: true } }),
    });
    if (posted['2xx'] !== EXPORTS_TOTAL) {
      throw new Error(`${posted['2xx']} of ${EXPORTS_TOTAL} POSTs answered 2xx (non-2xx: ${posted.non2xx})`);
    }

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    let finished: { done: number; failed: number; last: Date | null };
    for (;;) {
      const { rows } = await client.query<{ done: string; failed: string; last: Date | null }>(
        `SELECT count(*) FILTER (WHERE status IN ('succeeded','failed')) AS done, count(*) FILTER (WHERE status = 'failed') AS failed,
                max("finishedAt") AS last FROM exports WHERE format = 'print-pdf'`,
      );
      finished = { done: Number(rows[0]!.done), failed: Number(rows[0]!.failed), last: rows[0]!.last };
      if (finished.done >= EXPORTS_TOTAL) break;
      if (performance.now() - started > 600_000) throw new Error(`only ${finished.done} exports finished in 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { rows: firstRows } = await client.query<{ first: Date }>(
      `SELECT min("createdAt") AS first FROM exports WHERE format = 'print-pdf'`,
    );
    await client.end();
    const renderSeconds = (finished.last!.getTime() - firstRows[0]!.first.getTime()) / 1000;
    const health = await probe;
    return {
      exports: EXPORTS_TOTAL,
      failed: finished.failed,
      'POST p50 ms': posted.latency.p50,
      'POST p99 ms': posted.latency.p99,
      'exports/s': EXPORTS_TOTAL / renderSeconds,
      'seconds to render all': renderSeconds,
      '/health p99 ms while rendering': health.p99,
      '/health max ms': health.max,
    };
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(
      workers.map((worker) => new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : worker.once('exit', resolve)))),
    );
    await service.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required: the workers share a server database.');
  console.log(await benchExports(url));
}
