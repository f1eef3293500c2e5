// The job metrics: exports waiting, render durations by format and outcome, webhook deliveries by
// outcome. Registered on the web process's registry (and a worker's own).
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export function registerJobMetrics(registry: Registry, queueDepth: () => Promise<number>) {
  new Gauge({
    name: 'export_queue_depth',
    help: 'Exports queued and not yet started.',
    registers: [registry],
    async collect() {
      this.set(await queueDepth());
    },
  });
  return {
    jobDuration: new Histogram({
      name: 'export_job_duration_seconds',
      help: 'Time of one export render attempt, by format and outcome.',
      labelNames: ['format', 'outcome'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (succeeded, failed, timeout, refused).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  };
}

export type JobMetrics = ReturnType<typeof registerJobMetrics>;
