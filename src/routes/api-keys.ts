// Developer keys of the signed-in account: issue, list (full keys), revoke.
import { Type } from '@sinclair/typebox';
import { ListPageQuery } from '../schemas/paging.js';
import { pageWhenAsked } from './list-paging.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiKeyListReply, ApiKeyReply, IssueApiKeyBody, toApiKeyDto } from '../schemas/api-keys.js';
import { EmptyQuery, errorResponses, IdParams } from '../schemas/common.js';

const security = [{ bearerAuth: [] }];

const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/',
    {
      config: { idempotent: 'body' },
      schema: {
        tags: ['api-keys'],
        summary: 'Issue a developer key for the /v1 surface',
        operationId: 'issueApiKey',
        security,
        querystring: EmptyQuery,
        body: IssueApiKeyBody,
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
        tags: ['api-keys'],
        summary: 'List the developer keys of the account, newest first, with full key values',
        security,
        querystring: ListPageQuery,
        response: { 200: ApiKeyListReply, ...errorResponses(400, 401) },
      },
    },
    async function listApiKeys(request) {
      const apiKeys = await app.services.apiKeys.list(request.userId);
      const { items, nextCursor } = pageWhenAsked(
        apiKeys,
        request.query,
        () => app.services.listCursors('api-keys', request.userId),
        (key) => key,
      );
      const page = { apiKeys: items.map(toApiKeyDto), total: apiKeys.length };
      return nextCursor === undefined ? page : { ...page, nextCursor };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke a developer key; it stops working from the next request',
        operationId: 'revokeApiKey',
        security,
        params: IdParams,
        querystring: EmptyQuery,
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
