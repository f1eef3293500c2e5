// @fastify/rate-limit, off by default on every route: contexts opt in with app.rateLimit(...)
// hooks. A limit of 0 turns that scope off. With REDIS_URL the budgets live in Redis, in the
// plugin's own Redis store, and are shared by every process. A Redis that is down or slow never
// holds a request: ioredis queues nothing while disconnected and gives a command REDIS_TIMEOUT_MS,
// then skipOnError lets the request through (fail open). Each failure is counted and logged (at
// most one warning per 10 s).
import fastifyRateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { HttpError, MESSAGES } from '../errors.js';
import { UNMATCHED_ROUTE } from './metrics.js';

const WARNING_INTERVAL_MS = 10_000;
const STARTUP_WAIT_MS = 2_000;

/** A store that reports each failed check before the plugin lets the request through. */
class ReportingStore implements FastifyRateLimitStore {
  constructor(
    private readonly store: FastifyRateLimitStore,
    private readonly onError: (error: Error) => void,
  ) {}

  incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>): void {
    const report: typeof callback = (error, result) => {
      if (error) this.onError(error);
      callback(error, result);
    };
    this.store.incr(key, report, timeWindow, max);
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new ReportingStore(this.store.child(routeOptions), this.onError);
  }
}

/** Resolves once connected, or after waitMs: a Redis that is down never blocks start-up. */
function connected(redis: Redis, waitMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, waitMs);
    redis.once('ready', onReady);
  });
}

async function rateLimitPlugin(app: FastifyInstance) {
  let lastWarning = 0;
  let failuresSinceWarning = 0;
  const onStoreError = (error: Error) => {
    app.metrics.rateLimitStoreErrors.inc();
    failuresSinceWarning++;
    const now = Date.now();
    if (now - lastWarning < WARNING_INTERVAL_MS) return;
    app.log.warn({ err: error, failures: failuresSinceWarning }, 'rate-limit store (Redis) unavailable: failing open');
    lastWarning = now;
    failuresSinceWarning = 0;
  };

  let store: FastifyRateLimitStoreCtor | undefined;
  if (app.config.redis) {
    const { url, timeoutMs, namespace } = app.config.redis;
    const redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: timeoutMs,
      connectTimeout: 1_000,
      // Reconnects for ever, at most every 2 s: limits resume by themselves when Redis is back.
      retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    });
    // Connection errors arrive here too; without a listener ioredis prints them itself.
    redis.on('error', onStoreError);
    app.addHook('onClose', async () => redis.disconnect());
    app.metrics.sources.rateLimitStore = () => redis.status === 'ready';
    // The plugin constructs the store itself (with its own options, not needed here).
    store = class SharedStore extends ReportingStore {
      constructor() {
        super(new RedisStore(false, false, redis, `${namespace}:rate-limit:`), onStoreError);
      }
    };
    // Counting starts with the first request: give the connection a moment, never more.
    if (!(await connected(redis, STARTUP_WAIT_MS))) {
      app.log.warn('rate-limit store (Redis) not reachable at start-up: failing open until it is');
    }
  }

  await app.register(fastifyRateLimit, {
    global: false,
    ...(store ? { store, skipOnError: true } : {}),
    onExceeded: (request) => app.metrics.rateLimitRejections.inc({ route: request.routeOptions.url ?? UNMATCHED_ROUTE }),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, MESSAGES.rateLimited(context.max, context.after)),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['metrics'] });
