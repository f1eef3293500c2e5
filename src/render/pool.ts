// A small pool of reused child processes that run named render tasks (tasks.ts). A child is the
// unit that can be stopped: libvips on a pathological image cannot be interrupted inside a process
// (a worker thread running it does not end), but a child killed with SIGKILL is gone at once. So
// every task has a deadline counted from its submission (waiting for a child included), is
// cancelled when the caller's signal aborts, and its child is killed (SIGKILL) at either, or when
// its resident memory passes the cap; the next task starts a fresh child. A task goes to a child
// that has said it is ready: one still starting (a second or more on a busy machine) never holds a
// task that a running child could take first. The web process only sends and receives structured
// clones: its event loop never decodes or rasterises.
//
// Fair by account: an account has at most one task running in a pool; its other tasks wait in its
// own queue (at most `accountQueue`), and a free child takes the next account's task in turn (round
// robin), so one account's burst or costly work never holds the children other accounts need.
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { RENDER_MESSAGES, RenderError, errorFromChild, type KillReason } from './errors.js';
import type { TaskInput, TaskName, TaskOutput } from './tasks.js';
import { pack, type SentError } from './transport.js';
import { createFairQueue } from '../lib/fair-queue.js';

export interface PoolOptions {
  /** For metrics and logs, e.g. `analysis`. */
  name: string;
  /** Children at most (each runs one task at a time). */
  size: number;
  /**
   * Tasks waiting for a child at most, all accounts together; beyond it run() throws RenderError
   * 'busy' at once, except for an account's only task (one with nothing running or waiting).
   */
  queue: number;
  /** Tasks of one account waiting at most; beyond it run() throws RenderError 'busy' at once. */
  accountQueue: number;
  /** Resident memory of one child at most (polled); past it the child is killed. */
  memoryMb: number;
  /** V8 heap of one child (--max-old-space-size). */
  heapMb: number;
  /** A child idle this long exits (its memory goes back to the system). */
  idleMs: number;
}

export interface RunOptions {
  /** From submission to result, waiting included. */
  deadlineMs: number;
  /** What the work is, in the messages of the errors (e.g. `print file`). */
  label: string;
  /** Whose work it is: an account runs one task at a time and waits its turn behind the others. */
  account: string;
  /** Aborts when the client goes away. */
  signal?: AbortSignal;
}

export interface PoolStats {
  children: number;
  busy: number;
  /** Children started and not ready yet (part of `children`). */
  starting: number;
  waiting: number;
  kills: Record<KillReason, number>;
  crashes: number;
  /** Process ids of the live children, and of those running a task. */
  pids: number[];
  busyPids: number[];
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SentError };
/** What a child sends: once `ready` when it can take tasks, then one reply per task. */
type ChildMessage = { ready: true } | Reply;

interface Job {
  id: number;
  task: TaskName;
  input: unknown;
  options: RunOptions;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Ends the job's deadline timer and abort listener. */
  settle(): void;
  worker?: Worker;
}

interface Worker {
  child: ChildProcess;
  /** The child has loaded its tasks and takes work. */
  ready: boolean;
  job: Job | null;
  idleTimer?: NodeJS.Timeout;
  /** Why this pool killed it, if it did. */
  killed?: KillReason;
  exited: Promise<void>;
}

const MEMORY_POLL_MS = 200;
const PAGE_BYTES = 4096;

/** The child's entry beside this module: the compiled .js in dist/, the .ts under tsx and vitest. */
function childEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const typescript = here.endsWith('.ts');
  return { file: path.join(path.dirname(here), typescript ? 'child.ts' : 'child.js'), execArgv: typescript ? ['--import', 'tsx'] : [] };
}

/** The directory whose node_modules hold tsx and sharp (the child's working directory). */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function residentBytes(pid: number): Promise<number | null> {
  try {
    const statm = await readFile(`/proc/${pid}/statm`, 'utf8');
    return Number(statm.split(' ')[1]) * PAGE_BYTES;
  } catch {
    return null;
  }
}

