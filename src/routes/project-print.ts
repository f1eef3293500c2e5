// /projects/:id/preflight, /print and /preview (extensions §3): JWT, the caller's project only
// (another account's answers like a missing one); the preflight also under /v1 for a key. Each reply carries a strong ETag and
// `Cache-Control: private, no-cache`; print and preview answer a matching If-None-Match with a
// 304 before any rendering.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signalOnClientGone } from '../render/index.js';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { PreflightQuery } from '../schemas/preflight.js';
import { PreflightResponse, PreviewQuery, PreviewResponse, PrintQuery, PrintResponse } from '../schemas/print.js';
import { notModified, PROJECT_DIELINE_CACHE } from './dieline-reply.js';

/** GET /:id/preflight, under /projects (JWT) or /v1/projects (key). */
export const projectPreflightRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/preflight',
    {
      schema: {
        tags: ['projects'],
        summary: 'Check a project for print: missing panels and assets, resolution, bleed, glue areas, material, ink coverage',
        params: IdParams,
        querystring: PreflightQuery,
        response: { 200: PreflightResponse, 304: NotModified, ...errorResponses(400, 401, 404, 503) },
      },
    },
    async (request, reply) => {
      const project = await app.services.projects.get(request.userId, request.params.id);
      const { body, etag } = await app.services.print.preflight(project, request.query, signalOnClientGone(reply.raw));
      if (notModified(request, reply, etag, PROJECT_DIELINE_CACHE)) return reply;
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
};

const projectPrintRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/print',
    {
      schema: {
        tags: ['projects'],
        summary: 'The print-ready PDF of a project: one page per piece, trim and bleed boxes, spot-colour dieline',
        description: 'A project whose preflight has an error finding answers 409.',
        params: IdParams,
        querystring: PrintQuery,
        response: { 200: PrintResponse, 304: NotModified, ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const project = await app.services.projects.get(request.userId, request.params.id);
      const pdf = await app.services.print.print(project, request.query);
      if (notModified(request, reply, pdf.etag, PROJECT_DIELINE_CACHE)) return reply;
      const file = await pdf.render(signalOnClientGone(reply.raw));
      void reply.headers({ 'content-disposition': `attachment; filename="${file.fileName}"`, 'content-length': file.size });
      // A stream: Fastify destroys it (closing the file) when the client goes away before its end.
      return reply.type(file.contentType).send(file.body as never);
    },
  );

  app.get(
    '/:id/preview',
    {
      schema: {
        tags: ['projects'],
        summary: 'A PNG preview of the printed blank with the dieline over it',
        description: 'Images that cannot be read are left out.',
        params: IdParams,
        querystring: PreviewQuery,
        response: { 200: PreviewResponse, 304: NotModified, ...errorResponses(400, 401, 404, 503) },
      },
    },
    async (request, reply) => {
      const project = await app.services.projects.get(request.userId, request.params.id);
      const preview = await app.services.print.preview(project, request.query);
      if (notModified(request, reply, preview.etag, PROJECT_DIELINE_CACHE)) return reply;
      return reply.type('image/png').send((await preview.render(signalOnClientGone(reply.raw))) as never);
    },
  );
};

export default projectPrintRoutes;
