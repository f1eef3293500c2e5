// The service's Prometheus metrics, one registry per app (tests build many apps in one process).
// Labels are bounded: route templates (never raw URLs or ids), methods, status codes and fixed
// scope names.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface MetricsSources {
  /** PostgreSQL pool occupancy; absent on the embedded engine. */
  pool?: () => PoolStats;
  /** bcrypt tasks running and waiting for a slot. */
  bcrypt?: () => { running: number; waiting: number };
  /** Whether the shared rate-limit store (Redis) is connected; absent without REDIS_URL. */
  rateLimitStore?: () => boolean;
  /** Render child pools by name (src/render/). */
  render?: () => Record<
    string,
    { children: number; busy: number; starting: number; waiting: number; kills: Record<string, number>; crashes: number }
  >;
}

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const sources: MetricsSources = {};

  const metrics = {
    registry,
    sources,
    requestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, by method, route template and status code.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    databaseErrors: new Counter({
      name: 'db_query_errors_total',
      help: 'Requests that failed because the database was unreachable or timed out.',
      registers: [registry],
    }),
    storageErrors: new Counter({
      name: 'storage_errors_total',
      help: 'Requests that failed because the object storage was unreachable, slow or failing.',
      registers: [registry],
    }),
    rateLimitRejections: new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests answered 429, by route template.',
      labelNames: ['route'] as const,
      registers: [registry],
    }),
    rateLimitStoreErrors: new Counter({
      name: 'rate_limit_store_errors_total',
      help: 'Rate-limit checks that failed open because the shared store (Redis) did not answer.',
      registers: [registry],
    }),
    uploadBytes: new Counter({
      name: 'upload_bytes_total',
      help: 'Bytes of accepted uploads.',
      registers: [registry],
    }),
  };

  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.pool?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'bcrypt_queue_tasks',
    help: 'bcrypt hashes and comparisons running and waiting for a slot.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.bcrypt?.();
      if (!stats) return;
      this.set({ state: 'running' }, stats.running);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'rate_limit_store_connected',
    help: 'Whether the shared rate-limit store is connected (1), or down and checks fail open (0); by store.',
    labelNames: ['store'] as const,
    registers: [registry],
    collect() {
      const connected = sources.rateLimitStore?.();
      if (connected !== undefined) this.set({ store: 'redis' }, connected ? 1 : 0);
    },
  });
  new Gauge({
    name: 'render_children',
    help: 'Render child processes by pool and state (busy, idle, starting), and renders waiting for a child.',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      for (const [pool, stats] of Object.entries(sources.render?.() ?? {})) {
        this.set({ pool, state: 'busy' }, stats.busy);
        this.set({ pool, state: 'idle' }, stats.children - stats.busy - stats.starting);
        this.set({ pool, state: 'starting' }, stats.starting);
        this.set({ pool, state: 'waiting' }, stats.waiting);
      }
    },
  });
  new Counter({
    name: 'render_kills_total',
    help:
      'Render children killed, by pool and reason (deadline, cancelled, memory, shutdown), and children that died on their own (crashed).',
    labelNames: ['pool', 'reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, stats] of Object.entries(sources.render?.() ?? {})) {
        for (const [reason, count] of Object.entries({ ...stats.kills, crashed: stats.crashes })) this.inc({ pool, reason }, count);
      }
    },
  });
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
