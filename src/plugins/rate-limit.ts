// @fastify/rate-limit, off by default on every route: contexts opt in with app.rateLimit(...)
// hooks. A limit of 0 turns that scope off. With REDIS_URL the budgets live in Redis and are
// shared by every process; a Redis that is down or slow never holds a request (fail open within
// REDIS_TIMEOUT_MS), and each such failure is counted and logged (at most one warning per 10 s).
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../errors.js';
import { createRedisRateStore } from '../lib/redis-rate-store.js';
import { UNMATCHED_ROUTE } from './metrics.js';

const WARNING_INTERVAL_MS = 10_000;
const STARTUP_WAIT_MS = 2_000;

async function rateLimitPlugin(app: FastifyInstance) {
  const { redis } = app.config;
  let lastWarning = 0;
  let failuresSinceWarning = 0;
  const shared = redis
    ? createRedisRateStore({
        ...redis,
        onError: (error) => {
          app.metrics.rateLimitStoreErrors.inc();
          failuresSinceWarning++;
          const now = Date.now();
          if (now - lastWarning < WARNING_INTERVAL_MS) return;
          app.log.warn({ err: error, failures: failuresSinceWarning }, 'rate-limit store (Redis) unavailable: failing open');
          lastWarning = now;
          failuresSinceWarning = 0;
        },
      })
    : null;
  if (shared) {
    app.addHook('onClose', () => shared.close());
    app.metrics.sources.rateLimitStore = () => shared.redis.status === 'ready';
    // Counting starts with the first request: give the connection a moment, never more.
    if (!(await shared.connected(STARTUP_WAIT_MS))) app.log.warn('rate-limit store (Redis) not reachable at start-up: failing open until it is');
  }

  await app.register(fastifyRateLimit, {
    global: false,
    ...(shared ? { store: shared.Store, skipOnError: true } : {}),
    onExceeded: (request) => app.metrics.rateLimitRejections.inc({ route: request.routeOptions.url ?? UNMATCHED_ROUTE }),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Rate limit exceeded: at most ${context.max} requests per minute. Retry in ${context.after}.`),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['metrics'] });
