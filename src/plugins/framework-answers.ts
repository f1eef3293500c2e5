// The answers Node's HTTP server and Fastify would otherwise write themselves, as ApiErrors with a
// request id: a request while the app closes (503 with Retry-After), an HTTP/1.1 request without
// Host (400), an Expect other than 100-continue (417), and a request the HTTP parser refuses
// (a control byte in a header, an oversized head: 400/431, or 408 for one that took too long).
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../errors.js';
import { apiError } from './error-handler.js';
import { generateRequestId } from './request-id.js';

export const FRAMEWORK_MESSAGES = {
  closing: 'The service is shutting down; retry in a few seconds.',
  hostRequired: 'The Host header is required.',
  expectation: 'Only "Expect: 100-continue" is supported.',
  malformed: 'The request is not valid HTTP.',
  headersTooLarge: 'The request headers are too large.',
  tooSlow: 'The request took too long to arrive.',
} as const;

/** The server options these answers need: Node's own empty 400 for a missing Host is off. */
export const FRAMEWORK_HTTP_OPTIONS = { requireHostHeader: false };

const JSON_TYPE = 'application/json; charset=utf-8';

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

async function frameworkAnswersPlugin(app: FastifyInstance) {
  let closing = false;
  app.server.on('checkExpectation', answerExpectation);
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      // Steer the client to another instance: this connection ends with the answer.
      reply.header('connection', 'close');
      return done(new HttpError(503, FRAMEWORK_MESSAGES.closing));
    }
    // HTTP/1.1 requires Host (RFC 9112 §3.2); HTTP/1.0 may omit it.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return done(new HttpError(400, FRAMEWORK_MESSAGES.hostRequired));
    }
    done();
  });
}

export default fp(frameworkAnswersPlugin, { name: 'framework-answers', dependencies: ['request-id'] });
