// The one error path: every failure leaves as an ApiError { statusCode, error, message } with a
// request id. Thrown errors (HttpErrors, validation, Fastify's own) and unknown routes answer here;
// so do a URL the router cannot take (answerRoutingError, Fastify's frameworkErrors) and what
// Node's HTTP server and Fastify would otherwise write themselves: a request while the app closes
// (503 with Retry-After; one still sending its body when the close starts is answered so too,
// within the grace period), an HTTP/1.1 request without Host (400), an Expect other than
// 100-continue (417), and bytes the HTTP parser refuses (answerClientError: a control byte in a
// header, an oversized head: 400/431, or 408 for a request that took too long).
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiError, DatabaseUnavailableError, forbidden, HttpError, MESSAGES, StorageUnavailableError, type ApiError } from '../errors.js';
import { isDatabaseUnreachable } from '../db/errors.js';
import { drainRequest, DRAIN_MAX_MS, hasUnreadBody } from '../lib/drain-request.js';
import { generateRequestId } from './request-id.js';

export const FRAMEWORK_MESSAGES = {
  closing: 'The service is shutting down; retry in a few seconds.',
  hostRequired: 'The Host header is required.',
  expectation: 'Only "Expect: 100-continue" is supported.',
  malformed: 'The request is not valid HTTP.',
  headersTooLarge: 'The request headers are too large.',
  tooSlow: 'The request took too long to arrive.',
} as const;

/**
 * While the app closes, what is left of a body is read for at most this long before the 503: a
 * client sending slowly gets its answer well within the grace period (SHUTDOWN_GRACE_MS).
 */
const CLOSING_DRAIN_MS = 500;

/** The server options these answers need: Node's own empty 400 for a missing Host is off. */
export const FRAMEWORK_HTTP_OPTIONS = { requireHostHeader: false };

const JSON_TYPE = 'application/json; charset=utf-8';

