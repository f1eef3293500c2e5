// Text checks shared by the services.

/** With the u flag a valid surrogate pair is one code point, so \p{Cs} matches only lone halves. */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when the string holds no NUL and no unpaired surrogate (neither survives PostgreSQL text). */
export function isStorableText(value: string): boolean {
  return !value.includes('\0') && !LONE_SURROGATE.test(value);
}

export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}
