// Real `npm run worker` processes (src/worker.ts under tsx) for the queue tests.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { serverEnv } from '../helpers/server-process.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface WorkerProcess {
  pid: number;
  output(): string;
  /** The export ids this worker logged for a phase ('started', 'succeeded', …). */
  logged(phase: string): string[];
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function startWorker(env: Record<string, string>, timeoutMs = 90_000): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: ROOT,
    env: serverEnv({ LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '5000', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; exportId?: string; phase?: string });
  const worker: WorkerProcess = {
    pid: child.pid!,
    output: () => output,
    logged: (phase) => lines().flatMap((line) => (line.phase === phase && line.exportId ? [line.exportId] : [])),
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!lines().some((line) => line.msg === 'export worker started')) {
    if (child.exitCode !== null) throw new Error(`worker exited at start-up:\n${output}`);
    if (Date.now() > deadline) {
      await worker.kill('SIGKILL');
      throw new Error(`worker did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return worker;
}
