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
//
// A file task (runToFile: a print PDF of large photos, 100 MB and more) writes its result into a
// file of the pool's private temporary directory instead of answering it over IPC. The caller gets
// the file opened and already unlinked, so nothing is left on disk whatever happens to the answer
// (the descriptor closes when the stream ends or is destroyed); a task that fails, or whose child
// is killed, has its file removed once the child is gone.
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { RENDER_MESSAGES, RenderError, errorFromChild, type KillReason } from './errors.js';
import type { FileTaskInput, FileTaskName, TaskInput, TaskName, TaskOutput } from './tasks.js';
import { pack, type SentError } from './transport.js';
import { createFairQueue } from '../lib/fair-queue.js';
import { isProcessAlive } from '../lib/process-alive.js';

export interface PoolOptions {
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

/** A file task's result: its bytes to read once (the file itself is already unlinked). */
export interface OutputFile {
  size: number;
  stream: Readable;
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
  task: string;
  input: unknown;
  /** A file task's output path. */
  file?: string;
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
/**
 * glibc malloc arenas of a child (unless the environment sets its own): with one arena per thread
 * (libvips' and libuv's) freed image buffers stay spread over many heaps. Print child's peak RSS
 * on five 24 MP photos converted to CMYK (`npm run bench:print-photos`): 713 MB with the default
 * arenas and the PDF answered over IPC; 404 MB with 2 arenas and the PDF written to a file (2
 * arenas alone: 706 → 589 MB). CPU time per photo unchanged (1.84 → 1.56 s).
 */
const MALLOC_ARENAS = '2';
/**
 * Reads of an output file: a print of large photos is 100 MB and more, and each read allocates its
 * chunk; 1 MiB chunks (not the default 64 KiB) cut the web process's CPU time for the answer
 * (reads, buffer allocations and their garbage collection).
 */
const READ_CHUNK_BYTES = 1024 * 1024;
/** The directories of the pools' output files are named `<prefix><pid>-<random>`. */
const OUTPUT_DIR_PREFIX = 'pf-render-';

const MODULE_FILE = fileURLToPath(import.meta.url);
/** The child's entry beside this module: the compiled .js in dist/, the .ts under tsx and vitest. */
const UNDER_TSX = MODULE_FILE.endsWith('.ts');
const CHILD_FILE = path.join(path.dirname(MODULE_FILE), UNDER_TSX ? 'child.ts' : 'child.js');
/** The directory whose node_modules hold tsx and sharp (the child's working directory). */
const PACKAGE_ROOT = path.resolve(path.dirname(MODULE_FILE), '..', '..');

async function residentBytes(pid: number): Promise<number | null> {
  try {
    const statm = await readFile(`/proc/${pid}/statm`, 'utf8');
    return Number(statm.split(' ')[1]) * PAGE_BYTES;
  } catch {
    return null;
  }
}

/** Output directories of processes that are gone (killed before they could remove theirs). */
function removeOrphanedOutputDirs(parent: string): void {
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = new RegExp(`^${OUTPUT_DIR_PREFIX}(\\d+)-`).exec(entry)?.[1];
    if (!pid || Number(pid) === process.pid || isProcessAlive(Number(pid))) continue;
    rmSync(path.join(parent, entry), { recursive: true, force: true });
  }
}

/** The finished output opened, then unlinked: the open descriptor is all that holds the bytes. */
async function openOutput(file: string): Promise<OutputFile> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      return { size, stream: handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES }) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  } finally {
    await rm(file, { force: true });
  }
}

