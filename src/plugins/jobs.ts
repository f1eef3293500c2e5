// app.jobs: the web process's side of exports as jobs (src/jobs/host.ts). Started once the app is
// ready, stopped (in-flight renders finished) when it closes, before the database closes.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJobHost, type JobHost } from '../jobs/host.js';
import { registerJobMetrics } from '../jobs/metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Pick<JobHost, 'enqueue' | 'workers'>;
  }
}

async function jobsPlugin(app: FastifyInstance) {
  const repository = app.services.jobRepositories.exports;
  const metrics = registerJobMetrics(app.metrics.registry, () => repository.queuedCount());
  const host = createJobHost({
    config: app.config,
    services: app.services,
    role: 'web',
    metrics,
    onError: (error) => app.log.warn({ err: error }, 'export job work failed; it is retried'),
    onNoWorker: (queued) =>
      app.log.warn({ queued }, 'exports are queued and no render worker answered in the last minute; start one with npm run worker'),
  });
  app.services.exports.events.on('workerStopped', (exportId, message) => app.log.error({ exportId }, `export failed: ${message}`));
  app.services.projects.events.on('eventError', (error) =>
    app.log.error({ err: error }, 'a project event could not be recorded for its webhooks'),
  );
  app.decorate('jobs', { enqueue: host.enqueue, workers: host.workers });
  app.addHook('onReady', async () => host.start());
  app.addHook('onClose', async () => host.stop());
}

export default fp(jobsPlugin, { name: 'jobs', dependencies: ['services', 'metrics'] });
