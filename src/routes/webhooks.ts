// /webhooks (JWT) and /v1/webhooks (developer key): the account's webhook endpoints, their
// deliveries, a test event and redelivery. The handlers are the same under both prefixes; only
// the guard and the documented security differ (v1-designs.ts sets the key's).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EmptyQuery, errorResponses, IdParams, NoBody } from '../schemas/common.js';
import {
  CreatedWebhookReply,
  CreateWebhookBody,
  DeliveryListQuery,
  DeliveryListReply,
  DeliveryParams,
  QueuedMessageReply,
  WebhookListQuery,
  WebhookListReply,
} from '../schemas/webhooks.js';
import type { KeyedRouteOptions } from './context-options.js';

const security = [{ bearerAuth: [] }];

const webhookRoutes: FastifyPluginAsyncTypebox<KeyedRouteOptions> = async (app, options) => {
  app.addHook('onRequest', options.guard ?? app.authenticate);

  app.post(
    '/',
    {
      config: { idempotent: 'body' },
      schema: {
        tags: ['webhooks'],
        summary: 'Register a URL for export and project events (at most 10 per account)',
        description:
          'The answer carries the signing secret; it is never shown again. Deliveries follow the Standard Webhooks specification.',
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
        querystring: WebhookListQuery,
        response: { 200: WebhookListReply, ...errorResponses(400, 401) },
      },
    },
    async (request) => app.services.webhooks.list(request.userId, request.query),
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
        querystring: DeliveryListQuery,
        response: { 200: DeliveryListReply, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => app.services.webhooks.deliveries(request.userId, request.params.id, request.query),
  );

  app.post(
    '/:id/test',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Send a signed webhook.test event to the webhook now',
        description: 'The event is delivered like any other (signature, retries); its attempts show in the deliveries list.',
        security,
        params: IdParams,
        querystring: EmptyQuery,
        body: NoBody,
        response: { 202: QueuedMessageReply, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request, reply) => reply.code(202).send({ message: await app.services.webhooks.sendTest(request.userId, request.params.id) }),
  );

  app.post(
    '/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags: ['webhooks'],
        summary: "Send a delivery's message again: a new attempt under the same webhook-id",
        security,
        params: DeliveryParams,
        querystring: EmptyQuery,
        body: NoBody,
        response: { 202: QueuedMessageReply, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const message = await app.services.webhooks.redeliver(request.userId, request.params.id, request.params.deliveryId);
      return reply.code(202).send({ message });
    },
  );
};

export default webhookRoutes;
