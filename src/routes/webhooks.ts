// /webhooks (JWT) and /v1/webhooks (developer key): the account's webhook endpoints, their
// deliveries, a test event and redelivery. The handlers are the same under both prefixes; only
// the guard, and with it the documented security, differs.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, IdParams, NoBody } from '../schemas/common.js';
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
import { routeDefaults } from './route-defaults.js';

const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'webhooks');

  app.post(
    '/',
    {
      config: { idempotent: 'body' },
      schema: {
        summary: 'Register a URL for export and project events (at most 10 per account)',
        description:
          'The answer carries the signing secret; it is never shown again. Deliveries follow the Standard Webhooks specification.',
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
        summary: "List the account's webhooks, newest first (without secrets)",
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
        summary: 'Remove a webhook; its pending deliveries are dropped',
        params: IdParams,
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
        summary: "A webhook's delivery attempts, newest first",
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
        summary: 'Send a signed webhook.test event to the webhook now',
        description: 'The event is delivered like any other (signature, retries); its attempts show in the deliveries list.',
        params: IdParams,
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
        summary: "Send a delivery's message again: a new attempt under the same webhook-id",
        params: DeliveryParams,
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
