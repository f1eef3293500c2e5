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
  app.decorate('metrics', metrics);

  // One labelled child per (method, route template, status): the set is bounded by the routes, and
  // looking a child up by one string is cheaper than prom-client hashing a label object per request.
  const observers = new Map<string, { observe(value: number): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let observer = observers.get(key);
    if (!observer) {
      observer = metrics.requestDuration.labels(request.method, route, String(reply.statusCode));
      observers.set(key, observer);
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
