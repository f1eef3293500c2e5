// Waiting work shared fairly by account (the render pools, the mockup pages): one queue per
// account, the accounts in a line. next() takes the head of the first account in line that has
// nothing running and sends that account to the back of the line.

export function createFairQueue<T>(accountOf: (item: T) => string, ageOf: (item: T) => number) {
  const accounts = new Map<string, T[]>();
  let size = 0;
  return {
    push(item: T): void {
      const queue = accounts.get(accountOf(item));
      if (queue) queue.push(item);
      else accounts.set(accountOf(item), [item]);
      size++;
    },
    next(running: ReadonlySet<string>): T | undefined {
      for (const [account, queue] of accounts) {
        if (running.has(account)) continue;
        const item = queue.shift()!;
        accounts.delete(account);
        if (queue.length > 0) accounts.set(account, queue);
        size--;
        return item;
      }
      return undefined;
    },
    /** Sends account to the back of the line (its work just ran). */
    requeue(account: string): void {
      const queue = accounts.get(account);
      if (!queue) return;
      accounts.delete(account);
      accounts.set(account, queue);
    },
    /** The item waiting longest (lowest age), whoever's it is. */
    takeOldest(): T | undefined {
      let oldest: T | undefined;
      for (const queue of accounts.values()) if (!oldest || ageOf(queue[0]!) < ageOf(oldest)) oldest = queue[0];
      if (oldest !== undefined) this.remove(oldest);
      return oldest;
    },
    /** Items that could start now: one per account with nothing running. */
    runnable(running: ReadonlySet<string>): number {
      let count = 0;
      for (const account of accounts.keys()) if (!running.has(account)) count++;
      return count;
    },
    remove(item: T): boolean {
      const queue = accounts.get(accountOf(item));
      const index = queue ? queue.indexOf(item) : -1;
      if (index < 0) return false;
      queue!.splice(index, 1);
      if (queue!.length === 0) accounts.delete(accountOf(item));
      size--;
      return true;
    },
    count: (account: string) => accounts.get(account)?.length ?? 0,
    size: () => size,
    drain(): T[] {
      const all = [...accounts.values()].flat();
      accounts.clear();
      size = 0;
      return all;
    },
  };
}
