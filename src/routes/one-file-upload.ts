// The multipart body of an upload route (assets, fonts): exactly one file part named "file" and
// nothing else. @fastify/multipart is registered in the route's context only, so no other route
// accepts multipart bodies.
import fastifyMultipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, HttpError, MESSAGES } from '../errors.js';

const FILE_FIELD = 'file';

/** Multipart bypasses Fastify's bodyLimit: every parser limit is explicit. */
export async function acceptOneFile(app: FastifyInstance, maxBytes: number): Promise<void> {
  const limits = { fileSize: maxBytes, files: 1, fields: 4, parts: 5, fieldNameSize: 100, fieldSize: 1024, headerPairs: 8 };
  await app.register(fastifyMultipart, { limits, throwFileSizeLimit: true });
}

interface Receiving<T> {
  /** Takes the file part's bytes. */
  receive: (part: MultipartFile) => Promise<T>;
  /** Drops what was received when the body turns out to break the rule. */
  discard?: (received: T) => Promise<void>;
  /** The 413's message when the file is over the parser's limit; without it the error handler's. */
  tooLarge?: string;
}

/**
 * Reads the whole multipart body. Anything after the file part still has to be read before the
 * upload counts, and a violation discards what was received. A body without any file part is "No
 * file was uploaded." whatever text fields it carries; with a file part, any other part is refused.
 */
export async function receiveOneFile<T>(
  request: FastifyRequest,
  { receive, discard, tooLarge }: Receiving<T>,
): Promise<{ received: T; filename: string; type: string }> {
  let received: T | undefined;
  let filename = '';
  let type = '';
  let strayField = false;
  try {
    for await (const part of partsOf(request, tooLarge)) {
      if (part.type === 'field') {
        // Before any file part, whether one follows decides the answer: read on.
        if (received !== undefined) throw badRequest(MESSAGES.onlyOneFilePart);
        strayField = true;
        continue;
      }
      if (part.fieldname !== FILE_FIELD || received !== undefined || strayField) {
        part.file.destroy();
        throw badRequest(MESSAGES.onlyOneFilePart);
      }
      ({ filename, mimetype: type } = part);
      received = await receive(part).catch((error: unknown) => {
        throw tooLargeAs(error, tooLarge);
      });
    }
  } catch (error) {
    if (received !== undefined) await discard?.(received);
    throw error;
  }
  if (received === undefined) throw badRequest(MESSAGES.noFileUploaded);
  return { received, filename, type };
}

const tooLargeAs = (error: unknown, message: string | undefined) =>
  message !== undefined && (error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE' ? new HttpError(413, message) : error;

/**
 * request.parts(), with busboy's own failures (which carry no status) turned into a 400, and a
 * field declared as JSON that does not parse (which the plugin answers with 406) into the 400
 * any field gets.
 */
async function* partsOf(request: FastifyRequest, tooLarge: string | undefined): AsyncGenerator<Multipart> {
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
      if (typeof statusCode === 'number') throw tooLargeAs(error, tooLarge);
      throw badRequest(MESSAGES.malformedMultipart);
    }
    if (next.done) return;
    yield next.value;
  }
}
