import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { BackgroundWork } from '../plugins/background-work.js';
import type { Metrics } from '../lib/metrics.js';
import type { Services } from '../services/index.js';
import type { OperationPatch } from '../plugins/openapi-transform.js';

declare module 'fastify' {
  interface FastifySchema {
    /** What the route adds to its OpenAPI operation beyond its schemas (a multipart body, a binary reply, an optional body). */
    'x-openapi'?: OperationPatch;
  }
  interface FastifyInstance {
    config: Config;
    db: Database;
    services: Services;
    backgroundWork: BackgroundWork;
    metrics: Metrics;
  }
}
