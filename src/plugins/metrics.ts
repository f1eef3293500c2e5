// Instrumentation: app.metrics (src/lib/metrics.ts) fed by every response, by the errors that
// mean a dependency is down, and by the database pool and the bcrypt queue. GET /metrics itself
// is src/routes/metrics.ts.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DatabaseUnavailableError, StorageUnavailableError } from '../errors.js';
import { isDatabaseUnreachable } from '../db/errors.js';
import { createMetrics } from '../lib/metrics.js';

/** Requests that matched no route share one label value: a raw URL would make labels unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

async function metricsPlugin(app: FastifyInstance) {
  const metrics = createMetrics();
  metrics.sources.pool = app.db.poolStats;
  metrics.sources.bcrypt = app.services.passwordHasher.queue;
  metrics.sources.render = app.services.renderer.stats;
  app.decorate('metrics', metrics);

  // One series per (route template, method, status): the set is bounded by the routes.
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: reply.statusCode };
    metrics.requestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onError', async (_request, _reply, error) => {
    if (error instanceof StorageUnavailableError) metrics.storageErrors.inc();
    else if (error instanceof DatabaseUnavailableError || isDatabaseUnreachable(error)) metrics.databaseErrors.inc();
  });
}

export default fp(metricsPlugin, { name: 'metrics', dependencies: ['database', 'services'] });
