// Entry of a render child (pool.ts forks it): runs one named task at a time and answers over IPC.
// Every thread of the process runs at a lower CPU priority, set before libvips starts its threads,
// so the web process's event loop is scheduled first. libvips keeps no operation
// cache (decoded pixels would outlive the task). When the parent goes away (its IPC channel
// closes) the child kills itself: an exit could wait for a libvips thread still rasterising.
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { WORKER_NICE } from '../lib/worker-priority.js';
import { errorToSend, unpack } from './transport.js';
/** libvips threads per child: two children on two cores leave room for the event loop. */
const LIBVIPS_THREADS = 2;

// Threads started before this line (V8's, libuv's) are lowered one by one (on Linux nice is per
// thread); every later thread inherits the priority of the thread that starts it.
for (const tid of process.platform === 'linux' ? readdirSync('/proc/self/task') : [String(process.pid)]) {
  try {
    setPriority(Number(tid), WORKER_NICE);
  } catch {
    // Refused (a policy) or ended meanwhile: that thread keeps its priority.
  }
}

process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));

const { default: sharp } = await import('sharp');
sharp.cache(false);
sharp.concurrency(LIBVIPS_THREADS);
const { FILE_TASKS, TASKS } = await import('./tasks.js');

interface Request {
  id: number;
  task: string;
  input: unknown;
  /** Where a file task writes its result. */
  file?: string;
}

process.on('message', async ({ id, task, input, file }: Request) => {
  try {
    const tasks: Record<string, unknown> = file === undefined ? TASKS : FILE_TASKS;
    const run = Object.hasOwn(tasks, task) ? (tasks[task] as (input: unknown, file?: string) => Promise<unknown>) : undefined;
    if (typeof run !== 'function') throw new Error(`No render task named ${String(task)}.`);
    const value = await run(unpack(input), file);
    process.send!({ id, ok: true, value });
  } catch (error) {
    process.send!({ id, ok: false, error: errorToSend(error) });
  }
});
process.send!({ ready: true });
