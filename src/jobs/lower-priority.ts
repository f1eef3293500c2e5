// Imported first by src/worker.ts: the worker process runs at a lower CPU priority (nice +10) from
// its first thread on, so every thread it starts later (libvips, libuv's pool) inherits it. On a
// machine shared with a web process, renders then take only the cycles the web process leaves;
// on a machine of its own the worker still has every cycle. Linux only; elsewhere nothing changes.
import { getPriority, setPriority } from 'node:os';
import { WORKER_NICE } from '../lib/worker-priority.js';

try {
  if (getPriority() < WORKER_NICE) setPriority(WORKER_NICE);
} catch {
  // The kernel refused: the worker keeps its priority.
}
