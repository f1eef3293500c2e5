// The one error path: every failure leaves as { statusCode, error, message } and nothing more.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DatabaseUnavailableError, HttpError, MESSAGES, StorageUnavailableError } from '../errors.js';
import { isDatabaseUnreachable } from '../db/errors.js';
import { drainRequest } from '../lib/drain-request.js';

export interface ApiError {
  statusCode: number;
  error: string;
  message: string;
}

export function apiError(statusCode: number, message: string): ApiError {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** The 415 for a body of another type (or none declared): names what the route reads. */
export function unsupportedContentType(expected: readonly string[]): string {
  return `Unsupported Content-Type for this route: send the body as ${expected.join(' or ')}.`;
}
const MEDIA_TYPE_ERRORS = new Set(['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'FST_ERR_CTP_INVALID_TYPE', 'FST_ERR_CTP_EMPTY_TYPE']);

/**
 * The answer to an error, for this request: a route that documents other body types
 * (`schema.consumes`, e.g. multipart uploads) names those in its 415 instead of JSON.
 */
function toApiErrorFor(request: FastifyRequest, error: FastifyError): ApiError {
  const consumes = (request.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes;
  if (consumes?.length && MEDIA_TYPE_ERRORS.has(error.code)) return apiError(415, unsupportedContentType(consumes));
  return toApiError(error);
}

/** Fastify and plugin errors whose own text is not what a client should read. */
const FRAMEWORK_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is larger than 1 MiB.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: unsupportedContentType(['application/json']) },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, message: unsupportedContentType(['application/json']) },
  FST_ERR_CTP_EMPTY_TYPE: { status: 415, message: unsupportedContentType(['application/json']) },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: MESSAGES.malformedJson },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: MESSAGES.malformedJson },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Content-Length does not match the body.' },
  FST_ERR_CTP_INSTANCE_ALREADY_STARTED: { status: 500, message: MESSAGES.internal },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: 'File is larger than 25 MB (26,214,400 bytes).' },
  FST_FILES_LIMIT: { status: 400, message: 'Only one file part named "file" may be sent.' },
  FST_PARTS_LIMIT: { status: 400, message: 'Too many multipart parts.' },
  FST_FIELDS_LIMIT: { status: 400, message: 'Too many multipart fields.' },
  FST_PROTO_VIOLATION: { status: 400, message: 'Multipart part name is not allowed.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: 'Request must be multipart/form-data.' },
  FST_NO_FORM_DATA: { status: 400, message: MESSAGES.noFileUploaded },
};

export function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof HttpError) return apiError(error.statusCode, error.message);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return apiError(400, error.message);
  // First: its cause is a network error that would also look like an unreachable database.
  if (error instanceof StorageUnavailableError) return apiError(503, MESSAGES.storageUnavailable);
  if (error instanceof DatabaseUnavailableError || isDatabaseUnreachable(error)) {
    return apiError(503, MESSAGES.databaseUnavailable);
  }
  const code = fastifyError.code;
  if (code) {
    const known = FRAMEWORK_ERRORS[code];
    if (known) return apiError(known.status, known.message);
    if (code.startsWith('FST_JWT_') || code.startsWith('FAST_JWT_')) return apiError(401, MESSAGES.invalidToken);
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return apiError(status, error.message);
  return apiError(500, MESSAGES.internal);
}

async function errorHandlerPlugin(app: FastifyInstance) {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const body = toApiErrorFor(request, error);
    // An early answer (401 before the body is read, 413 at a size limit, 415 for a part's type, a
    // closing 503): read the rest of the body first, whatever its type, so a client or proxy still
    // sending it receives this answer and not a reset (closing a socket with unread bytes makes
    // the kernel reset it; Node's fetch reports EPIPE, nginx 502). Fastify's body parser marks
    // every error of its own `connection: close`: once the body has been read to its end, the
    // connection is kept as Node would keep it. Past the drain's bounds, it is closed.
    const parserError = typeof error.code === 'string' && error.code.startsWith('FST_ERR_CTP_');
    if (await drainRequest(request.raw)) {
      if (parserError) reply.header('connection', reply.raw.shouldKeepAlive ? 'keep-alive' : 'close');
    } else {
      reply.header('connection', 'close');
    }
    if (body.statusCode >= 500 && error instanceof HttpError) {
      // A deliberate refusal (a busy print or mockup queue, a closing process): expected under
      // load, so no stack and no error level.
      request.log.warn({ statusCode: body.statusCode, reason: body.message }, 'request refused');
    } else if (body.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ statusCode: body.statusCode, reason: body.message }, 'request rejected');
    }
    // The service recovers by itself once the database answers again: tell clients when to retry.
    const retryAfter = error instanceof HttpError ? error.retryAfterSeconds : undefined;
    if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
    else if (body.statusCode === 503) void reply.header('retry-after', '5');
    return reply.code(body.statusCode).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0];
    return reply.code(404).send(apiError(404, `Route ${request.method} ${path} not found.`));
  });
}

export default fp(errorHandlerPlugin, { name: 'error-handler' });
