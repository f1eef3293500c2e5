// Public access to stored uploads and their thumbnails under their unguessable names. Only a name
// of a stored form (an asset's name, or its thumbnail's) that is also in the assets table is ever
// opened, and the client's path never reaches the disk.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FILE_OPERATION, FileBytes, FileParams, NotModified } from '../schemas/assets.js';
import { EmptyQuery, errorResponses } from '../schemas/common.js';
import { replyIfNotModified } from '../lib/entity-tags.js';
import type { StoredFile } from '../repositories/assets.js';

/**
 * No script, plugin, form or navigation can run from a served document (an SVG upload, a dieline or
 * an export opened directly in a browser).
 */
export const SANDBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
export const FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Strong: a stored file never changes, and its name is never reused. */
export const etagOf = (file: StoredFile) => `"${file.name}-${file.sizeBytes}"`;

const fileHeaders = (etag: string) => ({
  etag,
  'cache-control': FILE_CACHE_CONTROL,
  'x-content-type-options': 'nosniff',
  // Every stored type, not only SVG, in case a browser renders a file as a document.
  'content-security-policy': SANDBOX_CSP,
});

const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/:name',
    schema: {
      tags: ['files'],
      summary: 'Fetch a stored upload, or its WebP thumbnail, by its name',
      params: FileParams,
      querystring: EmptyQuery,
      response: { 200: FileBytes, 304: NotModified, ...errorResponses(400, 404, 503) },
      'x-openapi': FILE_OPERATION,
    },
    handler: async function serveFile(request, reply) {
      const { assets } = app.services;
      const file = await assets.findFile(request.params.name);
      const etag = etagOf(file);
      if (replyIfNotModified(request, reply, fileHeaders(etag))) return reply;
      // Headers go on only once the bytes are known to exist: a 404 must not be cached for a year.
      const body = request.method === 'HEAD' ? null : await assets.openFile(file);
      const size = body ? body.size : (await assets.statFile(file)).size;
      reply.headers(fileHeaders(etag)).type(file.mimeType).header('content-length', size);
      // A stream is sent as is, unserialized; the cast only tells the type provider so.
      return reply.send(body?.stream as never);
    },
  });
};

export default fileRoutes;
