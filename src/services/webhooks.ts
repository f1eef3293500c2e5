// Webhooks an account registers for its exports' outcomes and its projects' changes: the URL rules
// (public http(s) only, https in production), the whsec_ secret (shown once, stored sealed), the
// per-account cap, turning an event into one pending message per subscribed webhook, the test
// event and redelivery (both only record a due message: whatever delivers sends it).
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { badRequest, conflict } from '../errors.js';
import type { SecretSealer } from '../lib/secret-sealer.js';
import { createId, foundOr404 } from '../lib/ids.js';
import { isPublicAddress } from '../lib/public-address.js';
import { pageOf, type ListCursorFactory } from '../lib/cursors.js';
import type { PendingMessage, WebhookRepository, WebhookRow } from '../repositories/webhooks.js';
import type { ExportDto } from './exports.js';
import type { ProjectEventListener } from './projects.js';

/** The events a webhook subscribes to. */
export const WEBHOOK_EVENTS = ['export.succeeded', 'export.failed', 'project.updated', 'project.deleted'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent on request only (POST /webhooks/:id/test), whatever the webhook subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const DELIVERY_EVENTS = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT] as const;
export const WEBHOOKS_PER_ACCOUNT = 10;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
const SECRET_BYTES = 32;
/** Without `limit`, the deliveries list shows this many (the newest). */
export const DELIVERIES_LISTED = 100;

export const WEBHOOK_MESSAGES = {
  notPublic: 'Webhook URL must be a public http(s) address.',
  limit: 'Webhook limit reached.',
  notFound: 'Webhook not found.',
  deliveryNotFound: 'Delivery not found.',
} as const;

export type QueuedMessageDto = Omit<PendingMessage, 'nextAttemptAt'> & { nextAttemptAt: string };

/** A message's body: the Standard Webhooks envelope. */
const payloadOf = (type: string, timestamp: Date, data: object) => JSON.stringify({ type, timestamp: timestamp.toISOString(), data });

const messageDto = (row: PendingMessage): QueuedMessageDto => ({ ...row, nextAttemptAt: row.nextAttemptAt.toISOString() });

export interface WebhookPolicy {
  allowPrivate: boolean;
  production: boolean;
}

export class WebhookAddressError extends Error {}

/**
 * The URL's host resolved to the one address a delivery may connect to (every address it resolves
 * to must be public). Throws WebhookAddressError for a URL the policy refuses.
 */
export async function resolveWebhookUrl(raw: string, policy: WebhookPolicy): Promise<{ url: URL; address: string; family: 4 | 6 }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookAddressError('not a URL');
  }
  const httpsRequired = policy.production && !policy.allowPrivate;
  if (url.protocol !== 'https:' && (url.protocol !== 'http:' || httpsRequired)) throw new WebhookAddressError('scheme');
  if (url.username !== '' || url.password !== '') throw new WebhookAddressError('credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new WebhookAddressError('unresolvable');
  }
  if (addresses.length === 0) throw new WebhookAddressError('unresolvable');
  if (!policy.allowPrivate && !addresses.every((entry) => isPublicAddress(entry.address))) throw new WebhookAddressError('not public');
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export type WebhookDto = Pick<WebhookRow, 'id' | 'url' | 'events'> & { createdAt: string };

const toDto = (row: WebhookRow): WebhookDto => ({ id: row.id, url: row.url, events: row.events, createdAt: row.createdAt.toISOString() });

