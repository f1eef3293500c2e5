// Sends a rendered 3D model with its caching headers, or a 304 when If-None-Match names it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RenderedModel } from '../services/models.js';
import { notModified } from './dieline-reply.js';

export function sendModel(request: FastifyRequest, reply: FastifyReply, model: RenderedModel, cacheControl: string): FastifyReply {
  if (notModified(request, reply, model.etag, cacheControl)) return reply;
  void reply.header('content-disposition', `inline; filename="${model.fileName}"`);
  return reply.type(model.contentType).send(model.body as never);
}
