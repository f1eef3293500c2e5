import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { BackgroundWork } from '../plugins/background-work.js';
import type { Metrics } from '../lib/metrics.js';
import type { Services } from '../services/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    services: Services;
    backgroundWork: BackgroundWork;
    metrics: Metrics;
  }
}