export function createWebhookService(
  repository: WebhookRepository,
  sealer: SecretSealer,
  policy: WebhookPolicy,
  cursors: ListCursorFactory,
) {
  /** enqueued: new messages are due. */
  const events = new EventEmitter<{ enqueued: [] }>();
  const wake = () => events.emit('enqueued');

  const owned = (userId: string, id: string): Promise<WebhookRow> =>
    foundOr404(id, WEBHOOK_MESSAGES.notFound, () => repository.findOwned(userId, id));

  async function record(userId: string, event: WebhookEvent, data: object, subject: { exportId: string } | null): Promise<void> {
    const timestamp = new Date();
    const payload = payloadOf(event, timestamp, data);
    const count = await repository.enqueue(userId, event, subject ?? { messageId: () => `msg_${createId()}` }, payload, timestamp);
    if (count > 0) wake();
  }

  return {
    async create(userId: string, input: { url: string; events: string[] }): Promise<WebhookDto & { secret: string }> {
      if (input.url.length > WEBHOOK_URL_MAX_LENGTH) throw badRequest(WEBHOOK_MESSAGES.notPublic);
      try {
        await resolveWebhookUrl(input.url, policy);
      } catch (error) {
        if (error instanceof WebhookAddressError) throw badRequest(WEBHOOK_MESSAGES.notPublic);
        throw error;
      }
      const id = createId();
      const secret = `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
      const events = [...new Set(input.events)];
      const row = await repository.createCapped(
        { id, userId, url: input.url, events, sealedSecret: sealer.seal(secret, id) },
        WEBHOOKS_PER_ACCOUNT,
      );
      if (row === 'limit-reached') throw conflict(WEBHOOK_MESSAGES.limit);
      return { ...toDto(row), secret };
    },

    /** Newest first; a page (with nextCursor) when `limit` is given. */
    async list(
      userId: string,
      query: { limit?: number; cursor?: string } = {},
    ): Promise<{ webhooks: WebhookDto[]; nextCursor?: string | null }> {
      if (query.limit === undefined && query.cursor === undefined) return { webhooks: (await repository.list(userId)).map(toDto) };
      const listCursors = cursors('webhooks', userId);
      const after = query.cursor === undefined ? null : listCursors.decode(query.cursor);
      const limit = query.limit ?? WEBHOOKS_PER_ACCOUNT;
      const { page, nextCursor } = pageOf(await repository.list(userId, { limit: limit + 1, after }), limit, listCursors);
      return { webhooks: page.map(toDto), nextCursor };
    },

    async remove(userId: string, id: string): Promise<void> {
      await foundOr404(id, WEBHOOK_MESSAGES.notFound, () => repository.deleteOwned(userId, id));
    },

    /** Newest first; without `limit` the newest 100 and no cursor, as before paging. */
    async deliveries(userId: string, id: string, query: { limit?: number; cursor?: string } = {}) {
      await owned(userId, id);
      const listCursors = cursors(`webhook-deliveries:${id}`, userId);
      const after = query.cursor === undefined ? null : listCursors.decode(query.cursor);
      const limit = query.limit ?? DELIVERIES_LISTED;
      const paged = query.limit !== undefined || query.cursor !== undefined;
      const rows = await repository.deliveries(id, { limit: paged ? limit + 1 : limit, after });
      const { page, nextCursor } = pageOf(rows, limit, listCursors);
      return {
        deliveries: page.map((row) => ({
          ...row,
          nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
          createdAt: row.createdAt.toISOString(),
        })),
        ...(paged ? { nextCursor } : {}),
      };
    },

    /** A signed webhook.test message for this webhook, due now. */
    async sendTest(userId: string, id: string): Promise<QueuedMessageDto> {
      const webhook = await owned(userId, id);
      const timestamp = new Date();
      const payload = payloadOf(WEBHOOK_TEST_EVENT, timestamp, { webhook: { id: webhook.id } });
      const message = await repository.enqueueOne(
        { id: `msg_${createId()}`, webhookId: webhook.id, event: WEBHOOK_TEST_EVENT, exportId: null, payload },
        timestamp,
      );
      wake();
      return messageDto(message);
    },

    /** The delivery's message is due again: a new attempt under the same webhook-id. */
    async redeliver(userId: string, id: string, deliveryId: string): Promise<QueuedMessageDto> {
      await owned(userId, id);
      const message = await foundOr404(deliveryId, WEBHOOK_MESSAGES.deliveryNotFound, () =>
        repository.redeliver(userId, id, deliveryId, new Date()),
      );
      wake();
      return messageDto(message);
    },

    /** Records the event for every subscribed webhook of the account, then wakes the dispatcher. */
    async exportFinished(userId: string, event: 'export.succeeded' | 'export.failed', dto: ExportDto): Promise<void> {
      await record(userId, event, { export: dto }, { exportId: dto.id });
    },

    async projectChanged(userId: string, event: 'project.updated' | 'project.deleted', project: Parameters<ProjectEventListener>[2]) {
      await record(userId, event, { project }, null);
    },

    events,
  };
}
