// Admission to the print pool's work (print files, previews, preflights, 3D textures, sheet
// layouts): one account's jobs one at a time, at most RENDER_ACCOUNT_QUEUE of them waiting
// behind its running one; beyond that the caller gets a 503 and Retry-After. How the accounts share
// the render children is the pool's business (src/render/pool.ts: one render per account at a
// time, the accounts in turn), so there is no cap across accounts here that one account could fill.
import { MESSAGES } from '../errors.js';
import { createLimiter } from '../lib/concurrency.js';
import { RenderError } from '../render/errors.js';

/** accountQueue: jobs of one account waiting behind its running one (RENDER_ACCOUNT_QUEUE); beyond that a 503. */
export function createPrintAdmission(accountQueue: number) {
  const accounts = new Map<string, { limit: ReturnType<typeof createLimiter>; inFlight: number }>();

  /**
   * Runs task when the account's turn comes, so a costly design holds one render child at a time,
   * and the files its job reads are in memory once per account.
   */
  async function admit<T>(userId: string, task: () => Promise<T>): Promise<T> {
    const account = accounts.get(userId) ?? { limit: createLimiter(1), inFlight: 0 };
    if (account.inFlight > accountQueue) throw new RenderError('busy', MESSAGES.printBusy);
    accounts.set(userId, account);
    account.inFlight++;
    try {
      return await account.limit(task);
    } finally {
      if (--account.inFlight === 0) accounts.delete(userId);
    }
  }

  return { admit };
}

export type PrintAdmission = ReturnType<typeof createPrintAdmission>;
