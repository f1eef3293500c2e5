// buildApp(config) assembles the service; it never listens and never touches process signals
// (src/server.ts does). Register order: framework setup → cross-cutting plugins → services → routes.
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { badRequest, MESSAGES } from './errors.js';
import { createValidators, formatValidationError } from './lib/validation.js';
import authenticationPlugin from './plugins/authentication.js';
import databasePlugin from './plugins/database.js';
import errorHandlerPlugin from './plugins/error-handler.js';
import rateLimitPlugin from './plugins/rate-limit.js';
import requestIdPlugin, { generateRequestId } from './plugins/request-id.js';
import authRoutes from './routes/auth.js';
import healthRoutes from './routes/health.js';
import templateRoutes from './routes/templates.js';
import { ApiErrorSchema } from './schemas/common.js';
import { UserSchema } from './schemas/auth.js';
import { CategorySchema, TemplateSchema } from './schemas/templates.js';
import { createServices } from './services/index.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

export interface BuildOptions {
  /** A database opened by the caller (tests); otherwise the app opens config.database itself. */
  database?: Database;
  /** Overrides the logger (tests pass false or a silent level). */
  logger?: FastifyServerOptions['logger'];
}

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.passwordHash',
];

export async function buildApp(config: Config, options: BuildOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    requestIdHeader: false,
    genReqId: generateRequestId,
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    // Timeouts against slow-loris clients when no proxy sits in front.
    connectionTimeout: 0,
    requestTimeout: 120_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    schemaErrorFormatter: (errors, dataVar) => new Error(formatValidationError(errors, dataVar)),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const validators = createValidators();
  app.setValidatorCompiler(({ schema, httpPart }) => validators.compilerFor(httpPart).compile(schema));

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

  for (const schema of [ApiErrorSchema, TemplateSchema, CategorySchema, UserSchema]) app.addSchema(schema);

  app.decorate('config', config);
  await app.register(requestIdPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(databasePlugin, { config, database: options.database });
  await app.register(
    fp(
      async (instance) => {
        instance.decorate('services', createServices(config, instance.db));
      },
      { name: 'services', dependencies: ['database'] },
    ),
  );
  await app.register(rateLimitPlugin);
  await app.register(authenticationPlugin);

  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(templateRoutes, { prefix: '/templates' });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
