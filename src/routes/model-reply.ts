// Sends a rendered 3D model with its caching headers, or a 304 when If-None-Match names it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { replyIfNotModified } from '../lib/entity-tags.js';
import type { RenderedModel } from '../services/models.js';

export function sendModel(request: FastifyRequest, reply: FastifyReply, model: RenderedModel, cacheControl: string): FastifyReply {
  const caching = { etag: model.etag, 'cache-control': cacheControl, 'x-content-type-options': 'nosniff' };
  if (replyIfNotModified(request, reply, caching)) return reply;
  void reply.headers(caching).header('content-disposition', `inline; filename="${model.fileName}"`);
  return reply.type(model.contentType).send(model.body as never);
}
