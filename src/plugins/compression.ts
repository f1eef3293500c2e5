// Compressed answers for clients that accept them (`br`, else `gzip`): the service's JSON, the
// viewer's page and script, and binary glTF models. Images, PDFs, ZIPs and other formats that are
// compressed already go out as they are. Brotli at a middle quality: a 700 KB script compresses in
// tens of milliseconds rather than seconds.
import compress from '@fastify/compress';
import fp from 'fastify-plugin';
import { constants } from 'node:zlib';

export const COMPRESSED_TYPES = /^(?:text\/|application\/(?:[a-z.+-]*\+)?(?:json|javascript)|model\/gltf-binary)/;

export default fp(async (app) => {
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: COMPRESSED_TYPES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
}, { name: 'compression' });
