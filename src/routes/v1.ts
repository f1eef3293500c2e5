// The key-gated public surface: the catalog and the design routes, served by the very modules of the
// public catalog and of the editor. Its first onRequest hook is the key check: onRequest runs before
// body parsing, validation and the handler, so a request without a valid key is a 401 whatever
// else is wrong with it, and the key's owner is the caller. The per-key rate limit comes second,
// keyed on the verified key's id. Every route here is documented with the apiKey scheme (the
// guard's), the key check's 401 and the rate limit's 429.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { v1OperationId } from '../plugins/openapi-conventions.js';
import { errorResponses } from '../schemas/common.js';
import designRoutes from './design.js';
import templateRoutes from './templates.js';

function verifiedKeyId(request: FastifyRequest): string {
  if (!request.apiKey) throw new Error('app.requireApiKey did not set request.apiKey');
  return request.apiKey.id;
}

const v1Routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.requireApiKey);

  const perMinute = app.config.rateLimit.v1PerMinute;
  if (perMinute > 0) {
    app.addHook('onRequest', app.rateLimit({ max: perMinute, timeWindow: 60_000, keyGenerator: verifiedKeyId }));
  }

  // A new schema each time: a route's variants (with and without the prefix's trailing slash, the
  // HEAD of a GET) come through this hook sharing one schema object.
  app.addHook('onRoute', (route) => {
    if (!route.schema) return;
    // A route the editor names explicitly keeps the name here as its /v1 twin's.
    const { operationId, response } = route.schema;
    route.schema = {
      ...route.schema,
      ...(typeof operationId === 'string' ? { operationId: v1OperationId(operationId) } : {}),
      response: { ...(response as object), ...errorResponses(401, 429) },
    };
  });

  await app.register(templateRoutes, { prefix: '/templates', behindKey: true });
  await app.register(designRoutes, { basePath: '/v1' });
};

export default v1Routes;