export function createRenderPool(options: PoolOptions) {
  const entry = childEntry();
  const workers = new Set<Worker>();
  // Every child not yet exited, including those killed and no longer counted in workers: close()
  // waits for all of them, so no child outlives the pool (or the process) that started it.
  const unexited = new Set<Worker>();
  const waiting = createFairQueue<Job>((job) => job.options.account, (job) => job.id);
  const kills: Record<KillReason, number> = { deadline: 0, cancelled: 0, memory: 0, shutdown: 0 };
  let crashes = 0;
  let nextId = 1;
  let closed = false;
  let memoryTimer: NodeJS.Timeout | undefined;

  function spawnWorker(): Worker {
    const child = fork(entry.file, [], {
      cwd: PACKAGE_ROOT,
      execArgv: [`--max-old-space-size=${options.heapMb}`, ...entry.execArgv],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: Worker = { child, ready: false, job: null, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
    workers.add(worker);
    unexited.add(worker);
    child.on('message', (message: ChildMessage) => ('ready' in message ? becameReady(worker) : finish(worker, message)));
    child.once('exit', () => gone(worker));
    // A failed spawn also emits exit; the error itself needs a listener.
    child.on('error', () => undefined);
    return worker;
  }

  /**
   * The child is gone (killed by us, crashed, or idle): fail its job unless it was settled. A child
   * that dies while starting fails the oldest waiting task in its place, so a child that cannot
   * start is not restarted for ever while tasks wait for their deadlines.
   */
  function gone(worker: Worker): void {
    workers.delete(worker);
    unexited.delete(worker);
    clearTimeout(worker.idleTimer);
    const job = worker.job ?? (!worker.ready && !worker.killed && !closed ? waiting.takeOldest() : undefined);
    worker.job = null;
    if (job) {
      if (!worker.killed) crashes++;
      job.settle();
      job.reject(new RenderError('crashed', RENDER_MESSAGES.crashed(job.options.label)));
    }
    pump();
  }

  function becameReady(worker: Worker): void {
    if (worker.ready || worker.killed) return;
    worker.ready = true;
    park(worker);
    pump();
  }

  function kill(worker: Worker, reason: KillReason): void {
    if (worker.killed) return;
    worker.killed = reason;
    kills[reason]++;
    worker.child.kill('SIGKILL');
    // The slot is free now; the dying child no longer counts against the pool's size.
    workers.delete(worker);
    worker.job = null;
    pump();
  }

  function finish(worker: Worker, reply: Reply): void {
    const job = worker.job;
    if (!job || job.id !== reply.id) return;
    worker.job = null;
    job.settle();
    if (reply.ok) job.resolve(reply.value);
    else job.reject(errorFromChild(reply.error));
    park(worker);
    pump();
  }

  function park(worker: Worker): void {
    clearTimeout(worker.idleTimer);
    worker.idleTimer = setTimeout(() => {
      if (!worker.job && !worker.killed) {
        workers.delete(worker);
        worker.child.kill('SIGKILL');
      }
    }, options.idleMs);
    worker.idleTimer.unref();
  }

  function idleWorker(): Worker | undefined {
    for (const worker of workers) if (worker.ready && !worker.job && !worker.killed) return worker;
    return undefined;
  }

  function dispatch(job: Job, worker: Worker): void {
    clearTimeout(worker.idleTimer);
    worker.job = job;
    job.worker = worker;
    worker.child.send({ id: job.id, task: job.task, input: job.input });
    watchMemory();
  }

  function pump(): void {
    if (closed) return;
    for (;;) {
      const worker = idleWorker();
      const job = worker ? waiting.next(runningAccounts()) : undefined;
      if (!worker || !job) break;
      dispatch(job, worker);
    }
    // Tasks that could run start children (up to the pool's size) that take them once ready.
    const starting = [...workers].filter((worker) => !worker.ready).length;
    const wanted = Math.min(waiting.runnable(runningAccounts()) - starting, options.size - workers.size);
    for (let i = 0; i < wanted; i++) spawnWorker();
  }

  function runningAccounts(): Set<string> {
    const accounts = new Set<string>();
    for (const worker of workers) if (worker.job) accounts.add(worker.job.options.account);
    return accounts;
  }

  function watchMemory(): void {
    if (memoryTimer || process.platform !== 'linux') return;
    memoryTimer = setInterval(async () => {
      const busy = [...workers].filter((worker) => worker.job);
      if (busy.length === 0) {
        clearInterval(memoryTimer);
        memoryTimer = undefined;
        return;
      }
      for (const worker of busy) {
        const bytes = worker.child.pid ? await residentBytes(worker.child.pid) : null;
        const job = worker.job;
        if (!job || bytes === null || bytes <= options.memoryMb * 1024 * 1024) continue;
        kill(worker, 'memory');
        job.settle();
        job.reject(new RenderError('memory', RENDER_MESSAGES.memory(job.options.label, options.memoryMb)));
      }
    }, MEMORY_POLL_MS);
    memoryTimer.unref();
  }

  /** Ends the job for reason: out of the queue, or its child killed. */
  function abandon(job: Job, reason: 'deadline' | 'cancelled'): void {
    if (!waiting.remove(job) && job.worker && job.worker.job === job) kill(job.worker, reason);
    job.settle();
    job.reject(
      reason === 'deadline'
        ? new RenderError('deadline', RENDER_MESSAGES.timeout(job.options.label, job.options.deadlineMs))
        : new RenderError('cancelled', RENDER_MESSAGES.cancelled),
    );
  }

  return {
    /** Runs the named task in a child; rejects with a RenderError when the pool ends it. */
    async run<N extends TaskName>(task: N, input: TaskInput<N>, run: RunOptions): Promise<TaskOutput<N>> {
      if (closed) throw new RenderError('closed', RENDER_MESSAGES.closing);
      if (run.signal?.aborted) throw new RenderError('cancelled', RENDER_MESSAGES.cancelled);
      const submitted = Date.now();
      const packed = await pack(input);
      // Checked where the task joins the queue (no await in between), so a burst cannot pass it together.
      if (closed) throw new RenderError('closed', RENDER_MESSAGES.closing);
      if (run.signal?.aborted) throw new RenderError('cancelled', RENDER_MESSAGES.cancelled);
      const own = waiting.count(run.account);
      const alone = own === 0 && !runningAccounts().has(run.account);
      if (own >= options.accountQueue || (!alone && waiting.size() >= options.queue)) throw new RenderError('busy', RENDER_MESSAGES.busy);
      return new Promise<TaskOutput<N>>((resolve, reject) => {
        let done = false;
        const job: Job = {
          id: nextId++,
          task,
          input: packed,
          options: run,
          resolve: (value) => resolve(value as TaskOutput<N>),
          reject,
          settle: () => {
            done = true;
            clearTimeout(timer);
            run.signal?.removeEventListener('abort', onAbort);
          },
        };
        const onAbort = () => !done && abandon(job, 'cancelled');
        const timer = setTimeout(() => !done && abandon(job, 'deadline'), Math.max(0, run.deadlineMs - (Date.now() - submitted)));
        run.signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(job);
        pump();
      });
    },

    stats(): PoolStats {
      const live = [...workers];
      return {
        children: live.length,
        busy: live.filter((worker) => worker.job).length,
        starting: live.filter((worker) => !worker.ready).length,
        waiting: waiting.size(),
        kills: { ...kills },
        crashes,
        pids: live.flatMap((worker) => (worker.child.pid ? [worker.child.pid] : [])),
        busyPids: live.flatMap((worker) => (worker.job && worker.child.pid ? [worker.child.pid] : [])),
      };
    },

    /**
     * Takes no more work; lets running tasks finish for up to graceMs, then kills their children
     * (SIGKILL). Resolves once every child has exited.
     */
    async close(graceMs = 0): Promise<void> {
      if (!closed) {
        closed = true;
        for (const job of waiting.drain()) {
          job.settle();
          job.reject(new RenderError('closed', RENDER_MESSAGES.closing));
        }
      }
      const all = [...workers];
      const idle = all.filter((worker) => !worker.job);
      for (const worker of idle) {
        workers.delete(worker);
        worker.child.kill('SIGKILL');
      }
      const running = all.filter((worker) => worker.job);
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.all(running.map((worker) => idleOrGone(worker))), graceOver]);
      clearTimeout(timer);
      for (const worker of running) {
        const job = worker.job;
        if (!job) {
          workers.delete(worker);
          worker.child.kill('SIGKILL');
          continue;
        }
        kill(worker, 'shutdown');
        job.settle();
        job.reject(new RenderError('closed', RENDER_MESSAGES.closing));
      }
      clearInterval(memoryTimer);
      await Promise.all([...unexited].map((worker) => worker.exited));
    },
  };
}

/** Resolves when the worker's job is done or its child has exited. */
function idleOrGone(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    const check = setInterval(() => {
      if (!worker.job || worker.killed || worker.child.exitCode !== null || worker.child.signalCode !== null) {
        clearInterval(check);
        resolve();
      }
    }, 25);
  });
}

export type RenderPool = ReturnType<typeof createRenderPool>;
