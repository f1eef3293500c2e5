// libvips does the pixel work of an analysis on its own worker threads. On a busy host those
// threads and the event loop's thread are runnable at the same time, and every wake-up of a worker
// can preempt the event loop mid-request. The workers therefore run at a lower CPU priority
// (nice +10): the event loop is scheduled first, and the workers still have every idle cycle.
// Linux only (nice is per thread there, and raising it needs no privilege); elsewhere, or when the
// kernel refuses, nothing changes.
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

export const WORKER_NICE = 10;
const TASKS = '/proc/self/task';
const LIBVIPS_WORKER = /^libvips/;

const settled = new Set<string>();
const supported = process.platform === 'linux';

/**
 * Gives libvips threads not seen before the lower priority. libvips keeps its threads for reuse,
 * so after the first analyses this is one directory listing of the process's threads.
 */
export function lowerLibvipsWorkerPriority(): void {
  if (!supported) return;
  let tids: string[];
  try {
    tids = readdirSync(TASKS);
  } catch {
    return;
  }
  for (const tid of tids) {
    if (settled.has(tid)) continue;
    settled.add(tid);
    try {
      if (!LIBVIPS_WORKER.test(readFileSync(`${TASKS}/${tid}/comm`, 'utf8'))) continue;
      const id = Number(tid);
      if (getPriority(id) < WORKER_NICE) setPriority(id, WORKER_NICE);
    } catch {
      // The thread ended meanwhile, or the kernel refused: it keeps its priority.
    }
  }
}
