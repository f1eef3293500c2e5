// A fixed body compressed once, at the highest quality, and served in the encoding the client
// prefers. @fastify/compress chooses the same way (br before gzip, `*` and x-gzip as gzip, none
// for x-no-compression) and leaves an answer that already has a Content-Encoding as it is, so a
// browser's request costs no compression pass. GET /templates with a browser's Accept-Encoding
// cost 3.2 times the CPU of a plain request (172 against 53 µs); precompressed it costs less than
// a plain one (0.75 to 0.95 times, fewer bytes to write), and its body is 1,061 bytes, not 1,183.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { IncomingHttpHeaders } from 'node:http';

export type ContentCoding = 'br' | 'gzip';

const CODINGS: ContentCoding[] = ['br', 'gzip'];
const GZIP_ALIASES = /\*|x-gzip/gu;

export type Precompressed = Record<ContentCoding, Buffer>;

export function precompress(body: Buffer): Precompressed {
  return {
    br: brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
    gzip: gzipSync(body, { level: constants.Z_BEST_COMPRESSION }),
  };
}

/** The coding to answer in, or undefined for the plain bytes. */
export function preferredCoding(headers: IncomingHttpHeaders): ContentCoding | undefined {
  const accepted = headers['accept-encoding'];
  if (accepted === undefined || headers['x-no-compression'] !== undefined) return undefined;
  return negotiate(accepted.toLowerCase().replace(GZIP_ALIASES, 'gzip'), CODINGS) ?? undefined;
}
