// Redis for the shared rate-limit tests: the machine's (127.0.0.1:6379, as in CI) for plain runs,
// and a private redis-server on a free port for tests that stop it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { freePort } from './server-process.js';

export const SHARED_REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/** A namespace of its own, so test runs (and parallel files) never share a budget. */
export const uniqueNamespace = () => `pf-test-${randomBytes(6).toString('hex')}`;

export interface PrivateRedis {
  url: string;
  port: number;
  /** Starts redis-server (again) on the same port. */
  start(): Promise<void>;
  /** Kills it (SIGKILL: like a crash) and waits for the exit. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: connected but silent, like an overloaded or partitioned server. */
  freeze(): void;
  thaw(): void;
}

async function listening(port: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      await listening(port);
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill('SIGCONT');
      running.kill('SIGKILL');
      await exited;
    },
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
  };
  await redis.start();
  return redis;
}
