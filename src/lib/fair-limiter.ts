// At most `slots` tasks at once, shared fairly by account, as the render pools share their
// children (src/render/pool.ts): an account has at most one task running; its other tasks wait in
// its own queue (at most `accountQueue`), and a free slot takes the next task of the next account
// in line that has nothing running (round robin, fair-queue.ts; an account whose task ends goes to
// the back of the line). Across accounts at most `queue` tasks wait, except an account's only task
// (one with nothing running or waiting), which always gets its turn. Beyond either, run() throws busy().
import { createFairQueue } from './fair-queue.js';

export interface FairLimiterOptions {
  slots: number;
  queue: number;
  accountQueue: number;
  /** The error a task refused at once is rejected with. */
  busy: () => Error;
}

interface Start {
  account: string;
  sequence: number;
  go(): void;
}

export function createFairLimiter(options: FairLimiterOptions) {
  const running = new Set<string>();
  const line = createFairQueue<Start>((start) => start.account, (start) => start.sequence);
  let sequence = 0;

  function startNext(): void {
    if (running.size >= options.slots) return;
    const start = line.next(running);
    if (!start) return;
    running.add(start.account);
    start.go();
  }

  async function run<T>(account: string, task: () => Promise<T>): Promise<T> {
    const own = line.count(account);
    const alone = own === 0 && !running.has(account);
    if (own >= options.accountQueue || (!alone && line.size() >= options.queue)) throw options.busy();
    if (running.size < options.slots && !running.has(account)) running.add(account);
    else await new Promise<void>((go) => line.push({ account, sequence: sequence++, go }));
    try {
      return await task();
    } finally {
      running.delete(account);
      line.requeue(account);
      startNext();
    }
  }

  /** Tasks running now and waiting for a slot (for metrics and tests). */
  const stats = () => ({ running: running.size, waiting: line.size() });
  return Object.assign(run, { stats });
}
