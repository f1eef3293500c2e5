// bcrypt, always through its asynchronous API so hashing runs on libuv's pool, not the event loop.
import bcrypt from 'bcrypt';
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
}

export function createPasswordHasher(cost: number): PasswordHasher {
  // A hash of the same cost as real ones, or the timing of unknown emails would differ.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= bcrypt.hash('dummy-password-for-timing', cost));
  return {
    hash: (password) => bcrypt.hash(password, cost),
    verify: (password, hash) => bcrypt.compare(password, hash),
    async verifyAgainstDummy(password) {
      await bcrypt.compare(password, await dummy());
      return false;
    },
  };
}
