// One access-log line per request, written by Fastify's own request logging (its log controller's
// "request completed", after the onResponse hooks) in place of its two lines: method, route
// template (never the raw URL, whose query may carry a share token), status, response time in
// milliseconds, the client's address; the request id (reqId) and any other bindings come from the
// request's pino child. Fastify's other lines (e.g. stream errors) stay.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { UNMATCHED_ROUTE } from './metrics.js';

export const ACCESS_LOG_MESSAGE = 'request completed';

export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(_error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const fields = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
      // The client's address (the proxy's forwarded one only from TRUST_PROXY addresses).
      remoteAddress: request.ip,
    };
    reply.log.info(fields, ACCESS_LOG_MESSAGE);
  }
}
