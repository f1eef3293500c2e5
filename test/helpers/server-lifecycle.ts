// One real server process (src/server.ts under tsx) whose whole life a test can watch: its exit
// code and time, its output, and signals sent at chosen moments. test/helpers/server-process.ts
// runs healthy fleets; this is for start-up failures and shutdown.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseUrl } from './app.js';
import { freePort, serverEnv } from './server-process.js';

export { freePort };

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when the process exited. */
  at: number;
}

export interface LifecycleServer {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  uploadDir: string;
  /** stdout and stderr so far. */
  output(): string;
  exited: Promise<Exit>;
  /** Resolves once GET /health answers 200; rejects if the process exits first or time runs out. */
  waitUntilHealthy(timeoutMs?: number): Promise<void>;
  /** SIGKILL if still running (cleanup after a failed test). */
  kill(): Promise<void>;
  /** kill(), then removes the temporary directories this helper made. */
  cleanup(): Promise<void>;
}

/**
 * Spawns the server with test settings on the run's database: the run's PostgreSQL database, or
 * (embedded run) a file-backed embedded database of its own in a fresh DATA_DIR.
 */
export async function spawnServer(env: Record<string, string> = {}): Promise<LifecycleServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-life-data-'));
  const uploadDir = env.UPLOAD_DIR ?? mkdtempSync(path.join(tmpdir(), 'pf-life-uploads-'));
  const madeDirs = env.UPLOAD_DIR === undefined ? [dataDir, uploadDir] : [dataDir];
  const url = databaseUrl();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: serverEnv({
      PORT: String(port),
      DATA_DIR: dataDir,
      UPLOAD_DIR: uploadDir,
      ...(url ? { DATABASE_URL: url } : {}),
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-50_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  let exit: Exit | undefined;
  void exited.then((value) => (exit = value));

  const kill = async () => {
    if (!exit) {
      child.kill('SIGKILL');
      await exited;
    }
  };

  return {
    child,
    port,
    baseUrl,
    uploadDir,
    output: () => output,
    exited,
    async waitUntilHealthy(timeoutMs = 45_000) {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        if (exit) throw new Error(`The server exited during start-up (${exit.code ?? exit.signal}):\n${output}`);
        try {
          const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1_000) });
          if (response.status === 200) return;
        } catch {
          // Not listening yet.
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`The server did not answer /health within ${timeoutMs} ms:\n${output}`);
    },
    kill,
    async cleanup() {
      await kill();
      for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

