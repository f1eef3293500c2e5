// At most `slots` tasks at once, shared fairly by account, as the render pools share their
// children (src/render/pool.ts): an account has at most one task running; its other tasks wait in
// its own queue (at most `accountQueue`), and a free slot takes the next task of the next account
// in line that has nothing running (round robin; an account whose task ends goes to the back of
// the line). Across accounts at most `queue` tasks wait, except an account's only task (one with
// nothing running or waiting), which always gets its turn. Beyond either, run() throws busy().

export interface FairLimiterOptions {
  slots: number;
  queue: number;
  accountQueue: number;
  /** The error a task refused at once is rejected with. */
  busy: () => Error;
}

export function createFairLimiter(options: FairLimiterOptions) {
  const running = new Set<string>();
  /** Waiting starts by account, in line order (a Map keeps insertion order). */
  const line = new Map<string, Array<() => void>>();
  let waiting = 0;

  /** Moves account to the back of the line. */
  const requeue = (account: string) => {
    const queue = line.get(account);
    if (!queue) return;
    line.delete(account);
    line.set(account, queue);
  };

  function startNext(): void {
    if (running.size >= options.slots) return;
    for (const [account, queue] of line) {
      if (running.has(account)) continue;
      const start = queue.shift()!;
      line.delete(account);
      if (queue.length > 0) line.set(account, queue);
      waiting--;
      running.add(account);
      start();
      return;
    }
  }

  async function run<T>(account: string, task: () => Promise<T>): Promise<T> {
    const own = line.get(account)?.length ?? 0;
    const alone = own === 0 && !running.has(account);
    if (own >= options.accountQueue || (!alone && waiting >= options.queue)) throw options.busy();
    if (running.size < options.slots && !running.has(account)) running.add(account);
    else {
      await new Promise<void>((resolve) => {
        const queue = line.get(account);
        if (queue) queue.push(resolve);
        else line.set(account, [resolve]);
        waiting++;
      });
    }
    try {
      return await task();
    } finally {
      running.delete(account);
      requeue(account);
      startNext();
    }
  }

  /** Tasks running now and waiting for a slot (for metrics and tests). */
  const stats = () => ({ running: running.size, waiting });
  return Object.assign(run, { stats });
}
