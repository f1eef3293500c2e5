// Webhooks an account registers for its exports' outcomes: the URL rules (public http(s) only,
// https in production), the whsec_ secret (shown once, stored sealed), the per-account cap, and
// turning a finished export into one pending message per subscribed webhook.
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { badRequest, conflict, notFound } from '../errors.js';
import type { ApiKeySealer } from '../lib/api-key-crypto.js';
import { createId } from '../lib/ids.js';
import { isPublicAddress } from '../lib/public-address.js';
import type { WebhookRepository, WebhookRow } from '../repositories/webhooks.js';
import type { ExportDto } from './exports.js';

export const WEBHOOK_EVENTS = ['export.succeeded', 'export.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOKS_PER_ACCOUNT = 10;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
const SECRET_BYTES = 32;
const WEBHOOK_ID = /^[a-z0-9]{1,64}$/;
const DELIVERIES_LISTED = 100;

export const WEBHOOK_MESSAGES = {
  notPublic: 'Webhook URL must be a public http(s) address.',
  limit: 'Webhook limit reached.',
  notFound: 'Webhook not found.',
} as const;

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

export interface WebhookDto {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
}

const toDto = (row: WebhookRow): WebhookDto => ({ id: row.id, url: row.url, events: row.events, createdAt: row.createdAt.toISOString() });

export function createWebhookService(repository: WebhookRepository, sealer: ApiKeySealer, policy: WebhookPolicy) {
  const pokes: Array<() => void> = [];

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
      const row = await repository.createCapped({ id, userId, url: input.url, events, sealedSecret: sealer.seal(secret, id) }, WEBHOOKS_PER_ACCOUNT);
      if (row === 'limit-reached') throw conflict(WEBHOOK_MESSAGES.limit);
      return { ...toDto(row), secret };
    },

    async list(userId: string): Promise<WebhookDto[]> {
      return (await repository.list(userId)).map(toDto);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!WEBHOOK_ID.test(id) || !(await repository.deleteOwned(userId, id))) throw notFound(WEBHOOK_MESSAGES.notFound);
    },

    async deliveries(userId: string, id: string) {
      if (!WEBHOOK_ID.test(id) || !(await repository.findOwned(userId, id))) throw notFound(WEBHOOK_MESSAGES.notFound);
      const rows = await repository.deliveries(id, DELIVERIES_LISTED);
      return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
    },

    /** Records the event for every subscribed webhook of the account, then wakes the dispatcher. */
    async exportFinished(userId: string, event: WebhookEvent, dto: ExportDto): Promise<void> {
      const timestamp = new Date();
      const payload = JSON.stringify({ type: event, timestamp: timestamp.toISOString(), data: { export: dto } });
      const count = await repository.enqueue(userId, event, dto.id, payload, timestamp);
      if (count > 0) for (const poke of pokes) poke();
    },

    /** Called when new messages are due. */
    onEnqueued(poke: () => void) {
      pokes.push(poke);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
