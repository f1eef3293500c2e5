// The account's fonts, which outline the text of its SVG artwork. @fastify/multipart is registered
// in this context only; the token (or key) is checked in onRequest, before any part of the body is
// read. Font bytes are never served back.
import { createHash } from 'node:crypto';
import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError, MESSAGES } from '../errors.js';
import { EmptyQuery, errorResponses } from '../schemas/common.js';
import { FontListReply, FontParams, FontReply, toFontDto } from '../schemas/fonts.js';
import { FONT_MESSAGES, MAX_FONT_BYTES } from '../services/fonts.js';
import type { KeyedRouteOptions } from './context-options.js';
import { replayIfRepeated } from '../plugins/idempotency.js';

const FILE_FIELD = 'file';
const security = [{ bearerAuth: [] }];

// Multipart bypasses Fastify's bodyLimit: every parser limit is explicit.
const MULTIPART_LIMITS = {
  fileSize: MAX_FONT_BYTES,
  files: 1,
  fields: 4,
  parts: 5,
  fieldNameSize: 100,
  fieldSize: 1024,
  headerPairs: 8,
};

const fontRoutes: FastifyPluginAsyncTypebox<KeyedRouteOptions> = async (app, options) => {
  app.addHook('onRequest', options.guard ?? app.authenticate);
  await app.register(fastifyMultipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });

  app.post(
    '/',
    {
      config: { idempotent: 'handler' },
      schema: {
        tags: ['fonts'],
        summary: 'Upload a font (multipart/form-data, one file part named "file": TrueType, OpenType or WOFF2, at most 20 MB)',
        operationId: 'uploadFont',
        consumes: ['multipart/form-data'],
        security,
        querystring: EmptyQuery,
        description:
          'The type is read from the bytes (the declared type is ignored); a WOFF2 is stored decompressed. Family, style and weight come ' +
          "from the font's name and OS/2 tables. SVG text naming the family in its font-family is outlined with it in print files, " +
          'previews, thumbnails and 3D textures. Not a font → 415 "Unsupported font file."; a collection (TTC) or a font without a ' +
          'family name → 422 with the reason. Nothing is stored on failure.',
        response: { 201: FontReply, ...errorResponses(400, 401, 413, 415, 422) },
      },
    },
    async function uploadFont(request, reply) {
      const { bytes, filename, type } = await receiveOneFont(request);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (await replayIfRepeated(request, reply, { file: { sha256, filename, type } })) return reply;
      const font = await app.services.fonts.upload(request.userId, bytes);
      return reply.code(201).send({ font: toFontDto(font) });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['fonts'],
        summary: "The account's fonts (newest first) and the families the service ships",
        operationId: 'listFonts',
        security,
        querystring: EmptyQuery,
        response: { 200: FontListReply, ...errorResponses(400, 401) },
      },
    },
    async function listFonts(request) {
      const fonts = await app.services.fonts.list(request.userId);
      return { fonts: fonts.map(toFontDto), bundled: app.services.fonts.bundled() };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['fonts'],
        summary: 'Delete a font',
        description:
          'SVG text that names the family (and no later available one) ' +
          'then gets FONT_MISSING at the next preflight, and print answers 409.',
        operationId: 'deleteFont',
        security,
        params: FontParams,
        querystring: EmptyQuery,
        response: { 204: Type.Null({ description: 'Deleted; the body is empty.' }), ...errorResponses(400, 401, 404) },
      },
    },
    async function deleteFont(request, reply) {
      await app.services.fonts.remove(request.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

/** Reads the whole multipart body: exactly one file part named "file" and nothing else. */
async function receiveOneFont(request: FastifyRequest): Promise<{ bytes: Buffer; filename: string; type: string }> {
  let received: Buffer | undefined;
  let filename = '';
  let type = '';
  let strayField = false;
  for await (const part of partsOf(request)) {
    if (part.type === 'field') {
      if (received) throw badRequest(MESSAGES.onlyOneFilePart);
      strayField = true;
      continue;
    }
    if (part.fieldname !== FILE_FIELD || received || strayField) {
      part.file.destroy();
      throw badRequest(MESSAGES.onlyOneFilePart);
    }
    ({ filename, mimetype: type } = part);
    try {
      received = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, FONT_MESSAGES.tooLarge);
      throw error;
    }
  }
  if (!received) throw badRequest(MESSAGES.noFileUploaded);
  return { bytes: received, filename, type };
}

/** request.parts(), with busboy's own failures (which carry no status) turned into a 400. */
async function* partsOf(request: FastifyRequest): AsyncGenerator<Multipart> {
  const parts = request.parts();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (error) {
      const { statusCode, code } = error as { statusCode?: unknown; code?: unknown };
      if (code === 'FST_INVALID_JSON_FIELD_ERROR') throw badRequest(MESSAGES.onlyOneFilePart);
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, FONT_MESSAGES.tooLarge);
      if (typeof statusCode === 'number') throw error;
      throw badRequest(MESSAGES.malformedMultipart);
    }
    if (next.done) return;
    yield next.value;
  }
}

export default fontRoutes;
