// Shared by the benchmark scripts: start the production build as a child process, make and drop a
// database, read a process's resident memory and CPU time.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const JWT_SECRET = 'bench-jwt-secret-at-least-32-characters-long';
export const API_KEY_SECRET = 'cd'.repeat(32);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function requireBuild(): string {
  const entry = path.join(ROOT, 'dist/server.js');
  if (!existsSync(entry)) throw new Error('No production build: run `npm run build` first (npm run bench does).');
  return entry;
}

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database beside the one baseUrl names, dropped (forcibly) by drop(). */
export async function createDatabase(baseUrl: string, prefix = 'pf_bench'): Promise<BenchDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database keeps PostgreSQL busy for a moment (checkpoint, autovacuum of the new catalog):
 * a checkpoint and 3 s of quiet, so the first workload measures the service, not the neighbour.
 */
export async function settle(url: string): Promise<void> {
  await adminQuery(url, 'CHECKPOINT').catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
}

export interface RunningService {
  url: string;
  pid: number;
  process: ChildProcess;
  /** Milliseconds from spawn to the first 200 on /health. */
  startupMs: number;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  databaseUrl?: string;
  dataDir?: string;
  uploadDir?: string;
  env?: Record<string, string>;
  /** Another build's dist/server.js (bench/baseline.ts); this checkout's build by default. */
  entry?: string;
  /** Flags for node itself, e.g. ['--cpu-prof'] (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
}

/** The service's default level (one access-log line per request) unless BENCH_LOG_LEVEL says otherwise. */
export const SERVICE_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const entry = options.entry ?? requireBuild();
  const port = await freePort();
  const work = mkdtempSync(path.join(tmpdir(), 'pf-bench-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir ?? path.join(work, 'data'),
    UPLOAD_DIR: options.uploadDir ?? path.join(work, 'uploads'),
    JWT_SECRET,
    API_KEY_SECRET,
    RATE_LIMIT_AUTH_PER_MIN: '0',
    RATE_LIMIT_V1_PER_MIN: '0',
    LOG_LEVEL: SERVICE_LOG_LEVEL,
    BCRYPT_COST: process.env.BCRYPT_COST ?? '12',
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '10',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  // A shared, busy host can take a while to start a process: the bound only catches one that never answers.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited during start-up: ${stderr}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('service did not answer /health within 120 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startupMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    process: child,
    startupMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/** Resident set size of a process in bytes (Linux). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

export async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux). */
export function cpuMicros(pid: number): number {
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of those.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}
const CLOCK_TICKS_PER_SECOND = 100;

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
