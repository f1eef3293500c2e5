// Text checks shared by the services.
import { badRequest } from '../errors.js';

/** With the u flag a valid surrogate pair is one code point, so \p{Cs} matches only lone halves. */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when the string holds no NUL and no unpaired surrogate (neither survives PostgreSQL text). */
export function isStorableText(value: string): boolean {
  return !value.includes('\0') && !LONE_SURROGATE.test(value);
}

export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/** The name trimmed; a 400 unless it is 1 to maxLength code points (as PostgreSQL counts varchar) of storable text. */
export function normalizeName(raw: string, maxLength: number): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length < 1 || length > maxLength) throw badRequest(`name must be 1 to ${maxLength} characters long after trimming.`);
  // PostgreSQL text cannot hold NUL, and a lone surrogate would be stored as U+FFFD.
  if (!isStorableText(name)) throw badRequest('name must not contain NUL or unpaired surrogate characters.');
  return name;
}
