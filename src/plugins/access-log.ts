// One access-log line per request, written when the response has been sent: method, route
// template (never the raw URL, whose query may carry a share token), status, response time in
// milliseconds, the client's address; the request id (reqId) and any other bindings come from the
// request's logger (src/plugins/request-logger.ts). Fastify's own two lines ("incoming request" and
// its "request completed") are off (RequestLinesOff, given to buildApp's Fastify as its logController).
import { LogController, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { UNMATCHED_ROUTE } from './metrics.js';
import { RequestLogger } from './request-logger.js';

/** A pino logger; without a logger (tests pass false) Fastify's stand-in has no isLevelEnabled. */
type LevelAware = { isLevelEnabled?: (level: string) => boolean };

export const ACCESS_LOG_MESSAGE = 'request completed';

/** Fastify's log lines, without its two per-request ones (its other lines, e.g. stream errors, stay). */
export class RequestLinesOff extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(): void {}
}

async function accessLogPlugin(app: FastifyInstance) {
  // Decided once: the level is fixed for the app's life, and a disabled line costs nothing then.
  if (!(app.log as LevelAware).isLevelEnabled?.('info')) return;
  app.addHook('onResponse', (request, reply, done) => {
    const fields = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
      // The client's address (the proxy's forwarded one only from TRUST_PROXY addresses).
      remoteAddress: request.ip,
    };
    if (request.log instanceof RequestLogger) request.log.infoFields(fields, ACCESS_LOG_MESSAGE);
    else request.log.info(fields, ACCESS_LOG_MESSAGE);
    done();
  });
}

export default fp(accessLogPlugin, { name: 'access-log' });
