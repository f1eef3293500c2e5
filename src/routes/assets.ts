// Image uploads of the signed-in account (one-file-upload.ts reads the body); the token is checked
// in onRequest, before any part of the body is read.
import { ListPageQuery } from '../schemas/paging.js';
import { pageWhenAsked } from './list-paging.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AssetListReply, AssetParams, AssetReply, toAssetDto, UPLOAD_OPERATION } from '../schemas/assets.js';
import { errorResponses } from '../schemas/common.js';
import { replayIfRepeated } from '../plugins/idempotency.js';
import { signalOnClientGone } from '../render/index.js';
import { MAX_UPLOAD_BYTES } from '../services/assets.js';
import { acceptOneFile, receiveOneFile } from './one-file-upload.js';
import { routeDefaults } from './route-defaults.js';

const assetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'assets');
  await acceptOneFile(app, MAX_UPLOAD_BYTES);

  app.post(
    '/',
    {
      config: { idempotent: 'handler' },
      schema: {
        summary: 'Upload an image (multipart/form-data, one file part named "file", at most 25 MB)',
        operationId: 'uploadAsset',
        consumes: ['multipart/form-data'],
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
      const { received, filename, type } = await receiveOneFile(request, {
        receive: (part) => app.services.assets.receive({ filename: part.filename, declaredType: part.mimetype, stream: part.file }),
        discard: (file) => file.discard(),
      });
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
        summary: "List the account's uploads, newest first",
        querystring: ListPageQuery,
        response: { 200: AssetListReply, ...errorResponses(400, 401) },
      },
    },
    async function listAssets(request) {
      const assets = await app.services.assets.list(request.userId);
      const { items, ...next } = pageWhenAsked(assets, request.query, () => app.services.listCursors('assets', request.userId));
      return { assets: items.map((asset) => toAssetDto(asset, app.config.publicBaseUrl)), total: assets.length, ...next };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'One of the account\'s uploads',
        params: AssetParams,
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
        summary: 'Delete an upload: its row, its file and its thumbnail',
        description:
          'The row goes first, together with a record of its files; the files are removed right after, or by the next start-up if the ' +
          'process stops in between. A project that still places the image keeps its URL, which then answers 404.',
        params: AssetParams,
        response: { 204: Type.Null({ description: 'Deleted; the body is empty.' }), ...errorResponses(400, 401, 404) },
      },
    },
    async function deleteAsset(request, reply) {
      await app.services.assets.remove(request.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default assetRoutes;
