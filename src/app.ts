// buildApp(config) assembles the service; it never listens and never touches process signals
// (src/server.ts does). Register order: framework setup → cross-cutting plugins → services → routes.
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import type { DestinationStream } from 'pino';
import secureJson from 'secure-json-parse';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { badRequest, MESSAGES } from './errors.js';
import { LOG_REDACTION } from './lib/log-output.js';
import { createValidators, formatValidationError } from './lib/validation.js';
import { AccessLog } from './plugins/access-log.js';
import compressionPlugin from './plugins/compression.js';
import apiKeyGuardPlugin from './plugins/api-key-guard.js';
import authenticationPlugin from './plugins/authentication.js';
import backgroundWorkPlugin from './plugins/background-work.js';
import databasePlugin from './plugins/database.js';
import connectionsPlugin from './plugins/connections.js';
import errorsPlugin, { answerClientError, answerRoutingError, FRAMEWORK_HTTP_OPTIONS } from './plugins/errors.js';
import idempotencyPlugin from './plugins/idempotency.js';
import openapiPlugin from './plugins/openapi.js';
import metricsPlugin from './plugins/metrics.js';
import rateLimitPlugin from './plugins/rate-limit.js';
import requestIdPlugin, { generateRequestId } from './plugins/request-id.js';
import adminRoutes from './routes/admin.js';
import authRoutes from './routes/auth.js';
import editorRoutes from './routes/editor.js';
import fileRoutes from './routes/files.js';
import exportDownloadRoutes from './routes/export-download.js';
import jobsPlugin from './plugins/jobs.js';
import { ExportSchema } from './schemas/exports.js';
import { WebhookSchema } from './schemas/webhooks.js';
import healthRoutes from './routes/health.js';
import metricsRoutes from './routes/metrics.js';
import templateRoutes from './routes/templates.js';
import sharedModelRoutes from './routes/shared-model.js';
import v1Routes from './routes/v1.js';
import { AdminUserSchema } from './schemas/admin.js';
import viewerRoutes from './routes/viewer.js';
import { ApiKeySchema } from './schemas/api-keys.js';
import { AssetSchema } from './schemas/assets.js';
import { FontSchema } from './schemas/fonts.js';
import { ApiErrorSchema } from './schemas/common.js';
import { UserSchema } from './schemas/auth.js';
import { ProjectSchema } from './schemas/projects.js';
import { ShareSchema } from './schemas/shares.js';
import { CategorySchema, TemplateSchema } from './schemas/templates.js';
import { DielineSchema } from './schemas/dielines.js';
import { SheetLayoutSchema } from './schemas/sheet-layouts.js';
import { createServices } from './services/index.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  /** A database opened by the caller; otherwise the app opens config.database itself. */
  database?: Database;
  /** Close the caller's database when the app closes (it is handed over, not lent). */
  ownsDatabase?: boolean;
  /** Overrides the logger (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Where log lines go instead of stdout (tests read them back). */
  logStream?: DestinationStream;
}

/** Schemas referenced by $id from several routes (and shown under components/schemas in OpenAPI). */
const SHARED_SCHEMAS = [
  ApiErrorSchema,
  TemplateSchema,
  CategorySchema,
  UserSchema,
  ApiKeySchema,
  ProjectSchema,
  AssetSchema,
  FontSchema,
  DielineSchema,
  SheetLayoutSchema,
  AdminUserSchema,
  ExportSchema,
  WebhookSchema,
  ShareSchema,
];

// Timeouts against slow-loris clients when no proxy sits in front.
const CONNECTION_TIMEOUT_MS = 0;
const REQUEST_TIMEOUT_MS = 120_000;
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export async function buildApp(config: Config, options: BuildOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: LOG_REDACTION,
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // One access line per request instead of Fastify's two (src/plugins/access-log.ts).
    logController: new AccessLog(),
    requestIdHeader: false,
    genReqId: generateRequestId,
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // src/plugins/errors.ts answers these as ApiErrors with a request id.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    http: FRAMEWORK_HTTP_OPTIONS,
    // Start-up includes opening the database and applying migrations, which can take a while.
    pluginTimeout: 120_000,
    forceCloseConnections: 'idle',
    schemaErrorFormatter: (errors, dataVar) => new Error(formatValidationError(errors, dataVar)),
    // Router-level failures happen before any hook: answered as ApiErrors too (credentials
    // first where the prefix requires them), never echoing the path.
    frameworkErrors: answerRoutingError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const validators = createValidators();
  app.setValidatorCompiler(({ schema, httpPart }) => validators.compile(schema, httpPart));

  // JSON only: no text/plain parser (415), and a malformed body never echoes its content.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(body as string, null, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(badRequest(MESSAGES.malformedJson));
    }
  });

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  app.decorate('config', config);
  await app.register(requestIdPlugin);
  await app.register(connectionsPlugin);
  await app.register(errorsPlugin);
  await app.register(compressionPlugin);
  await app.register(databasePlugin, { config, database: options.database, ownsDatabase: options.ownsDatabase });
  await app.register(
    fp(
      async (instance) => {
        const services = createServices(config, instance.db);
        instance.decorate('services', services);
        // Requests in flight at shutdown still get their renders (an upload whose body is still
        // arriving needs its analysis); half the grace period on, every child still running is
        // killed, so the requests waiting on them answer 503 and the server can finish closing.
        let killRenders: NodeJS.Timeout | undefined;
        instance.addHook('preClose', async () => {
          killRenders = setTimeout(() => void services.renderer.close(), config.shutdownGraceMs / 2);
        });
        instance.addHook('onClose', async () => {
          clearTimeout(killRenders);
          await services.renderer.close();
          await services.mockups?.close();
          await services.closeStorage();
        });
      },
      { name: 'services', dependencies: ['database'] },
    ),
  );
  await app.register(backgroundWorkPlugin);
  await app.register(metricsPlugin);
  await app.register(jobsPlugin);
  await app.register(rateLimitPlugin);
  await app.register(authenticationPlugin);
  await app.register(apiKeyGuardPlugin);
  await app.register(idempotencyPlugin);
  // Before every route: its onRoute hook documents the routes registered after it.
  await app.register(openapiPlugin);

  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(templateRoutes, { prefix: '/templates' });
  await app.register(v1Routes, { prefix: '/v1' });
  await app.register(editorRoutes);
  await app.register(sharedModelRoutes, { prefix: '/shared' });
  await app.register(viewerRoutes);
  await app.register(fileRoutes, { prefix: '/files' });
  await app.register(adminRoutes, { prefix: '/admin' });
  await app.register(exportDownloadRoutes, { prefix: '/exports' });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
