// Image uploads of the signed-in account. @fastify/multipart is registered in this context only,
// so no other route accepts multipart bodies; the token is checked in onRequest, before any
// part of the body is read.
import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import { ListPageQuery } from '../schemas/paging.js';
import { pageWhenAsked } from './list-paging.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { KeyedRouteOptions } from './context-options.js';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { badRequest, MESSAGES } from '../errors.js';
import { AssetListReply, AssetParams, AssetReply, toAssetDto, UPLOAD_OPERATION } from '../schemas/assets.js';
import { EmptyQuery, errorResponses } from '../schemas/common.js';
import { replayIfRepeated } from '../plugins/idempotency.js';
import { signalOnClientGone } from '../render/index.js';
import { MAX_UPLOAD_BYTES, type AssetService, type ReceivedFile } from '../services/assets.js';

const FILE_FIELD = 'file';
const security = [{ bearerAuth: [] }];

// Multipart bypasses Fastify's bodyLimit: every parser limit is explicit.
const MULTIPART_LIMITS = {
  fileSize: MAX_UPLOAD_BYTES,
  files: 1,
  fields: 4,
  parts: 5,
  fieldNameSize: 100,
  fieldSize: 1024,
  headerPairs: 8,
};

const assetRoutes: FastifyPluginAsyncTypebox<KeyedRouteOptions> = async (app, options) => {
  app.addHook('onRequest', options.guard ?? app.authenticate);
  await app.register(fastifyMultipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });

  app.post(
    '/',
    {
      config: { idempotent: 'handler' },
      schema: {
        tags: ['assets'],
        summary: 'Upload an image (multipart/form-data, one file part named "file", at most 25 MB)',
        operationId: 'uploadAsset',
        consumes: ['multipart/form-data'],
        security,
        querystring: EmptyQuery,
        description:
          'The image is streamed to storage, then read back: its pixel size, recorded resolution, colour space, transparency and SHA-256 ' +
          'are recorded and a WebP thumbnail is made. A header declaring more than 100 megapixels → 413 before any pixel is decoded; a ' +
          'truncated or corrupt image → 400; an SVG too costly to render (docs/rendering.md: elements after `use` expansion, filter ' +
          'cost) → 422; an analysis past its deadline → 503 with Retry-After. Either way nothing is stored.',
        response: { 201: AssetReply, ...errorResponses(400, 401, 413, 415, 422, 503) },
        'x-openapi': UPLOAD_OPERATION,
      },
    },
    // A rejected upload's answer waits until the rest of its body is read (the error handler's drain).
    async function uploadAsset(request, reply) {
      const { received, filename, type } = await receiveOneFile(request, app.services.assets);
      if (await replayIfRepeated(request, reply, { file: { sha256: received.sha256, filename, type } })) {
        await received.discard();
        return reply;
      }
      const asset = await received.save(request.userId, signalOnClientGone(reply.raw));
      app.metrics.uploadBytes.inc(asset.sizeBytes);
      return reply.code(201).send({ asset: toAssetDto(asset, app.config.publicBaseUrl) });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['assets'],
        summary: "List the account's uploads, newest first",
        security,
        querystring: ListPageQuery,
        response: { 200: AssetListReply, ...errorResponses(400, 401) },
      },
    },
    async function listAssets(request) {
      const assets = await app.services.assets.list(request.userId);
      const { items, nextCursor } = pageWhenAsked(
        assets,
        request.query,
        () => app.services.listCursors('assets', request.userId),
        (asset) => asset,
      );
      const page = { assets: items.map((asset) => toAssetDto(asset, app.config.publicBaseUrl)), total: assets.length };
      return nextCursor === undefined ? page : { ...page, nextCursor };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['assets'],
        summary: 'One of the account\'s uploads',
        security,
        params: AssetParams,
        querystring: EmptyQuery,
        response: { 200: AssetReply, ...errorResponses(400, 401, 404) },
      },
    },
    async function getAsset(request) {
      const asset = await app.services.assets.get(request.userId, request.params.id);
      return { asset: toAssetDto(asset, app.config.publicBaseUrl) };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['assets'],
        summary: 'Delete an upload: its row, its file and its thumbnail',
        description:
          'The row goes first, together with a record of its files; the files are removed right after, or by the next start-up if the ' +
          'process stops in between. A project that still places the image keeps its URL, which then answers 404.',
        security,
        params: AssetParams,
        querystring: EmptyQuery,
        response: { 204: Type.Null({ description: 'Deleted; the body is empty.' }), ...errorResponses(400, 401, 404) },
      },
    },
    async function deleteAsset(request, reply) {
      await app.services.assets.remove(request.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};


/**
 * Reads the whole multipart body: exactly one file part named "file" and nothing else. The file
 * is streamed to storage as it arrives; anything after it still has to be read before the upload
 * counts, and a violation discards what was received. A body without any file part is "No file
 * was uploaded." whatever text fields it carries; with a file part, any other part is refused.
 */
async function receiveOneFile(
  request: FastifyRequest,
  assets: AssetService,
): Promise<{ received: ReceivedFile; filename: string; type: string }> {
  let received: ReceivedFile | undefined;
  let filename = '';
  let type = '';
  let strayField = false;
  try {
    for await (const part of partsOf(request)) {
      if (part.type === 'field') {
        // Before any file part, whether one follows decides the answer: read on.
        if (received) throw badRequest(MESSAGES.onlyOneFilePart);
        strayField = true;
        continue;
      }
      if (part.fieldname !== FILE_FIELD || received || strayField) {
        part.file.destroy();
        throw badRequest(MESSAGES.onlyOneFilePart);
      }
      ({ filename, mimetype: type } = part);
      received = await assets.receive({ filename, declaredType: type, stream: part.file });
    }
  } catch (error) {
    await received?.discard();
    throw error;
  }
  if (!received) throw badRequest(MESSAGES.noFileUploaded);
  return { received, filename, type };
}

/**
 * request.parts(), with busboy's own failures (which carry no status) turned into a 400, and a
 * field declared as JSON that does not parse (which the plugin answers with 406) into the 400
 * any field gets.
 */
async function* partsOf(request: FastifyRequest): AsyncGenerator<Multipart> {
  const parts = request.parts();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (error) {
      const { statusCode, code } = error as { statusCode?: unknown; code?: unknown };
      // The plugin stops at a JSON field that does not parse, before anything after it can be
      // seen: a malformed stray part, answered as one.
      if (code === 'FST_INVALID_JSON_FIELD_ERROR') throw badRequest(MESSAGES.onlyOneFilePart);
      if (typeof statusCode === 'number') throw error;
      throw badRequest(MESSAGES.malformedMultipart);
    }
    if (next.done) return;
    yield next.value;
  }
}

export default assetRoutes;
