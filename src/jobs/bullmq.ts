// With REDIS_URL exports are BullMQ jobs (the job carries the export id only; its state is the
// database row): the web process adds them, `npm run worker` processes render them. A job whose
// worker died (its lock ran out) is moved back by another worker's stalled check and taken over;
// past its last attempt the export is failed with a reason. A busy render pool delays the job
// instead (no attempt used) until the export's deadline.
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { ExportSettings } from '../config.js';
import type { ExportRepository } from '../repositories/exports.js';
import { busyBackoffMs, type AttemptOutcome, type ExportService } from '../services/exports.js';

export const EXPORT_QUEUE_NAME = 'exports';
const RECONCILE_MS = 10_000;
/** A queued row older than this without a job (Redis lost it, or adding failed) is added again. */
const ORPHAN_AFTER_MS = 30_000;

interface ExportJobData {
  exportId: string;
}

function connect(url: string): Redis {
  // BullMQ's blocking commands need no per-request retry limit.
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: false });
}

export function createExportQueue(redisUrl: string, settings: ExportSettings) {
  const connection = connect(redisUrl);
  const queue = new Queue<ExportJobData>(EXPORT_QUEUE_NAME, { connection, prefix: settings.queuePrefix });
  return {
    queue,
    async enqueue(id: string): Promise<void> {
      await queue.add(
        'render',
        { exportId: id },
        {
          jobId: id,
          attempts: settings.attempts,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: true,
          removeOnFail: { age: 24 * 3600 },
        },
      );
    },
    async depth(): Promise<number> {
      return queue.getJobCountByTypes('waiting', 'delayed', 'prioritized');
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

export interface ExportWorkerOptions {
  redisUrl: string;
  settings: ExportSettings;
  exports: ExportService;
  repository: ExportRepository;
  onError(error: unknown): void;
  /** Each attempt's start and end, for the worker's log. */
  onAttempt?(exportId: string, phase: 'started' | AttemptOutcome): void;
}

export function createExportWorker(options: ExportWorkerOptions) {
  const { settings, exports } = options;
  const producer = createExportQueue(options.redisUrl, settings);
  const connection = connect(options.redisUrl);
  const worker = new Worker<ExportJobData>(
    EXPORT_QUEUE_NAME,
    async (job: Job<ExportJobData>, token?: string) => {
      const attempts = job.opts.attempts ?? settings.attempts;
      options.onAttempt?.(job.data.exportId, 'started');
      const outcome = await exports.attempt(job.data.exportId, { takeOver: true, lastAttempt: job.attemptsMade + 1 >= attempts });
      options.onAttempt?.(job.data.exportId, outcome);
      if (outcome === 'retry') throw new Error('The render failed; it is retried.');
      if (outcome === 'waiting') {
        // A busy render pool: the job comes back after the backoff without using one of its attempts.
        await job.moveToDelayed(Date.now() + busyBackoffMs(Date.now() - job.timestamp), token);
        throw new DelayedError();
      }
      return outcome;
    },
    {
      connection,
      prefix: settings.queuePrefix,
      concurrency: settings.concurrency,
      lockDuration: settings.leaseMs,
      stalledInterval: Math.max(1_000, Math.floor(settings.leaseMs / 2)),
      maxStalledCount: Math.max(1, settings.attempts - 1),
      autorun: false,
    },
  );
  worker.on('failed', (job, error) => {
    if (!job) return;
    const attempts = job.opts.attempts ?? settings.attempts;
    const final = error instanceof UnrecoverableError || job.attemptsMade >= attempts || /stalled/i.test(error.message);
    if (final) void exports.giveUp(job.data.exportId).catch(options.onError);
  });
  worker.on('error', options.onError);

  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  async function reconcile() {
    try {
      const ids = await options.repository.claimable(new Date(), 100, new Date(Date.now() - ORPHAN_AFTER_MS));
      for (const id of ids) await producer.enqueue(id);
    } catch (error) {
      options.onError(error);
    }
    if (!stopped) {
      timer = setTimeout(() => void reconcile(), RECONCILE_MS);
      timer.unref();
    }
  }

  return {
    worker,
    start() {
      void worker.run();
      void reconcile();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await worker.close();
      connection.disconnect();
      await producer.close();
    },
  };
}
