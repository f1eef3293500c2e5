// Sends a rendered dieline with its caching and safety headers, or a 304 when the client's
// If-None-Match already names it. Shared by the template and project dieline routes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOWNLOAD_FORMATS } from '../dielines/index.js';
import type { RenderedDielineReply } from '../services/dielines.js';
import { matchesEtag, SANDBOX_CSP } from '../lib/http-caching.js';

/** The output is a pure function of the URL: a shared cache may keep it for a day. */
export const PUBLIC_DIELINE_CACHE = 'public, max-age=86400';
/** Same, but behind a developer key: only the client's own cache. */
export const KEYED_DIELINE_CACHE = 'private, max-age=86400';
/** A project can change at any time: revalidate every use (a 304 when unchanged). */
export const PROJECT_DIELINE_CACHE = 'private, no-cache';

// undefined, not null: null would be serialized as JSON "null" (with a Content-Length) on a 304.
const NO_BODY = undefined as never;

export function sendDieline(
  request: FastifyRequest,
  reply: FastifyReply,
  dieline: RenderedDielineReply,
  cacheControl: string,
): FastifyReply {
  // A 304 carries the headers a 200 would have for caching (RFC 9110 §15.4.5).
  void reply.headers({ etag: dieline.etag, 'cache-control': cacheControl, 'x-content-type-options': 'nosniff' });
  if (matchesEtag(request.headers['if-none-match'], dieline.etag)) return reply.code(304).send(NO_BODY);
  if (dieline.format === 'svg') void reply.header('content-security-policy', SANDBOX_CSP);
  if (dieline.format !== 'json') {
    const disposition = DOWNLOAD_FORMATS.includes(dieline.format) ? 'attachment' : 'inline';
    void reply.header('content-disposition', `${disposition}; filename="${dieline.fileName}"`);
  }
  // Pre-rendered bytes with their content type: Fastify sends strings and Buffers unserialized.
  return reply.type(dieline.contentType).send(dieline.body as never);
}