export function createRenderPool(options: PoolOptions) {
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
  let outputDir: Promise<string> | undefined;
  let nextFile = 1;

  /** The pool's own directory for output files (owner-only), made on first use. */
  function outputDirectory(): Promise<string> {
    outputDir ??= (async () => {
      removeOrphanedOutputDirs(tmpdir());
      return mkdtemp(path.join(tmpdir(), `${OUTPUT_DIR_PREFIX}${process.pid}-`));
    })();
    return outputDir;
  }

  function fail(job: Job, error: RenderError): void {
    job.settle();
    job.reject(error);
  }

  /** A killed or idle child's slot is free at once; the child is gone when its exit comes. */
  function retire(worker: Worker): void {
    workers.delete(worker);
    worker.child.kill('SIGKILL');
  }

  /** Work is refused at once while the pool closes or once the caller has gone. */
  function refuseIfEnded(run: RunOptions): void {
    if (closed) throw new RenderError('closed', RENDER_MESSAGES.closing);
    if (run.signal?.aborted) throw new RenderError('cancelled', RENDER_MESSAGES.cancelled);
  }

  /** A failed or abandoned file task's output, removed once its child (if killed) is gone. */
  async function removeOutput(job: Job): Promise<void> {
    // A killed child may still complete a write it had begun; once it has exited nothing writes.
    if (job.worker?.killed) await job.worker.exited;
    await rm(job.file!, { force: true }).catch(() => undefined);
  }

  function spawnWorker(): Worker {
    const child = fork(CHILD_FILE, [], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? MALLOC_ARENAS },
      execArgv: [`--max-old-space-size=${options.heapMb}`, ...(UNDER_TSX ? ['--import', 'tsx'] : [])],
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
      fail(job, new RenderError('crashed', RENDER_MESSAGES.crashed(job.options.label)));
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
    retire(worker);
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
      if (!worker.job && !worker.killed) retire(worker);
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
    worker.child.send({ id: job.id, task: job.task, input: job.input, ...(job.file ? { file: job.file } : {}) });
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
        fail(job, new RenderError('memory', RENDER_MESSAGES.memory(job.options.label, options.memoryMb)));
      }
    }, MEMORY_POLL_MS);
    memoryTimer.unref();
  }

  /** Ends the job for reason: out of the queue, or its child killed. */
  function abandon(job: Job, reason: 'deadline' | 'cancelled'): void {
    if (!waiting.remove(job) && job.worker && job.worker.job === job) kill(job.worker, reason);
    fail(
      job,
      reason === 'deadline'
        ? new RenderError('deadline', RENDER_MESSAGES.timeout(job.options.label, job.options.deadlineMs))
        : new RenderError('cancelled', RENDER_MESSAGES.cancelled),
    );
  }

  async function submit(task: string, input: unknown, run: RunOptions, file?: string): Promise<unknown> {
    const submitted = Date.now();
    const packed = await pack(input);
    refuseIfEnded(run);
    // Checked where the task joins the queue (no await in between), so a burst cannot pass it together.
    const own = waiting.count(run.account);
    const alone = own === 0 && !runningAccounts().has(run.account);
    if (own >= options.accountQueue || (!alone && waiting.size() >= options.queue)) throw new RenderError('busy', RENDER_MESSAGES.busy);
    return new Promise<unknown>((resolve, reject) => {
      let done = false;
      const job: Job = {
        id: nextId++,
        task,
        input: packed,
        ...(file ? { file } : {}),
        options: run,
        resolve,
        reject: file ? (error) => void removeOutput(job).then(() => reject(error)) : reject,
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
  }

  return {
    /** Runs the named task in a child; rejects with a RenderError when the pool ends it. */
    async run<N extends TaskName>(task: N, input: TaskInput<N>, run: RunOptions): Promise<TaskOutput<N>> {
      refuseIfEnded(run);
      return (await submit(task, input, run)) as TaskOutput<N>;
    },

    /** Runs the named file task in a child, as run() does; its file comes back opened and unlinked. */
    async runToFile<N extends FileTaskName>(task: N, input: FileTaskInput<N>, run: RunOptions): Promise<OutputFile> {
      refuseIfEnded(run);
      const file = path.join(await outputDirectory(), `output-${nextFile++}`);
      await submit(task, input, run, file);
      return openOutput(file);
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
        for (const job of waiting.drain()) fail(job, new RenderError('closed', RENDER_MESSAGES.closing));
      }
      const running = [...workers].filter((worker) => worker.job);
      for (const worker of workers) if (!worker.job) retire(worker);
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.all(running.map((worker) => idleOrGone(worker))), graceOver]);
      clearTimeout(timer);
      for (const worker of running) {
        const job = worker.job;
        if (!job) retire(worker);
        else {
          kill(worker, 'shutdown');
          fail(job, new RenderError('closed', RENDER_MESSAGES.closing));
        }
      }
      clearInterval(memoryTimer);
      await Promise.all([...unexited].map((worker) => worker.exited));
      if (outputDir) await rm(await outputDir, { recursive: true, force: true });
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
