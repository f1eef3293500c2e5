// The catalog routes and template dielines. Registered twice: at the root (public) and inside the
// /v1 context (key gated), so both surfaces answer from this one module, byte for byte.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FULL_LISTING_BYTES, getTemplate, isCategoryId, listTemplates } from '../catalog/index.js';
import { badRequest, MESSAGES, notFound } from '../errors.js';
import type { FastAnswer } from '../lib/fast-path.js';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams, EmptyQuery } from '../schemas/common.js';
import { DielineResponse, TemplateDielineQuery } from '../schemas/dielines.js';
import { TemplateListQuery, TemplateListReply, TemplateReply } from '../schemas/templates.js';
import { KEYED_DIELINE_CACHE, PUBLIC_DIELINE_CACHE, sendDieline } from './dieline-reply.js';
import templateModelRoutes from './template-model.js';

export interface TemplateRoutesOptions {
  /** Extra statuses the surrounding context can answer with (401 and 429 on /v1). */
  contextErrors?: number[];
  security?: Array<Record<string, string[]>>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The unfiltered public listing, pre-encoded: this route's answer to `GET /templates`, which the
 * HTTP server also gives from its fast path (src/lib/fast-path.ts) without entering Fastify.
 */
export const CATALOG_ANSWER: FastAnswer = { path: '/templates', contentType: JSON_TYPE, body: FULL_LISTING_BYTES };

const templateRoutes: FastifyPluginAsyncTypebox<TemplateRoutesOptions> = async (app, options) => {
  const contextErrors = options.contextErrors ?? [];
  const security = options.security ?? [];
  // Behind a credential, shared caches must not keep (and hand out) the answer.
  const dielineCache = security.length > 0 ? KEYED_DIELINE_CACHE : PUBLIC_DIELINE_CACHE;

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
    // Synchronous on purpose: the unfiltered listing is the hottest route and needs no promise.
    (request, reply) => {
      const { category, q } = request.query;
      if (category === undefined && q === undefined) {
        // Pre-encoded bytes: a Buffer payload bypasses the serializer and any re-encoding, so the
        // cast only tells the type provider what those bytes contain.
        reply.type(CATALOG_ANSWER.contentType).send(CATALOG_ANSWER.body as never);
        return;
      }
      if (category !== undefined && !isCategoryId(category)) throw badRequest(MESSAGES.unknownCategory(category));
      reply.send(listTemplates({ category, q }));
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

  app.get(
    '/:id/dieline',
    {
      schema: {
        tags: ['templates'],
        summary: 'Generate the flat dieline of a box template as JSON, SVG, PDF, DXF or CF2',
        description:
          "Dimensions default to the template's defaultDimensions, thicknessMm to a typical board for the " +
          'material (or for the style), bleedMm to 3 and format to json. Container templates have no dieline ' +
          '(400). A size or caliper the style cannot be built at is a 400 naming the parameter.',
        security,
        params: IdParams,
        querystring: TemplateDielineQuery,
        response: { 200: DielineResponse, 304: NotModified, ...errorResponses(400, 404, ...contextErrors) },
      },
    },
    async function templateDieline(request, reply) {
      const dieline = await app.services.dielines.forTemplate(request.params.id, request.query);
      return sendDieline(request, reply, dieline, dielineCache);
    },
  );

  await app.register(templateModelRoutes, { contextErrors, security });
};

export default templateRoutes;
