// A @fastify/rate-limit store on Redis, so every process of a deployment spends one budget. It
// never holds a request: no offline queue (a command while disconnected fails at once), one try,
// and a command timeout; the plugin's skipOnError then lets the request through (fail open).
// Each failure is reported through onError (logged and counted by the caller).
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';

// INCR and the window's expiry in one atomic step; a key that somehow lost its expiry gets one.
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

interface RateLimitRedis extends Redis {
  pfRateLimitIncrement(key: string, windowMs: number): Promise<[number, number]>;
}

export interface RedisRateStoreOptions {
  url: string;
  /** Budget of one command; past it the request goes through uncounted. */
  timeoutMs: number;
  /** Prefix of every key, so several deployments can share one Redis. */
  namespace: string;
  onError(error: Error): void;
}

export interface RedisRateStore {
  Store: FastifyRateLimitStoreCtor;
  redis: Redis;
  /** Resolves once connected, or after waitMs: a Redis that is down never blocks start-up. */
  connected(waitMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export function createRedisRateStore(options: RedisRateStoreOptions): RedisRateStore {
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.timeoutMs,
    connectTimeout: 1_000,
    // Reconnects for ever, at most every 2 s: limits resume by themselves when Redis is back.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  }) as RateLimitRedis;
  redis.defineCommand('pfRateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT });
  // Connection errors arrive here too; without a listener ioredis prints them itself.
  redis.on('error', (error: Error) => options.onError(error));

  const base = `${options.namespace}:rate-limit:`;

  class PrefixedStore implements FastifyRateLimitStore {
    constructor(private readonly prefix: string) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      redis.pfRateLimitIncrement(`${this.prefix}${key}`, timeWindow).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (error: Error) => {
          options.onError(error);
          callback(error);
        },
      );
    }

    child(routeOptions: { method?: unknown; url?: unknown; routeInfo?: { method?: unknown; url?: unknown } }): FastifyRateLimitStore {
      // A limiter made with app.rateLimit() has no route; its keys (client IPs, key ids) are
      // already distinct by form. A per-route limit gets the route in its prefix.
      const info = routeOptions.routeInfo ?? {};
      const scope = typeof info.url === 'string' ? `${String(info.method)}${info.url}:` : '';
      return new PrefixedStore(`${this.prefix}${scope}`);
    }
  }
  // The plugin constructs the store itself, with its own options as the argument.
  class Store extends PrefixedStore {
    constructor() {
      super(base);
    }
  }

  return {
    Store: Store as unknown as FastifyRateLimitStoreCtor,
    redis,
    connected: (waitMs) =>
      new Promise<boolean>((resolve) => {
        if (redis.status === 'ready') return resolve(true);
        const timer = setTimeout(() => {
          redis.off('ready', onReady);
          resolve(false);
        }, waitMs);
        const onReady = () => {
          clearTimeout(timer);
          resolve(true);
        };
        redis.once('ready', onReady);
      }),
    close: async () => {
      redis.disconnect();
    },
  };
}
