// /v1 for designs: a developer key's account's projects, preflight, assets, exports and webhooks, served by the very
// route modules the editor uses (behind the key check and the key's rate limit of the /v1
// context). The key's owner becomes the request's caller; inside this context every route is
// documented with the apiKey scheme and the context's 429.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { MESSAGES, unauthorized } from '../errors.js';
import { ApiErrorSchema } from '../schemas/common.js';
import assetRoutes from './assets.js';
import barcodeRoutes from './barcodes.js';
import fontRoutes from './fonts.js';
import { exportRoutes, projectExportRoutes } from './exports.js';
import { projectPreflightRoutes } from './project-print.js';
import projectRoutes from './projects.js';
import webhookRoutes from './webhooks.js';

const KEY_SECURITY = [{ apiKey: [] }];

const v1DesignRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** After app.requireApiKey: the key's account acts, at its current token generation. */
  async function keyOwnerAsCaller(request: FastifyRequest): Promise<void> {
    if (!request.apiKey) throw new Error('app.requireApiKey did not set request.apiKey');
    const user = await app.services.auth.findUser(request.apiKey.userId);
    if (!user) throw unauthorized(MESSAGES.invalidApiKey);
    request.userId = user.id;
    request.account = user;
    request.caller = { userId: user.id, tokenGeneration: user.tokenGeneration };
  }

  app.addHook('onRoute', (route) => {
    if (!route.schema) return;
    route.schema.security = KEY_SECURITY;
    // The editor's route keeps its explicit operationId; this one is the /v1 twin of it.
    const operationId = route.schema.operationId;
    if (typeof operationId === 'string') route.schema.operationId = `v1${operationId[0]!.toUpperCase()}${operationId.slice(1)}`;
    route.schema.response = { ...(route.schema.response as object), 429: Type.Ref(ApiErrorSchema) };
  });

  const keyed = { guard: keyOwnerAsCaller };
  await app.register(projectRoutes, { prefix: '/projects', ...keyed });
  await app.register(projectExportRoutes, { prefix: '/projects', basePath: '/v1', security: KEY_SECURITY, ...keyed });
  await app.register(exportRoutes, { prefix: '/exports', basePath: '/v1', security: KEY_SECURITY, ...keyed });
  await app.register(assetRoutes, { prefix: '/assets', ...keyed });
  await app.register(barcodeRoutes, { prefix: '/barcodes', ...keyed });
  await app.register(projectPreflightRoutes, { prefix: '/projects', ...keyed });
  await app.register(webhookRoutes, { prefix: '/webhooks', ...keyed });
  await app.register(fontRoutes, { prefix: '/fonts', ...keyed });
};

export default v1DesignRoutes;
