import { Type } from '@sinclair/typebox';
import { DELIVERY_EVENTS, WEBHOOK_EVENTS, WEBHOOK_URL_MAX_LENGTH } from '../services/webhooks.js';
import { Id, IsoDateTime, Nullable, StrictObject } from './common.js';
import { ListPageQuery, NextCursor } from './paging.js';

const Event = Type.String({ enum: [...WEBHOOK_EVENTS] });
const DeliveryEvent = Type.String({ enum: [...DELIVERY_EVENTS] });

const webhookFields = {
  id: Id,
  url: Type.String({ description: 'Public http(s) URL the events are POSTed to.' }),
  events: Type.Array(Event),
  createdAt: IsoDateTime,
};

export const WebhookSchema = Type.Object(webhookFields, { $id: 'Webhook', title: 'Webhook', additionalProperties: false });

export const CreateWebhookBody = StrictObject({
  url: Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX_LENGTH }),
  events: Type.Array(Event, { minItems: 1, maxItems: WEBHOOK_EVENTS.length * 4 }),
});

export const CreatedWebhookReply = Type.Object({
  webhook: Type.Object(
    {
      ...webhookFields,
      secret: Type.String({
        pattern: '^whsec_[A-Za-z0-9+/=]+$',
        description: 'The Standard Webhooks signing secret. Shown only in this answer: store it now.',
      }),
    },
    { additionalProperties: false },
  ),
});

export const WebhookListQuery = ListPageQuery;

export const WebhookListReply = Type.Object({
  webhooks: Type.Array(Type.Ref(WebhookSchema), { description: 'Newest first.' }),
  nextCursor: Type.Optional(NextCursor),
});

export const DeliveryParams = StrictObject({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const DeliveryListQuery = ListPageQuery;

export const DeliveryListReply = Type.Object({
  deliveries: Type.Array(
    Type.Object(
      {
        id: Id,
        messageId: Type.String({ description: 'The webhook-id header every attempt of this message carried.' }),
        event: DeliveryEvent,
        exportId: Nullable(Id),
        attempt: Type.Integer({ minimum: 1 }),
        status: Type.String({ enum: ['succeeded', 'failed'] }),
        responseStatus: Nullable(Type.Integer({ description: 'Null after a timeout or when no connection was made.' })),
        nextAttemptAt: Nullable(IsoDateTime),
        createdAt: IsoDateTime,
      },
      { additionalProperties: false },
    ),
    {
      description:
        'One row per attempt, newest first (without limit, the latest 100). ' +
        'nextAttemptAt is set on the newest row of a message while another attempt is due.',
    },
  ),
  nextCursor: Type.Optional(NextCursor),
});

export const QueuedMessageReply = Type.Object({
  message: Type.Object(
    {
      id: Type.String({ description: 'The webhook-id header the delivery carries.' }),
      event: DeliveryEvent,
      exportId: Nullable(Id),
      nextAttemptAt: IsoDateTime,
    },
    { additionalProperties: false, description: 'The message, due now; its attempt shows in the deliveries list once made.' },
  ),
});
