// GET /exports/:id/download: the file of a succeeded export, for whoever holds its signed link
// (no other credential). A link that is not this service's is a 404; a link past its expiry, or
// whose export has been removed, is a 410.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError, notFound } from '../errors.js';
import { SANDBOX_CSP } from './files.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { DownloadQuery, DownloadResponse } from '../schemas/exports.js';
import { EXPORT_MESSAGES } from '../services/exports.js';

const exportDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/download',
    {
      schema: {
        tags: ['exports'],
        summary: "Download an export's file through the signed link in its downloadUrl",
        params: IdParams,
        querystring: DownloadQuery,
        response: { 200: DownloadResponse, ...errorResponses(400, 404, 410, 503) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { expires, signature } = request.query;
      if (!app.services.downloadLinks.verify(id, expires, signature)) throw notFound(EXPORT_MESSAGES.notFound);
      const now = new Date();
      const gone = new HttpError(410, EXPORT_MESSAGES.expired);
      if (expires * 1000 <= now.getTime()) throw gone;
      const row = await app.services.exports.downloadable(id, now);
      if (!row?.fileName) throw gone;
      const file = await app.services.storage.open(row.fileName);
      if (!file) throw gone;
      const name = (row.downloadName ?? row.fileName).replace(/[^\w.-]/g, '_');
      return reply
        .headers({
          'content-type': row.contentType ?? 'application/octet-stream',
          'content-length': file.size,
          'content-disposition': `attachment; filename="${name}"`,
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
          'content-security-policy': SANDBOX_CSP,
        })
        .send(file.stream as never);
    },
  );
};

export default exportDownloadRoutes;
