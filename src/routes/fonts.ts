// The account's fonts, which outline the text of its SVG artwork (one-file-upload.ts reads the
// body); the token (or key) is checked in onRequest, before any part of the body is read. Font
// bytes are never served back.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../schemas/common.js';
import { FontListReply, FontParams, FontReply, toFontDto } from '../schemas/fonts.js';
import { FONT_MESSAGES, MAX_FONT_BYTES } from '../services/fonts.js';
import { replayIfRepeated } from '../plugins/idempotency.js';
import { acceptOneFile, receiveOneFile } from './one-file-upload.js';
import { routeDefaults } from './route-defaults.js';

const fontRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'fonts');
  await acceptOneFile(app, MAX_FONT_BYTES);

  app.post(
    '/',
    {
      config: { idempotent: 'handler' },
      schema: {
        summary: 'Upload a font (multipart/form-data, one file part named "file": TrueType, OpenType or WOFF2, at most 20 MB)',
        operationId: 'uploadFont',
        consumes: ['multipart/form-data'],
        description:
          'The type is read from the bytes (the declared type is ignored); a WOFF2 is stored decompressed. Family, style and weight come ' +
          "from the font's name and OS/2 tables. SVG text naming the family in its font-family is outlined with it in print files, " +
          'previews, thumbnails and 3D textures. Not a font → 415 "Unsupported font file."; a collection (TTC) or a font without a ' +
          'family name → 422 with the reason. Nothing is stored on failure.',
        response: { 201: FontReply, ...errorResponses(400, 401, 413, 415, 422) },
      },
    },
    async function uploadFont(request, reply) {
      const { received: bytes, filename, type } = await receiveOneFile(request, {
        receive: (part) => part.toBuffer(),
        tooLarge: FONT_MESSAGES.tooLarge,
      });
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
        summary: "The account's fonts (newest first) and the families the service ships",
        operationId: 'listFonts',
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
        summary: 'Delete a font',
        description:
          'SVG text that names the family (and no later available one) ' +
          'then gets FONT_MISSING at the next preflight, and print answers 409.',
        operationId: 'deleteFont',
        params: FontParams,
        response: { 204: Type.Null({ description: 'Deleted; the body is empty.' }), ...errorResponses(400, 401, 404) },
      },
    },
    async function deleteFont(request, reply) {
      await app.services.fonts.remove(request.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default fontRoutes;
