// Process entry: configuration, the app, listen, and graceful shutdown on SIGTERM/SIGINT.
import closeWithGrace from 'close-with-grace';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, withDotenv, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import { isDatabaseUnreachable } from './db/errors.js';
import { logOutput } from './lib/log-output.js';
import { retryWithBackoff } from './lib/startup-retry.js';
import { assertWritableDirectory } from './storage/check-writable.js';
import { describeStorageError, isStorageUnreachable, prepareObjectStorage } from './storage/startup.js';

let config: Config;
/** The development secrets generated and kept under DATA_DIR (none when the environment sets both). */
let generatedSecrets: string[] = [];
try {
  const { env, loaded } = withDotenv(process.env);
  generatedSecrets = [env.JWT_SECRET ? '' : 'jwt-secret', env.API_KEY_SECRET ? '' : 'api-key-secret'].filter(Boolean);
  if (loaded.length > 0) console.error(`Read ${loaded.length} variable(s) from .env (the environment wins): ${loaded.join(', ')}.`);
  config = loadConfig(env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Invalid configuration: ${(error as Error).message}`);
  process.exit(1);
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).trim().split('\n', 1)[0];

const failStartup = (error: unknown, hint = ''): never => {
  console.error(`Start-up failed${hint}: ${firstLine(error)}`);
  process.exit(1);
};

// Checked before anything is announced or opened: an unusable UPLOAD_DIR is one line and exit 1.
await assertWritableDirectory(config.uploadDir, 'UPLOAD_DIR').catch((error: unknown) => failStartup(error));

// Say what the first start does: it is the slow one.
if (config.database.kind === 'embedded') {
  const dir = config.database.dataDir;
  console.error(
    existsSync(dir)
      ? `Embedded PostgreSQL (PGlite) in ${dir}; starting…`
      : `First start: creating the embedded PostgreSQL (PGlite) database in ${dir} and applying migrations. ` +
        `This takes up to 30 s once; later starts take a few seconds. Set DATABASE_URL to use a PostgreSQL server instead.`,
  );
}

// The embedded engine compiles its WebAssembly off the main thread: start it before loading the
// app's modules so the two overlap (a third of the start-up time).
const embeddedDatabase =
  config.database.kind === 'embedded' ? openDatabase(config.database, {}, { port: config.port, command: 'the service' }) : undefined;
embeddedDatabase?.catch(() => undefined);
const { buildApp } = await import('./app.js');
const logStream = logOutput(process.stdout, config.production);

// Never half-started: either every dependency works, or one line on stderr and exit 1.
const app = await (async () => {
  // Object storage is checked once the embedded database is open: creating it holds the event loop
  // for seconds, which would spend S3_STARTUP_RETRY_MS on attempts that never got to run.
  const database = await embeddedDatabase;
  if (config.s3) {
    await retryWithBackoff(() => prepareObjectStorage(config.s3!), {
      budgetMs: config.s3StartupRetryMs,
      retryable: isStorageUnreachable,
      onRetry: ({ attempt, delayMs, error }) =>
        console.error(
          `Object storage unreachable at start-up (attempt ${attempt}): ${describeStorageError(error)}; retrying in ${delayMs} ms.`,
        ),
    }).catch(async (error: unknown) => {
      await database?.close().catch(() => undefined);
      // No cause attached: the database hint below must not read the network error as its own.
      throw new Error(
        `Object storage unreachable (gave up after S3_STARTUP_RETRY_MS=${config.s3StartupRetryMs}): ${describeStorageError(error)}`,
      );
    });
  }
  if (database) return buildApp(config, { database, ownsDatabase: true, logStream });
  return retryWithBackoff(() => buildApp(config, { logStream }), {
    budgetMs: config.databaseStartupRetryMs,
    retryable: isDatabaseUnreachable,
    onRetry: ({ attempt, delayMs, error }) =>
      console.error(`Database unreachable at start-up (attempt ${attempt}): ${firstLine(error)}; retrying in ${delayMs} ms.`),
  });
})().catch((error: unknown) =>
  failStartup(error, isDatabaseUnreachable(error) ? ` (gave up after DATABASE_STARTUP_RETRY_MS=${config.databaseStartupRetryMs})` : ''),
);

closeWithGrace({ delay: config.shutdownGraceMs }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'shutting down after an uncaught error');
  else app.log.info({ signal }, 'shutting down');
  await app.close();
});

try {
  const address = await app.listen({ port: config.port, host: config.host });
  const base = config.publicBaseUrl ?? address;
  app.log.info(`Ready: ${base} — API documentation at ${base}/docs, OpenAPI document at ${base}/openapi.json.`);
  app.log.info(config.s3 ? `Uploads in the S3 bucket ${config.s3.bucket}.` : `Uploads in ${path.resolve(config.uploadDir)}.`);
  if (generatedSecrets.length > 0) {
    const files = generatedSecrets.map((name) => path.join(config.dataDir, 'secrets', name)).join(', ');
    app.log.info(`Development secrets (set JWT_SECRET and API_KEY_SECRET to replace them) kept in ${files}.`);
  }
  if (config.host === '127.0.0.1' && !config.production) {
    app.log.info('Listening on this machine only (development default); set HOST=0.0.0.0 to accept other machines.');
  }
} catch (error) {
  app.log.fatal({ err: error }, 'could not listen');
  await app.close();
  process.exit(1);
}
