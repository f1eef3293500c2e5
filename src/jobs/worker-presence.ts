// Which render workers are alive: each worker stamps its id with the time into one sorted set in
// Redis every few seconds (and removes it when it stops); the web process counts the stamps of
// the last minute for /health/ready, and warns once a minute while exports wait and none answers.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** A worker that answered within this long counts. */
export const WORKER_ANSWER_WINDOW_MS = 60_000;
const STAMP_EVERY_MS = 10_000;

const keyOf = (prefix: string) => `${prefix}:exports:workers`;

function connect(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, enableReadyCheck: false, lazyConnect: true });
}

/** The worker's side: stamps until stopped. */
export function createWorkerStamp(redisUrl: string, prefix: string, onError: (error: unknown) => void) {
  const redis = connect(redisUrl);
  const id = randomUUID();
  let timer: NodeJS.Timeout | null = null;
  const stamp = () =>
    redis
      .zadd(keyOf(prefix), Date.now(), id)
      .then(() => redis.zremrangebyscore(keyOf(prefix), '-inf', Date.now() - WORKER_ANSWER_WINDOW_MS))
      .catch(onError);
  return {
    start() {
      void stamp();
      timer = setInterval(() => void stamp(), STAMP_EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await redis.zrem(keyOf(prefix), id).catch(onError);
      redis.disconnect();
    },
  };
}

/** The web process's side: how many workers answered in the last minute. */
export function createWorkerCount(redisUrl: string, prefix: string) {
  const redis = connect(redisUrl);
  return {
    async count(now = Date.now()): Promise<number> {
      return redis.zcount(keyOf(prefix), now - WORKER_ANSWER_WINDOW_MS, '+inf');
    },
    close() {
      redis.disconnect();
    },
  };
}

export type WorkerCount = ReturnType<typeof createWorkerCount>;

/** Once a minute: a warning while exports are queued and no worker answers. */
export function createIdleWorkerWarning(options: {
  workers: WorkerCount;
  queued: () => Promise<number>;
  warn: (queued: number) => void;
  onError: (error: unknown) => void;
}) {
  let timer: NodeJS.Timeout | null = null;
  const check = async () => {
    try {
      const queued = await options.queued();
      if (queued > 0 && (await options.workers.count()) === 0) options.warn(queued);
    } catch (error) {
      options.onError(error);
    }
  };
  return {
    start() {
      timer = setInterval(() => void check(), WORKER_ANSWER_WINDOW_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
