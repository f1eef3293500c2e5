// Entity tags in conditional request headers (RFC 9110 §8.8.3, §13.1.1): parsing an If-Match
// value and the strong comparison it uses. Pure; knows nothing of any framework.

export interface EntityTag {
  weak: boolean;
  /** The opaque tag with its double quotes, e.g. "\"3\"". */
  opaque: string;
}

/** "*" (any current representation) or the listed tags. */
export type EntityTagCondition = { any: true } | { any: false; tags: EntityTag[] };

// etagc = %x21 / %x23-7E / obs-text (%x80-FF): any visible character but the double quote.
const ETAG_CHARACTER = /^[\x21\x23-\x7e\x80-\xff]*$/;
const isWhitespace = (character: string | undefined) => character === ' ' || character === '\t';

/**
 * Parses `"*" / 1#entity-tag` (a comma-separated list; empty elements and optional whitespace
 * allowed, as §5.6.1 asks of recipients). Null when the value does not follow the grammar. A comma
 * inside a quoted tag belongs to the tag.
 */
export function parseEntityTagCondition(value: string): EntityTagCondition | null {
  if (value.trim() === '*') return { any: true };
  const tags: EntityTag[] = [];
  let index = 0;
  for (;;) {
    while (index < value.length && (isWhitespace(value[index]) || value[index] === ',')) index++;
    if (index >= value.length) break;
    const weak = value.startsWith('W/', index);
    if (weak) index += 2;
    if (value[index] !== '"') return null;
    const close = value.indexOf('"', index + 1);
    if (close < 0) return null;
    const opaque = value.slice(index, close + 1);
    if (!ETAG_CHARACTER.test(opaque.slice(1, -1))) return null;
    tags.push({ weak, opaque });
    index = close + 1;
    while (isWhitespace(value[index])) index++;
    if (index < value.length && value[index] !== ',') return null;
  }
  return tags.length > 0 ? { any: false, tags } : null;
}

/**
 * If-Match's test (§13.1.1): "*" matches any current representation; otherwise one listed tag
 * must be strongly equal to the current strong ETag (a weak tag never matches).
 */
export function ifMatchAccepts(condition: EntityTagCondition, currentEtag: string): boolean {
  return condition.any || condition.tags.some((tag) => !tag.weak && tag.opaque === currentEtag);
}
