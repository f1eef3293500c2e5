// Without Redis the web process renders exports itself, at most `concurrency` at a time. Nothing
// is held only in memory: a new export is also found by the periodic scan of the database (queued
// rows, and running rows whose lease ran out because their process died), so a restart resumes
// every export, and several web processes sharing a database share the work.
import type { ExportRepository } from '../repositories/exports.js';
import type { ExportService } from '../services/exports.js';

export interface InProcessRunnerOptions {
  exports: ExportService;
  repository: ExportRepository;
  concurrency: number;
  scanMs: number;
  onError(error: unknown): void;
}

export function createInProcessRunner(options: InProcessRunnerOptions) {
  const { exports, repository, concurrency } = options;
  const wanted = new Set<string>();
  const active = new Map<string, Promise<unknown>>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  function pump() {
    for (const id of wanted) {
      if (stopped || active.size >= concurrency) return;
      wanted.delete(id);
      if (active.has(id)) continue;
      // After a failure that may pass, or a busy render pool, the row is queued again (the latter
      // until its retry time) and a later scan takes it.
      const run = exports
        .attempt(id, { takeOver: false })
        .catch(options.onError)
        .finally(() => {
          active.delete(id);
          pump();
        });
      active.set(id, run);
    }
  }

  async function scan() {
    if (stopped) return;
    try {
      const ids = await repository.claimable(new Date(), concurrency * 4);
      for (const id of ids) if (!active.has(id)) wanted.add(id);
      pump();
    } catch (error) {
      options.onError(error);
    }
    if (!stopped) {
      timer = setTimeout(() => void scan(), options.scanMs);
      timer.unref();
    }
  }

  return {
    start() {
      void scan();
    },
    async enqueue(id: string): Promise<void> {
      wanted.add(id);
      pump();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wanted.clear();
      await Promise.allSettled([...active.values()]);
    },
  };
}
