// @fastify/rate-limit, off by default on every route: contexts opt in with app.rateLimit(...)
// hooks. A limit of 0 turns that scope off.
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../errors.js';

async function rateLimitPlugin(app: FastifyInstance) {
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Rate limit exceeded: at most ${context.max} requests per minute. Retry in ${context.after}.`),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
