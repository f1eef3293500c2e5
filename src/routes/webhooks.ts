// /webhooks: the signed-in account's webhook endpoints for export outcomes, and their deliveries.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EmptyQuery, errorResponses, IdParams } from '../schemas/common.js';
import { CreatedWebhookReply, CreateWebhookBody, DeliveryListReply, WebhookListReply } from '../schemas/webhooks.js';

const security = [{ bearerAuth: [] }];

const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Register a URL for export.succeeded and export.failed events (at most 10 per account)',
        description: 'The answer carries the signing secret; it is never shown again. Deliveries follow the Standard Webhooks specification.',
        security,
        querystring: EmptyQuery,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookReply, ...errorResponses(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const webhook = await app.services.webhooks.create(request.userId, request.body);
      return reply.code(201).send({ webhook });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['webhooks'],
        summary: "List the account's webhooks, newest first (without secrets)",
        security,
        querystring: EmptyQuery,
        response: { 200: WebhookListReply, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ webhooks: await app.services.webhooks.list(request.userId) }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Remove a webhook; its pending deliveries are dropped',
        security,
        params: IdParams,
        querystring: EmptyQuery,
        response: { 204: Type.Null({ description: 'Removed. Empty body.' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await app.services.webhooks.remove(request.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:id/deliveries',
    {
      schema: {
        tags: ['webhooks'],
        summary: "A webhook's delivery attempts, newest first",
        security,
        params: IdParams,
        querystring: EmptyQuery,
        response: { 200: DeliveryListReply, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ deliveries: await app.services.webhooks.deliveries(request.userId, request.params.id) }),
  );
};

export default webhookRoutes;
