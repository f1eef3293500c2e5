// Instrumentation: app.metrics (src/lib/metrics.ts) fed by every response, by the errors that
// mean a dependency is down, and by the database pool and the bcrypt queue. GET /metrics itself
// is src/routes/metrics.ts.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DatabaseUnavailableError, StorageUnavailableError } from '../errors.js';
import { isDatabaseUnreachable } from '../db/errors.js';
import type { HistogramSeries } from '../lib/labelled-histogram.js';
import { createMetrics } from '../lib/metrics.js';

/** Requests that matched no route share one label value: a raw URL would make labels unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

async function metricsPlugin(app: FastifyInstance) {
  const metrics = createMetrics();
  metrics.sources.pool = app.db.poolStats;
  metrics.sources.bcrypt = app.services.passwordHasher.queue;
  metrics.sources.render = app.services.renderer.stats;
  app.decorate('metrics', metrics);

  // One series per (method, route template, status): the set is bounded by the routes, and is
  // found by one string key, built from values Fastify already holds.
  const series = new Map<string, HistogramSeries>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let observer = series.get(key);
    if (!observer) {
      observer = metrics.requestDuration.seriesFor({ method: request.method, route, status_code: String(reply.statusCode) });
      series.set(key, observer);
    }
    observer.observe(reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onError', async (_request, _reply, error) => {
    if (error instanceof StorageUnavailableError) metrics.storageErrors.inc();
    else if (error instanceof DatabaseUnavailableError || isDatabaseUnreachable(error)) metrics.databaseErrors.inc();
  });
}

export default fp(metricsPlugin, { name: 'metrics', dependencies: ['database', 'services'] });
