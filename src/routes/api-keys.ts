// Developer keys of the signed-in account: issue, list (full keys), revoke.
import { Type } from '@sinclair/typebox';
import { ListPageQuery } from '../schemas/paging.js';
import { pageWhenAsked } from './list-paging.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiKeyListReply, ApiKeyReply, toApiKeyDto } from '../schemas/api-keys.js';
import { errorResponses, IdParams, NoBody } from '../schemas/common.js';
import { routeDefaults } from './route-defaults.js';

const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'api-keys');

  app.post(
    '/',
    {
      config: { idempotent: 'body' },
      schema: {
        summary: 'Issue a developer key for the /v1 surface',
        operationId: 'issueApiKey',
        body: NoBody,
        response: { 201: ApiKeyReply, ...errorResponses(400, 401, 409, 413, 415) },
      },
    },
    async function issueApiKey(request, reply) {
      const apiKey = await app.services.apiKeys.issue(request.userId);
      return reply.code(201).send({ apiKey: toApiKeyDto(apiKey) });
    },
  );

  app.get(
    '/',
    {
      schema: {
        summary: 'List the developer keys of the account, newest first, with full key values',
        querystring: ListPageQuery,
        response: { 200: ApiKeyListReply, ...errorResponses(400, 401) },
      },
    },
    async function listApiKeys(request) {
      const apiKeys = await app.services.apiKeys.list(request.userId);
      const { items, ...next } = pageWhenAsked(apiKeys, request.query, () => app.services.listCursors('api-keys', request.userId));
      return { apiKeys: items.map(toApiKeyDto), total: apiKeys.length, ...next };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        summary: 'Revoke a developer key; it stops working from the next request',
        operationId: 'revokeApiKey',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Revoked. Empty body.' }), ...errorResponses(400, 401, 404) },
      },
    },
    async function revokeApiKey(request, reply) {
      await app.services.apiKeys.revoke(request.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default apiKeyRoutes;
