// The catalog routes and template dielines. Registered twice: at the root (public) and inside the
// /v1 context (key gated), so both surfaces answer from this one module, byte for byte.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FULL_LISTING_BYTES, getTemplate, isCategoryId, listTemplates } from '../catalog/index.js';
import { badRequest, MESSAGES, notFound } from '../errors.js';
import { replyIfNotModified, strongEtag } from '../lib/entity-tags.js';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams, EmptyQuery } from '../schemas/common.js';
import { DielineResponse, TemplateDielineQuery } from '../schemas/dielines.js';
import { TemplateListQuery, TemplateListReply, TemplateReply } from '../schemas/templates.js';
import type { TemplateRoutesOptions } from './context-options.js';
import { KEYED_DIELINE_CACHE, PUBLIC_DIELINE_CACHE, sendDieline } from './dieline-reply.js';
import templateModelRoutes from './template-model.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The catalog changes only with a deployment: caches keep it five minutes and may serve it stale for a day while they revalidate. */
export const PUBLIC_CATALOG_CACHE = 'public, max-age=300, stale-while-revalidate=86400';
/** Same, behind a developer key: only the client's own cache. */
export const KEYED_CATALOG_CACHE = 'private, max-age=300, stale-while-revalidate=86400';

const FULL_LISTING_ETAG = strongEtag(FULL_LISTING_BYTES);

const templateRoutes: FastifyPluginAsyncTypebox<TemplateRoutesOptions> = async (app, options) => {
  const contextErrors = options.contextErrors ?? [];
  const security = options.security ?? [];
  // Behind a credential, shared caches must not keep (and hand out) the answer.
  const dielineCache = security.length > 0 ? KEYED_DIELINE_CACHE : PUBLIC_DIELINE_CACHE;
  const catalogCache = security.length > 0 ? KEYED_CATALOG_CACHE : PUBLIC_CATALOG_CACHE;
  const fullListingCaching = { etag: FULL_LISTING_ETAG, 'cache-control': catalogCache };

  app.get(
    '/',
    {
      schema: {
        tags: ['templates'],
        summary: 'List the template catalog, optionally filtered by category and search text',
        security,
        querystring: TemplateListQuery,
        response: { 200: TemplateListReply, 304: NotModified, ...errorResponses(400, ...contextErrors) },
      },
    },
    // Synchronous on purpose: the unfiltered listing is the hottest route and needs no promise.
    (request, reply) => {
      const { category, q } = request.query;
      let body = FULL_LISTING_BYTES;
      let caching = fullListingCaching;
      if (category !== undefined || q !== undefined) {
        if (category !== undefined && !isCategoryId(category)) throw badRequest(MESSAGES.unknownCategory(category));
        body = Buffer.from(JSON.stringify(listTemplates({ category, q })), 'utf8');
        caching = { etag: strongEtag(body), 'cache-control': catalogCache };
      }
      if (replyIfNotModified(request, reply, caching)) return;
      // Encoded bytes: a Buffer payload bypasses the serializer, so the cast only tells the type
      // provider what those bytes contain.
      reply.headers(caching).type(JSON_TYPE).send(body as never);
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
        summary: "Generate the flat dieline of a box template, or a container's print layout, as JSON, SVG, PDF, DXF or CF2",
        description:
          "Dimensions default to the template's defaultDimensions, thicknessMm to a typical board for the " +
          'material (or for the style), bleedMm to 3 and format to json. Containers answer their print layout ' +
          '(wrap-around label or shrink sleeve, can band, tube laminate, pouch web; thicknessMm does not apply) ' +
          'and take labelStyle, overlapMm, fitMm and seamMm where they apply; elsewhere those are a 400. ' +
          "dielineAvailable on the template stays false for containers: they have no folding blank. " +
          'A size or caliper the style cannot be built at is a 400 naming the parameter.',
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
