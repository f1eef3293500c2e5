// Admission to the print pool's work (print files, previews, 3D textures, sheet layouts): at most
// PRINT_CONCURRENCY jobs at a time per process with PRINT_QUEUE waiting, and one account's jobs one
// at a time; beyond either the caller gets a 503 and Retry-After.
import { HttpError, MESSAGES } from '../errors.js';
import { createLimiter } from '../lib/concurrency.js';

export const PRINT_CONCURRENCY = 2;
export const PRINT_QUEUE = 4;
/** Jobs of one account waiting behind its running one; beyond that the account gets a 503. */
export const PRINT_PER_ACCOUNT_QUEUE = 2;

export function createPrintAdmission() {
  const limit = createLimiter(PRINT_CONCURRENCY);
  let inFlight = 0;
  const accounts = new Map<string, { limit: ReturnType<typeof createLimiter>; inFlight: number }>();

  /**
   * Runs task when its turn comes. One account renders one job at a time (its next ones wait, at
   * most PRINT_PER_ACCOUNT_QUEUE), so a costly design holds one render child, never all of them,
   * and other accounts keep the rest. userId null: work that renders nothing (preflight) is not
   * held behind the account's render.
   */
  async function admit<T>(userId: string | null, task: () => Promise<T>): Promise<T> {
    const account = userId === null ? null : (accounts.get(userId) ?? { limit: createLimiter(1), inFlight: 0 });
    if (inFlight >= PRINT_CONCURRENCY + PRINT_QUEUE || (account && account.inFlight > PRINT_PER_ACCOUNT_QUEUE)) {
      throw new HttpError(503, MESSAGES.printBusy);
    }
    if (account) {
      accounts.set(userId!, account);
      account.inFlight++;
    }
    inFlight++;
    try {
      return await (account ? account.limit(() => limit(task)) : limit(task));
    } finally {
      inFlight--;
      if (account && --account.inFlight === 0) accounts.delete(userId!);
    }
  }

  return { admit };
}

export type PrintAdmission = ReturnType<typeof createPrintAdmission>;
