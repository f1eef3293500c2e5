// The catalog routes. Registered twice: at the root (public) and inside the /v1 context (key
// gated), so both surfaces answer from this one module, byte for byte.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FULL_LISTING_JSON, getTemplate, isCategoryId, listTemplates } from '../catalog/index.js';
import { badRequest, MESSAGES, notFound } from '../errors.js';
import { errorResponses, IdParams, EmptyQuery } from '../schemas/common.js';
import { TemplateListQuery, TemplateListReply, TemplateReply } from '../schemas/templates.js';

export interface TemplateRoutesOptions {
  /** Extra statuses the surrounding context can answer with (401 and 429 on /v1). */
  contextErrors?: number[];
  security?: Array<Record<string, string[]>>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const templateRoutes: FastifyPluginAsyncTypebox<TemplateRoutesOptions> = async (app, options) => {
  const contextErrors = options.contextErrors ?? [];
  const security = options.security ?? [];

  app.get(
    '/',
    {
      schema: {
        tags: ['templates'],
        summary: 'List the template catalog, optionally filtered by category and search text',
        security,
        querystring: TemplateListQuery,
        response: { 200: TemplateListReply, ...errorResponses(400, ...contextErrors) },
      },
    },
    async (request, reply) => {
      const { category, q } = request.query;
      if (category === undefined && q === undefined) {
        // Pre-serialized bytes: a string payload with a content type bypasses the serializer,
        // so the cast only tells the type provider what those bytes contain.
        return reply.type(JSON_TYPE).send(FULL_LISTING_JSON as never);
      }
      if (category !== undefined && !isCategoryId(category)) throw badRequest(MESSAGES.unknownCategory(category));
      return listTemplates({ category, q });
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['templates'],
        summary: 'Read one template',
        security,
        params: IdParams,
        querystring: EmptyQuery,
        response: { 200: TemplateReply, ...errorResponses(400, 404, ...contextErrors) },
      },
    },
    async (request) => {
      const template = getTemplate(request.params.id);
      if (!template) throw notFound(MESSAGES.templateNotFound(request.params.id));
      return { template };
    },
  );
};

export default templateRoutes;
