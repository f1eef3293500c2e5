// Sends a rendered 3D model with its caching headers, or a 304 when If-None-Match names it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag } from '../lib/http-caching.js';
import type { RenderedModel } from '../services/models.js';

// undefined, not null: null would be serialized as JSON "null" (with a Content-Length) on a 304.
const NO_BODY = undefined as never;

export function sendModel(request: FastifyRequest, reply: FastifyReply, model: RenderedModel, cacheControl: string): FastifyReply {
  void reply.headers({ etag: model.etag, 'cache-control': cacheControl, 'x-content-type-options': 'nosniff' });
  if (matchesEtag(request.headers['if-none-match'], model.etag)) return reply.code(304).send(NO_BODY);
  void reply.header('content-disposition', `inline; filename="${model.fileName}"`);
  return reply.type(model.contentType).send(model.body as never);
}
