// bcrypt, always through its asynchronous API so hashing runs on libuv's pool, not the event loop.
import { availableParallelism } from 'node:os';
import bcrypt from 'bcrypt';
import { createLimiter } from './concurrency.js';
import { hasLoneSurrogate } from './text.js';

export const PASSWORD_MIN_BYTES = 8;
/** bcrypt reads at most 72 bytes; longer passwords are refused rather than silently cut. */
export const PASSWORD_MAX_BYTES = 72;

export type PasswordProblem = 'too-short' | 'too-long' | 'nul-byte' | 'malformed';

export function checkPassword(password: string): PasswordProblem | null {
  const bytes = Buffer.byteLength(password, 'utf8');
  if (bytes < PASSWORD_MIN_BYTES) return 'too-short';
  if (bytes > PASSWORD_MAX_BYTES) return 'too-long';
  // The C implementation stops reading at NUL, so "a\0b" and "a\0c" would hash alike.
  if (password.includes('\0')) return 'nul-byte';
  // Unpaired surrogates would be hashed as U+FFFD, so two different inputs would match.
  if (hasLoneSurrogate(password)) return 'malformed';
  return null;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** Spends the same time as a real verify, for logins with an unknown email. */
  verifyAgainstDummy(password: string): Promise<false>;
  /** Hashes running and waiting for a slot (for metrics). */
  queue(): { running: number; waiting: number };
}

/**
 * bcrypt runs on libuv's thread pool (4 threads): on a 2-core machine four hashes at once would
 * starve the event loop's own thread. One core is left for the event loop.
 */
export const BCRYPT_CONCURRENCY = Math.max(1, availableParallelism() - 1);

export function createPasswordHasher(cost: number, concurrency = BCRYPT_CONCURRENCY): PasswordHasher {
  const limit = createLimiter(concurrency);
  // A hash of the same cost as real ones, or the timing of unknown emails would differ.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= limit(() => bcrypt.hash('dummy-password-for-timing', cost)));
  return {
    hash: (password) => limit(() => bcrypt.hash(password, cost)),
    verify: (password, hash) => limit(() => bcrypt.compare(password, hash)),
    async verifyAgainstDummy(password) {
      const hash = await dummy();
      await limit(() => bcrypt.compare(password, hash));
      return false;
    },
    queue: limit.stats,
  };
}
