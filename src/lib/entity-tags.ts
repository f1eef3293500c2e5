// Entity tags (RFC 9110 §8.8.3): the strong tags the service makes, the tests of If-None-Match
// (weak comparison) and If-Match (strong comparison, §13.1.1), and the 304 answer.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A strong ETag of a body: 27 base64url characters of its SHA-256. */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** If-None-Match uses the weak comparison (§13.1.2): W/ prefixes are ignored. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/** The validator and caching headers of a 200, which its 304 carries too (§15.4.5). */
export type CachingHeaders = { etag: string } & Record<string, string>;

/**
 * When the request's If-None-Match names headers.etag, answers 304 with those headers and no body
 * and returns true. Otherwise sets nothing: the caller answers, with the same headers.
 */
export function replyIfNotModified(request: FastifyRequest, reply: FastifyReply, headers: CachingHeaders): boolean {
  if (!matchesEtag(request.headers['if-none-match'], headers.etag)) return false;
  // No payload at all: null would be serialized as JSON "null" (with a Content-Length).
  void reply.code(304).headers(headers).send();
  return true;
}

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
