// A counting semaphore: at most `limit` tasks run at once, the rest wait in arrival order.
export function createLimiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  }
  /** Tasks running now and waiting for a slot (for metrics). */
  const stats = () => ({ running, waiting: waiting.length });
  return Object.assign(run, { stats });
}
