// The key-gated public surface. Its first onRequest hook is the key check: onRequest runs before
// body parsing, validation and the handler, so a request without a valid key is a 401 whatever
// else is wrong with it. The per-key rate limit comes second, keyed on the verified key's id.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import templateRoutes from './templates.js';
import v1DesignRoutes from './v1-designs.js';

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

  await app.register(templateRoutes, {
    prefix: '/templates',
    contextErrors: [401, 429],
    security: [{ apiKey: [] }],
  });
  await app.register(v1DesignRoutes);
};

export default v1Routes;
