// `npm run worker`: a process that renders exports from the BullMQ queue (REDIS_URL), delivers
// webhooks and removes expired exports. Run any number, on any machine, with the web process's
// configuration (DATABASE_URL, REDIS_URL, the secrets, UPLOAD_DIR or S3_*). SIGTERM/SIGINT finish
// the renders in progress (within SHUTDOWN_GRACE_MS) and exit; a killed worker's jobs are taken
// over by another worker once their lock (EXPORT_LEASE_MS) runs out.
// First: every thread started after it inherits the lower priority.
import './jobs/lower-priority.js';
import { createServer } from 'node:http';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { Registry } from 'prom-client';
import { ConfigError, loadConfig, withDotenv, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrator.js';
import { createJobHost } from './jobs/host.js';
import { registerJobMetrics } from './jobs/metrics.js';
import { LOG_REDACTION, logOutput } from './lib/log-output.js';
import { bearerMatches } from './routes/metrics.js';
import { createServices } from './services/index.js';

let config: Config;
try {
  config = loadConfig(withDotenv(process.env).env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Invalid configuration: ${(error as Error).message}`);
  process.exit(1);
}
if (!config.redis || config.database.kind !== 'postgres') {
  console.error('A worker needs REDIS_URL and DATABASE_URL (the web process renders exports itself without Redis).');
  process.exit(1);
}

// The web process's log: the same redaction and output (JSON lines, pretty at a terminal outside production).
const log = pino({ level: config.logLevel, redact: LOG_REDACTION }, logOutput(process.stdout, config.production));
const db = await openDatabase(config.database, { onBackgroundError: (error) => log.warn({ err: error }, 'database connection error') });
await db.withSession((session) => migrate(session));
const services = createServices(config, db);
const registry = new Registry();
const metrics = registerJobMetrics(registry, () => services.jobRepositories.exports.queuedCount());
const host = createJobHost({
  config,
  services,
  role: 'worker',
  metrics,
  onError: (error) => log.warn({ err: error }, 'export job work failed; it is retried'),
  onAttempt: (exportId, phase) => log.info({ exportId, phase }, `export ${phase}`),
});
services.exports.events.on('workerStopped', (exportId, message) => log.error({ exportId }, `export failed: ${message}`));
host.start();

// Its metrics on WORKER_METRICS_PORT (with METRICS_TOKEN), for a scraper next to it.
const metricsPort = config.exports.workerMetricsPort;
const metricsServer =
  metricsPort > 0 && config.metricsToken
    ? createServer((request, response) => {
        if (request.url !== '/metrics' || !bearerMatches(request.headers.authorization, config.metricsToken!)) {
          response.writeHead(404).end();
          return;
        }
        void registry.metrics().then((body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body));
      }).listen(metricsPort, config.host)
    : null;

log.info({ concurrency: config.exports.concurrency, pid: process.pid }, 'export worker started');

closeWithGrace({ delay: config.shutdownGraceMs }, async ({ signal, err }) => {
  if (err) log.error({ err }, 'worker shutting down after an uncaught error');
  else log.info({ signal }, 'worker shutting down');
  metricsServer?.close();
  await host.stop();
  await services.closeStorage();
  await db.close();
});
