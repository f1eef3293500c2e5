import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX_LENGTH } from '../services/webhooks.js';
import { Id, IsoDateTime, StrictObject } from './common.js';

const Event = Type.String({ enum: [...WEBHOOK_EVENTS] });

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

export const WebhookListReply = Type.Object({ webhooks: Type.Array(Type.Ref(WebhookSchema), { description: 'Newest first.' }) });

export const DeliveryListReply = Type.Object({
  deliveries: Type.Array(
    Type.Object(
      {
        id: Id,
        event: Event,
        exportId: Id,
        attempt: Type.Integer({ minimum: 1 }),
        status: Type.String({ enum: ['succeeded', 'failed'] }),
        responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'Null after a timeout or when no connection was made.' }),
        createdAt: IsoDateTime,
      },
      { additionalProperties: false },
    ),
    { description: 'One row per attempt, newest first (the latest 100).' },
  ),
});
