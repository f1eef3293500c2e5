// What a webhook receives: one POST per event, signed after Standard Webhooks. Published as the
// OpenAPI document's `webhooks` section (so the generated client types every payload).
import { Type, type TSchema } from '@sinclair/typebox';
import { IsoDateTime } from './common.js';

const ref = (name: string) => Type.Unsafe<unknown>({ $ref: `#/components/schemas/${name}` });

const envelope = (type: string, data: TSchema, title: string) =>
  Type.Object({ type: Type.Literal(type), timestamp: IsoDateTime, data }, { additionalProperties: false, title });

const ProjectUpdated = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    templateId: Type.String(),
    version: Type.Integer({ minimum: 1, description: 'The version the change made.' }),
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false },
);

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The message id: the same on every attempt and redelivery of one event.' },
  { name: 'webhook-timestamp', description: 'Unix time in seconds of this attempt (fresh on every attempt).' },
  {
    name: 'webhook-signature',
    description: 'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> keyed with the decoded secret.',
  },
].map((header) => ({ ...header, in: 'header', required: true, schema: { type: 'string' } }));

/** The event's entry: its operationId is the event's name in camelCase (export.succeeded → exportSucceeded). */
function webhook(event: string, summary: string, data: TSchema) {
  const operationId = event.replace(/\.([a-z])/g, (_m, c: string) => c.toUpperCase());
  const post = {
    tags: ['webhooks'],
    operationId,
    summary,
    description:
      `${summary}. Verify the signature with the webhook's secret before trusting the body; ` +
      `answer 2xx within 10 s, or the delivery is retried (at least 5 attempts over 30 minutes).`,
    security: [],
    parameters: SIGNATURE_HEADERS,
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: envelope(event, data, `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Payload`) },
      },
    },
    responses: { '200': { description: 'Received (any 2xx status counts).' } },
  };
  return [event, { post }] as const;
}

export const WEBHOOK_PAYLOADS = Object.fromEntries([
  webhook(
    'export.succeeded',
    'An export finished: its downloadUrl is set',
    Type.Object({ export: ref('Export') }, { additionalProperties: false }),
  ),
  webhook(
    'export.failed',
    'An export failed: its error says why (with the findings of a refused print)',
    Type.Object({ export: ref('Export') }, { additionalProperties: false }),
  ),
  webhook(
    'project.updated',
    'A project changed (an update or a restore)',
    Type.Object({ project: ProjectUpdated }, { additionalProperties: false }),
  ),
  webhook(
    'project.deleted',
    'A project was deleted',
    Type.Object({ project: Type.Object({ id: Type.String() }, { additionalProperties: false }) }, { additionalProperties: false }),
  ),
  webhook(
    'webhook.test',
    'Sent on request (POST /webhooks/{id}/test) to check the endpoint and its signature check',
    Type.Object({ webhook: Type.Object({ id: Type.String() }, { additionalProperties: false }) }, { additionalProperties: false }),
  ),
]);
