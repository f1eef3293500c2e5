// The catalog routes and template dielines. Registered twice: at the root (public) and inside the
// /v1 context (key gated), so both surfaces answer from this one module, byte for byte.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FULL_LISTING_BYTES, getTemplate, isCategoryId, listTemplates } from '../catalog/index.js';
import { badRequest, MESSAGES, notFound } from '../errors.js';
import { replyIfNotModified, strongEtag } from '../lib/entity-tags.js';
import { precompress, preferredCoding } from '../lib/precompressed.js';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams, EmptyQuery } from '../schemas/common.js';
import { DielineResponse, TemplateDielineQuery } from '../schemas/dielines.js';
import { TemplateListQuery, TemplateListResponse, TemplateReply } from '../schemas/templates.js';
import { KEYED_DIELINE_CACHE, PUBLIC_DIELINE_CACHE, sendDieline } from './dieline-reply.js';
import templateModelRoutes from './template-model.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The catalog changes only with a deployment: caches keep it five minutes and may serve it stale for a day while they revalidate. */
export const PUBLIC_CATALOG_CACHE = 'public, max-age=300, stale-while-revalidate=86400';
/** Same, behind a developer key: only the client's own cache. */
export const KEYED_CATALOG_CACHE = 'private, max-age=300, stale-while-revalidate=86400';

const FULL_LISTING_ETAG = strongEtag(FULL_LISTING_BYTES);
const FULL_LISTING_CODED = precompress(FULL_LISTING_BYTES);

export interface TemplateRoutesOptions {
  /** Registered behind a developer key: shared caches must not keep (and hand out) the answers. */
  behindKey?: boolean;
}

const templateRoutes: FastifyPluginAsyncTypebox<TemplateRoutesOptions> = async (app, options) => {
  const dielineCache = options.behindKey ? KEYED_DIELINE_CACHE : PUBLIC_DIELINE_CACHE;
  const catalogCache = options.behindKey ? KEYED_CATALOG_CACHE : PUBLIC_CATALOG_CACHE;
  // Every answer varies with Accept-Encoding: the full listing is served precompressed, the
  // filtered ones are compressed by @fastify/compress.
  const fullListingCaching = { etag: FULL_LISTING_ETAG, 'cache-control': catalogCache, vary: 'accept-encoding' };

  app.get(
    '/',
    {
      schema: {
        tags: ['templates'],
        summary: 'List the template catalog, optionally filtered by category and search text',
        querystring: TemplateListQuery,
        response: { 200: TemplateListResponse, 304: NotModified, ...errorResponses(400) },
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
        caching = { ...fullListingCaching, etag: strongEtag(body) };
      }
      if (replyIfNotModified(request, reply, caching)) return;
      const coding = body === FULL_LISTING_BYTES ? preferredCoding(request.headers) : undefined;
      if (coding) {
        body = FULL_LISTING_CODED[coding];
        void reply.header('content-encoding', coding);
      }
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
        params: IdParams,
        querystring: EmptyQuery,
        response: { 200: TemplateReply, ...errorResponses(400, 404) },
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
        params: IdParams,
        querystring: TemplateDielineQuery,
        response: { 200: DielineResponse, 304: NotModified, ...errorResponses(400, 404) },
      },
    },
    async function templateDieline(request, reply) {
      const dieline = await app.services.dielines.forTemplate(request.params.id, request.query);
      return sendDieline(request, reply, dieline, dielineCache);
    },
  );

  await app.register(templateModelRoutes, { cacheControl: dielineCache });
};

export default templateRoutes;