const { unsupportedContentType } = MESSAGES;
const MEDIA_TYPE_ERRORS = new Set(['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'FST_ERR_CTP_INVALID_TYPE', 'FST_ERR_CTP_EMPTY_TYPE']);

/** Fastify and plugin errors whose own text is not what a client should read. */
const FRAMEWORK_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: MESSAGES.bodyTooLarge },
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
  // A malformed percent-encoding or an over-long path parameter cannot name a resource that exists.
  FST_ERR_BAD_URL: { status: 404, message: 'The URL is malformed.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, message: 'A path parameter is too long.' },
};

function toApiError(error: FastifyError | Error): ApiError {
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

/**
 * The answer to an error, for this request: a route that documents other body types
 * (`schema.consumes`, e.g. multipart uploads) names those in its 415 instead of JSON.
 */
function toApiErrorFor(request: FastifyRequest, error: FastifyError): ApiError {
  const consumes = (request.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes;
  if (consumes?.length && MEDIA_TYPE_ERRORS.has(error.code)) return apiError(415, unsupportedContentType(consumes));
  return toApiError(error);
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

const apiKey: Guard = (request, reply) =>
  new Promise((resolve, reject) => request.server.requireApiKey(request, reply, (error?: Error) => (error ? reject(error) : resolve())));
const account: Guard = (request) => request.server.authenticate(request);
const administrator: Guard = async (request) => {
  await request.server.authenticate(request);
  if (request.account?.role !== 'admin') throw forbidden(MESSAGES.adminRequired);
};

/**
 * The credential every route under the prefix requires. A URL the router cannot take there is
 * refused only once the credential passes: a bad key or token is 401 whatever is wrong with the URL.
 */
const GUARDED_PREFIXES: ReadonlyArray<readonly [string, Guard]> = [
  ['/v1', apiKey],
  ['/admin', administrator],
  ['/projects', account],
  ['/assets', account],
  ['/api-keys', account],
];

function guardOf(url: string): Guard | undefined {
  for (const [prefix, guard] of GUARDED_PREFIXES) {
    const next = url[prefix.length];
    if (url.startsWith(prefix) && (next === undefined || next === '/' || next === '?')) return guard;
  }
  return undefined;
}

async function routingRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<ApiError> {
  try {
    await guardOf(request.url)?.(request, reply);
  } catch (failure) {
    return toApiError(failure as Error);
  }
  const known = FRAMEWORK_ERRORS[error.code];
  return known ? apiError(known.status, known.message) : apiError(400, 'The request could not be routed.');
}

/** Fastify's frameworkErrors: the router refused the URL before any route or hook ran. */
export function answerRoutingError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void routingRefusal(error, request, reply).then((body) => {
    if (body.statusCode === 503) void reply.header('retry-after', '5');
    void reply.code(body.statusCode).header('x-request-id', request.id).send(body);
  });
}

function parserRefusal(code: string | undefined): { status: number; message: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: FRAMEWORK_MESSAGES.tooSlow };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: FRAMEWORK_MESSAGES.headersTooLarge };
  return { status: 400, message: FRAMEWORK_MESSAGES.malformed };
}

/**
 * Fastify's clientErrorHandler: the parser gave up on the bytes, so there is no request object.
 * A whole HTTP response is written on the socket, which is then closed.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = parserRefusal(error.code);
  const requestId = randomUUID();
  this.log.info({ reqId: requestId, statusCode: status, code: error.code }, 'request refused by the HTTP parser');
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(apiError(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  // The client may never close its side: do not keep the socket past a short grace.
  setTimeout(() => socket.destroy(), 2_000).unref();
}

function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify(apiError(417, FRAMEWORK_MESSAGES.expectation));
  // The client waits for a 100 before sending its body: nothing of it is on the way, and the
  // connection is not reused.
  response.shouldKeepAlive = false;
  response.writeHead(417, {
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(body),
    'x-request-id': generateRequestId(request),
  });
  response.end(body);
}

async function errorsPlugin(app: FastifyInstance) {
  let closing = false;
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const body = toApiErrorFor(request, error);
    // An early answer (401 before the body is read, 413 at a size limit, 415 for a part's type, a
    // closing 503): read the rest of the body first, whatever its type, so a client or proxy still
    // sending it receives this answer and not a reset (closing a socket with unread bytes makes
    // the kernel reset it; Node's fetch reports EPIPE, nginx 502). Fastify's body parser marks
    // every error of its own `connection: close`: once the body has been read to its end, the
    // connection is kept as Node would keep it. Past the drain's bounds, it is closed.
    const parserError = typeof error.code === 'string' && error.code.startsWith('FST_ERR_CTP_');
    if (await drainRequest(request.raw, closing ? CLOSING_DRAIN_MS : DRAIN_MAX_MS)) {
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

  // Requests whose body is still arriving. Half way through the grace period after the close
  // starts (an upload that arrives by then completes as usual), each whose body is being read (a
  // reader listens for its errors: a body parser, multipart's) is failed with the closing 503, so
  // a slow upload is answered and ends instead of holding the close until the grace timer; one
  // whose body nobody reads yet is failed as soon as someone does (checked every 50 ms).
  const receiving = new Set<IncomingMessage>();
  const refuseArrivingBodies = () => {
    for (const raw of receiving) {
      if (!hasUnreadBody(raw)) receiving.delete(raw);
      else if (raw.listenerCount('error') > 0) {
        receiving.delete(raw);
        raw.emit('error', new HttpError(503, FRAMEWORK_MESSAGES.closing));
      }
    }
  };
  let refusing: NodeJS.Timeout | undefined;
  let refusingFrom: NodeJS.Timeout | undefined;
  app.server.on('checkExpectation', answerExpectation);
  app.addHook('preClose', (done) => {
    closing = true;
    refusingFrom = setTimeout(() => {
      refuseArrivingBodies();
      refusing = setInterval(refuseArrivingBodies, 50).unref();
    }, app.config.shutdownGraceMs / 2).unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearTimeout(refusingFrom);
    clearInterval(refusing);
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing && hasUnreadBody(request.raw)) {
      const raw = request.raw;
      receiving.add(raw);
      raw.once('close', () => receiving.delete(raw));
    }
    if (closing) {
      // Steer the client to another instance: this connection ends with the answer.
      reply.header('connection', 'close');
      return done(new HttpError(503, FRAMEWORK_MESSAGES.closing));
    }
    // HTTP/1.1 requires Host (RFC 9112 §3.2); HTTP/1.0 may omit it.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return done(new HttpError(400, FRAMEWORK_MESSAGES.hostRequired));
    }
    // The key is checked before anything else under /v1, unknown paths included: 401 without one.
    if (request.is404 && guardOf(request.url) === apiKey) return request.server.requireApiKey(request, reply, done);
    done();
  });
}

export default fp(errorsPlugin, { name: 'errors', dependencies: ['request-id'] });
