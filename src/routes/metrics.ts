// GET /metrics: Prometheus text for scrapers holding METRICS_TOKEN. Without the token (or when
// none is configured) the answer is the same 404 as for a route that does not exist, so the
// endpoint does not reveal itself.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../errors.js';
import { EmptyQuery, errorResponses } from '../schemas/common.js';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time in the token's content: both sides are compared as SHA-256 digests of equal length. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/i.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const token = app.config.metricsToken;
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['health'],
        summary: 'Prometheus metrics (only with METRICS_TOKEN as a bearer token; otherwise 404)',
        security: [{ metricsToken: [] }],
        querystring: EmptyQuery,
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4.',
            content: { 'text/plain': { schema: Type.String() } },
          },
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      if (!token || !bearerMatches(request.headers.authorization, token)) {
        throw notFound(`Route GET /metrics not found.`);
      }
      const body = await app.metrics.registry.metrics();
      return reply.header('cache-control', 'no-store').type(app.metrics.registry.contentType).send(body);
    },
  );
};

export default metricsRoutes;
