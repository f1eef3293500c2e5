// Sends a rendered dieline with its caching and safety headers, or a 304 when the client's
// If-None-Match already names it; the 304-or-caching-headers step serves every rendered reply.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOWNLOAD_FORMATS } from '../dielines/index.js';
import type { RenderedDielineReply } from '../services/dielines.js';
import { replyIfNotModified } from '../lib/entity-tags.js';
import { SANDBOX_CSP } from './files.js';

/** The output is a pure function of the URL: a shared cache may keep it for a day. */
export const PUBLIC_DIELINE_CACHE = 'public, max-age=86400';
/** Same, but behind a developer key: only the client's own cache. */
export const KEYED_DIELINE_CACHE = 'private, max-age=86400';
/** A project can change at any time: revalidate every use (a 304 when unchanged). */
export const PROJECT_DIELINE_CACHE = 'private, no-cache';

/**
 * True when the client's copy is current (the 304 is then sent); otherwise sets the caching
 * headers of the reply to come.
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, etag: string, cacheControl: string): boolean {
  const caching = { etag, 'cache-control': cacheControl, 'x-content-type-options': 'nosniff' };
  if (replyIfNotModified(request, reply, caching)) return true;
  void reply.headers(caching);
  return false;
}

export function sendDieline(
  request: FastifyRequest,
  reply: FastifyReply,
  dieline: RenderedDielineReply,
  cacheControl: string,
): FastifyReply {
  if (notModified(request, reply, dieline.etag, cacheControl)) return reply;
  if (dieline.format === 'svg') void reply.header('content-security-policy', SANDBOX_CSP);
  if (dieline.format !== 'json') {
    const disposition = DOWNLOAD_FORMATS.includes(dieline.format) ? 'attachment' : 'inline';
    void reply.header('content-disposition', `${disposition}; filename="${dieline.fileName}"`);
  }
  // Pre-rendered bytes with their content type: Fastify sends strings and Buffers unserialized.
  return reply.type(dieline.contentType).send(dieline.body as never);
}
