// Everything that runs jobs in one process. The web process: with REDIS_URL it only adds exports
// to the queue; without, it renders them itself (bounded), delivers webhooks and removes expired
// exports. A worker (`npm run worker`): renders queue jobs, delivers webhooks, removes expired exports.
import type { Config } from '../config.js';
import type { Services } from '../services/index.js';
import { createExportQueue, createExportWorker } from './bullmq.js';
import { createInProcessRunner } from './in-process.js';
import type { JobMetrics } from './metrics.js';
import { createWebhookDispatcher } from './webhook-dispatcher.js';
import { createIdleWorkerWarning, createWorkerCount, createWorkerStamp } from './worker-presence.js';

const SCAN_MS = 2_000;
const SWEEP_MS = 60_000;

export interface JobHostOptions {
  config: Config;
  services: Services;
  role: 'web' | 'worker';
  metrics?: JobMetrics;
  onError(error: unknown): void;
  onAttempt?(exportId: string, phase: string): void;
  /** The web process with REDIS_URL: exports are queued and no worker answered in the last minute. */
  onNoWorker?(queued: number): void;
}

export function createJobHost({ config, services, role, metrics, onError, onAttempt, onNoWorker }: JobHostOptions) {
  const repositories = services.jobRepositories;
  const renders = role === 'worker' || config.redis === null;
  if (role === 'worker' && config.redis === null) throw new Error('A worker needs REDIS_URL.');

  const producer = role === 'web' && config.redis ? createExportQueue(config.redis.url, config.exports) : null;
  const runner =
    role === 'web' && !config.redis
      ? createInProcessRunner({
          exports: services.exports,
          repository: repositories.exports,
          concurrency: config.exports.concurrency,
          scanMs: SCAN_MS,
          onError,
        })
      : null;
  const worker =
    role === 'worker' && config.redis
      ? createExportWorker({
          redisUrl: config.redis.url,
          settings: config.exports,
          exports: services.exports,
          repository: repositories.exports,
          onError,
          onAttempt,
        })
      : null;
  const stamp = worker && config.redis ? createWorkerStamp(config.redis.url, config.exports.queuePrefix, onError) : null;
  const workerCount = producer && config.redis ? createWorkerCount(config.redis.url, config.exports.queuePrefix) : null;
  const idleWarning = workerCount
    ? createIdleWorkerWarning({
        workers: workerCount,
        queued: () => repositories.exports.queuedCount(),
        warn: (queued) => onNoWorker?.(queued),
        onError,
      })
    : null;
  const dispatcher = renders
    ? createWebhookDispatcher({
        repository: repositories.webhooks,
        sealer: services.webhookSealer,
        policy: { allowPrivate: config.webhooks.allowPrivate, production: config.production },
        retryDelaysMs: config.webhooks.retryDelaysMs,
        timeoutMs: config.webhooks.timeoutMs,
        pollMs: config.webhooks.pollMs,
        onDelivery: (outcome) => metrics?.webhookDeliveries.inc({ outcome }),
        onError,
      })
    : null;
  if (dispatcher) services.webhooks.events.on('enqueued', dispatcher.poke);
  if (metrics && renders) {
    services.exports.events.on('jobDuration', (format, outcome, seconds) => metrics.jobDuration.observe({ format, outcome }, seconds));
  }

  let sweepTimer: NodeJS.Timeout | null = null;
  let stopped = false;
  const sweep = async () => {
    if (stopped) return;
    try {
      await services.exports.announceMissed();
      await services.exports.removeExpired((names) => services.fileJanitor.removeRecorded(names));
      await services.idempotency.removeForgotten();
    } catch (error) {
      onError(error);
    }
    sweepTimer = setTimeout(() => void sweep(), SWEEP_MS);
    sweepTimer.unref();
  };

  return {
    /** Hands a new export to whatever renders it. */
    async enqueue(id: string): Promise<void> {
      if (producer) await producer.enqueue(id);
      else if (runner) await runner.enqueue(id);
    },
    /** Render workers that answered in the last minute; null without REDIS_URL (this process renders). */
    async workers(): Promise<number | null> {
      return workerCount ? workerCount.count() : null;
    },
    start() {
      runner?.start();
      worker?.start();
      stamp?.start();
      idleWarning?.start();
      dispatcher?.start();
      if (renders) void sweep();
    },
    async stop() {
      stopped = true;
      if (sweepTimer) clearTimeout(sweepTimer);
      idleWarning?.stop();
      await Promise.all([runner?.stop(), worker?.stop(), dispatcher?.stop(), producer?.close(), stamp?.stop()]);
      workerCount?.close();
    },
  };
}

export type JobHost = ReturnType<typeof createJobHost>;
