// Redacts credentials from log objects when a line is written. (pino's own `redact` option also
// runs on every child logger's bindings, i.e. on every request, even when nothing is logged.)

export const REDACTED = '[redacted]';

const SECRET_KEYS = new Set(['authorization', 'x-api-key', 'cookie', 'set-cookie', 'password', 'passwordhash', 'token']);
const MAX_DEPTH = 6;

// Every line is checked, and its keys are nearly always the same few names written in the code:
// the verdict is remembered per name instead of lower-casing each key of each line. Bounded, since
// a logged object may carry names a client chose (header names).
const MAX_REMEMBERED_KEYS = 1024;
const keyVerdicts = new Map<string, boolean>();

function isSecretKey(key: string): boolean {
  let verdict = keyVerdicts.get(key);
  if (verdict === undefined) {
    verdict = SECRET_KEYS.has(key.toLowerCase());
    if (keyVerdicts.size < MAX_REMEMBERED_KEYS) keyVerdicts.set(key, verdict);
  }
  return verdict;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * Returns the object unchanged when it holds no secret; otherwise a copy in which every value under
 * a secret key (at any depth of plain objects and arrays) is replaced. Never mutates its input.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const redacted = redactSecrets(item, depth + 1);
      if (redacted !== item) (copy ??= [...value])[index] = redacted;
    });
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const original = value[key];
    const redacted = isSecretKey(key) ? REDACTED : typeof original === 'object' && original !== null ? redactSecrets(original, depth + 1) : original;
    if (redacted !== original) (copy ??= { ...value })[key] = redacted;
  }
  return (copy ?? value) as T;
}
