// Developer keys: the key itself and its SHA-256 digest (the lookup). The key is also stored sealed
// (secret-sealer.ts), so the list route can show it again.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PATTERN = /^pf_[0-9a-f]{48}$/;

const KEY_BYTES = 24;

/** `pf_` + 48 lower-case hex characters from a cryptographic random source. */
export function generateApiKey(): string {
  return `pf_${randomBytes(KEY_BYTES).toString('hex')}`;
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** SHA-256 of the key, lower-case hex: what the database indexes and looks up. */
export function digestApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Constant-time equality of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
