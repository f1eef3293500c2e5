// Share links of the caller's project: create, list, revoke. Registered under /projects; JWT.
import { Type } from '@sinclair/typebox';
import { ListPageQuery } from '../schemas/paging.js';
import { pageWhenAsked } from './list-paging.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, IdParams } from '../schemas/common.js';
import { CreateShareBody, ShareListReply, ShareParams, ShareReply, toShareDto } from '../schemas/shares.js';
import { routeDefaults } from './route-defaults.js';

const projectShareRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'shares');
  // PUBLIC_BASE_URL, or a relative URL: never built from Host or X-Forwarded-* (a client could name any site).
  const baseUrl = app.config.publicBaseUrl ?? '';

  app.post(
    '/:id/shares',
    {
      config: { idempotent: 'body' },
      schema: {
        summary: "Create a share link: the project's 3D model in the viewer, read-only, for anyone with the link",
        operationId: 'createShare',
        params: IdParams,
        body: CreateShareBody,
        response: { 201: ShareReply, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async function createShare(request, reply) {
      const share = await app.services.shares.create(request.userId, request.params.id, request.body?.expiresInDays, baseUrl);
      return reply.code(201).send({ share: toShareDto(share) });
    },
  );

  app.get(
    '/:id/shares',
    {
      schema: {
        summary: "List the project's share links, newest first",
        operationId: 'listShares',
        params: IdParams,
        querystring: ListPageQuery,
        response: { 200: ShareListReply, ...errorResponses(400, 401, 404) },
      },
    },
    async function listShares(request) {
      const shares = await app.services.shares.list(request.userId, request.params.id, baseUrl);
      const list = `shares:${request.params.id}`;
      const cursors = () => app.services.listCursors(list, request.userId);
      const { items, ...next } = pageWhenAsked(shares, request.query, cursors);
      return { shares: items.map(toShareDto), ...next };
    },
  );

  app.delete(
    '/:id/shares/:shareId',
    {
      schema: {
        summary: 'Revoke a share link; it stops working at once on every process',
        operationId: 'revokeShare',
        params: ShareParams,
        response: { 204: Type.Null({ description: 'Revoked. Empty body.' }), ...errorResponses(400, 401, 404) },
      },
    },
    async function revokeShare(request, reply) {
      await app.services.shares.revoke(request.userId, request.params.id, request.params.shareId);
      return reply.code(204).send(null);
    },
  );
};

export default projectShareRoutes;
