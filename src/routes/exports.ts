// Exports as jobs: POST /projects/:id/exports, GET /exports/:id, GET /exports. Registered for the
// editor (JWT) and inside /v1 (developer key); the handlers are the same, only the surrounding
// guard (and with it the documented security) and the Location prefix differ.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, IdempotencyKeyHeaders, IdParams } from '../schemas/common.js';
import { CREATE_EXPORT_DOCUMENT, CreateExportBody, ExportListQuery, ExportListReply, ExportReply } from '../schemas/exports.js';
import type { ExportFormat } from '../services/export-render.js';
import { routeDefaults } from './route-defaults.js';

export interface ExportRoutesOptions {
  /** Where the routes are mounted, for Location ('' or '/v1'). */
  basePath: string;
}

/** POST /projects/:id/exports, under /projects (or /v1/projects). */
export const projectExportRoutes: FastifyPluginAsyncTypebox<ExportRoutesOptions> = async (app, options) => {
  routeDefaults(app, 'exports');

  app.post(
    '/:id/exports',
    {
      schema: {
        summary: 'Export the project as it is now (its current version), rendered as a job',
        description:
          'Answers 202 at once with the queued export and its Location; poll it (or register a webhook) until it has succeeded or ' +
          'failed. With an Idempotency-Key the same request within 24 h answers 200 with the same export; the key with another body or ' +
          'project is a 409.',
        params: IdParams,
        headers: IdempotencyKeyHeaders,
        body: CreateExportBody,
        'x-openapi': CREATE_EXPORT_DOCUMENT,
        response: { 200: ExportReply, 202: ExportReply, ...errorResponses(400, 401, 404, 409, 413, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      const { export: created, created: isNew } = await app.services.exports.create(
        request.userId,
        request.params.id,
        { format: request.body.format as ExportFormat, ...(request.body.options ? { options: request.body.options } : {}) },
        request.headers['idempotency-key'],
        options.basePath,
      );
      if (isNew) await app.jobs.enqueue(created.id);
      void reply.header('location', `${options.basePath}/exports/${created.id}`);
      return reply.code(isNew ? 202 : 200).send({ export: created });
    },
  );
};

/** GET /exports and GET /exports/:id, under /exports (or /v1/exports). */
export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'exports');

  app.get(
    '/',
    {
      schema: {
        summary: "List the account's exports, newest first, optionally of one project",
        querystring: ExportListQuery,
        response: { 200: ExportListReply, ...errorResponses(400, 401) },
      },
    },
    async (request) => app.services.exports.list(request.userId, request.query),
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'Read one export: its status, error, and download URL once it has succeeded',
        params: IdParams,
        response: { 200: ExportReply, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const found = await app.services.exports.get(request.userId, request.params.id);
      return reply.header('cache-control', 'no-store').send({ export: found });
    },
  );
};
