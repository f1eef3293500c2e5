declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  /** @fastify/rate-limit's own Redis store, the one its `redis` option builds (its types leave it out). */
  export default class RedisStore implements FastifyRateLimitStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string);
    incr: FastifyRateLimitStore['incr'];
    child: FastifyRateLimitStore['child'];
  }
}
