import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DatabaseUnavailableError } from '../errors.js';
import { errorResponses } from '../schemas/common.js';
import { routeDefaults } from './route-defaults.js';

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'health');
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness: the process is up (never touches the database)',
        response: { 200: Type.Object({ status: Type.Literal('ok') }), ...errorResponses(400) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        summary: 'Readiness: the database answers (and the object storage, when S3_BUCKET is set)',
        description: 'With REDIS_URL, workers counts the render workers that answered in the last minute; 0 is still ready (exports wait).',
        operationId: 'getReadiness',
        response: {
          200: Type.Object(
            { status: Type.Literal('ready'), workers: Type.Optional(Type.Integer({ minimum: 0 })) },
            { additionalProperties: false },
          ),
          ...errorResponses(400, 503),
        },
      },
    },
    async (request) => {
      try {
        await app.db.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        throw new DatabaseUnavailableError({ cause: error });
      }
      const { storage } = app.services;
      if (storage.check) {
        // Already a StorageUnavailableError (503 "Storage is unavailable.") when it fails.
        await storage.check().catch((error: unknown) => {
          request.log.warn({ err: error }, 'readiness check failed: object storage');
          throw error;
        });
      }
      const workers = await app.jobs.workers().catch((error: unknown) => {
        request.log.warn({ err: error }, 'readiness check: the render workers could not be counted');
        return 0;
      });
      return workers === null ? { status: 'ready' as const } : { status: 'ready' as const, workers };
    },
  );
};

export default healthRoutes;
