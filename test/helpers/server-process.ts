// Real server processes of the service (src/server.ts under tsx), all on one PostgreSQL database
// and one upload directory with shared secrets: what multi-process guarantees are tested against.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_API_KEY_SECRET, TEST_JWT_SECRET } from './app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Catches a server that never answers: an embedded engine's first start (creating its database) on
// a busy two-core machine has taken more than 30 s.
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

export interface ServerProcess {
  /** e.g. http://127.0.0.1:41234, no trailing slash. */
  baseUrl: string;
  /** What the process wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within the bound; resolves once it has exited. */
  stop(): Promise<void>;
  /** The server's process id. */
  pid: number;
  /** Resolves with the exit code (null when a signal ended it) once the process has exited. */
  exited: Promise<number | null>;
}

export interface StartOptions {
  /** PostgreSQL URL every process connects to (two processes cannot share an embedded database). */
  databaseUrl: string;
  /** Shared by all processes; a fresh temporary directory by default. */
  uploadDir?: string;
  /** Extra environment, applied last. */
  env?: Record<string, string>;
}

/** Starts `count` processes in parallel and waits until each answers GET /health with 200. */
/** The environment of a test server process: test secrets, cheap bcrypt, limits off, quiet logs. */
export function serverEnv(overrides: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    JWT_SECRET: TEST_JWT_SECRET,
    API_KEY_SECRET: TEST_API_KEY_SECRET,
    BCRYPT_COST: '4',
    RATE_LIMIT_AUTH_PER_MIN: '0',
    RATE_LIMIT_V1_PER_MIN: '0',
    RATE_LIMIT_ACCOUNT_PER_MIN: '0',
    LOG_LEVEL: 'warn',
    ...overrides,
  };
}

export async function startServers(count: number, options: StartOptions): Promise<ServerProcess[]> {
  const uploadDir = options.uploadDir ?? mkdtempSync(path.join(tmpdir(), 'pf-uploads-'));
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer({ ...options, uploadDir })));
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await stopServers(servers);
    throw failure.reason;
  }
  return servers;
}

export async function stopServers(servers: readonly ServerProcess[]): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-data-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: serverEnv({
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: dataDir,
      UPLOAD_DIR: options.uploadDir ?? mkdtempSync(path.join(tmpdir(), 'pf-uploads-')),
      SHUTDOWN_GRACE_MS: '5000',
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exitCode = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const exited = exitCode.then(() => undefined);

  const server: ServerProcess = {
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: () => stopChild(child, exited),
    pid: child.pid!,
    exited: exitCode,
  };
  try {
    await waitForHealth(server.baseUrl, child);
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`, { cause: error });
  }
  return server;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('No free port was reported.'))));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server process exited during start-up (${child.exitCode ?? child.signalCode}).`);
    }
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1_000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server at ${baseUrl} did not answer /health within ${START_TIMEOUT_MS} ms.`);
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
  });
  const late = await Promise.race([exited.then(() => false), timedOut]);
  clearTimeout(timer);
  if (late) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Registers a new account on a server process over HTTP and returns its token. */
export async function registerOver(baseUrl: string, name: string): Promise<string> {
  const registered = await fetch(`${baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${name.toLowerCase()}-${Date.now()}@example.com`, password: 'correct horse battery', name }),
  });
  if (registered.status !== 201) throw new Error(`Registration answered ${registered.status}: ${await registered.text()}`);
  return ((await registered.json()) as { token: string }).token;
}
