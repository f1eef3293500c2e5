// Sends due webhook messages, one attempt each, following Standard Webhooks: the webhook-id stays
// the message's, every attempt gets a fresh webhook-timestamp and signature. The URL is resolved
// again at every attempt and the connection is pinned to the checked address (no DNS rebinding),
// redirects are not followed, and at most a few KB of the answer are read (only its status is kept).
// Fair by account: at most ACCOUNT_IN_FLIGHT_MAX of one account's deliveries are in flight, and
// each pass takes due messages from the accounts in turn, so endpoints that never answer hold up
// only their own account's deliveries. A delivery that ends makes room at once (the next pass).
import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SecretSealer } from '../lib/secret-sealer.js';
import { createId } from '../lib/ids.js';
import type { MessageRow, WebhookRepository } from '../repositories/webhooks.js';
import { resolveWebhookUrl, WebhookAddressError, type WebhookPolicy } from '../services/webhooks.js';

const BATCH = 10;
/** Deliveries in flight at once per process; more wait for the next pass. */
const IN_FLIGHT_MAX = 50;
/** Deliveries of one account in flight at once per process: its dead endpoints hold no more. */
export const ACCOUNT_IN_FLIGHT_MAX = 4;
const RESPONSE_BYTES_READ = 4096;

export type DeliveryOutcome = 'succeeded' | 'failed' | 'timeout' | 'refused';

export interface DispatcherOptions {
  repository: WebhookRepository;
  sealer: SecretSealer;
  policy: WebhookPolicy;
  retryDelaysMs: number[];
  timeoutMs: number;
  pollMs: number;
  onDelivery?: (outcome: DeliveryOutcome) => void;
  onError?: (error: unknown) => void;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the secret's decoded bytes. */
export function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** One POST; resolves with the status, or null after a timeout or a connection failure. */
async function post(
  message: MessageRow,
  secret: string,
  options: DispatcherOptions,
): Promise<{ status: number | null; outcome: DeliveryOutcome }> {
  let target: Awaited<ReturnType<typeof resolveWebhookUrl>>;
  try {
    target = await resolveWebhookUrl(message.url, options.policy);
  } catch (error) {
    if (error instanceof WebhookAddressError) return { status: null, outcome: 'refused' };
    throw error;
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const body = Buffer.from(message.payload, 'utf8');
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number | null, outcome: DeliveryOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, outcome });
    };
    const request = send(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': 'packaging-api-webhooks',
          'webhook-id': message.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signStandardWebhook(secret, message.id, timestamp, message.payload),
        },
      },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? null;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_BYTES_READ) response.destroy();
        });
        const done = () => finish(status, status !== null && status >= 200 && status < 300 ? 'succeeded' : 'failed');
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish(null, 'timeout');
    }, options.timeoutMs);
    request.on('error', () => finish(null, 'failed'));
    request.end(body);
  });
}

export function createWebhookDispatcher(options: DispatcherOptions) {
  const { repository } = options;
  const maxAttempts = options.retryDelaysMs.length + 1;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  const inFlight = new Set<Promise<void>>();
  const accountInFlight = new Map<string, number>();

  async function deliver(message: MessageRow): Promise<void> {
    const secret = options.sealer.open(message.sealedSecret, message.webhookId);
    const { status, outcome } = await post(message, secret, options);
    const at = new Date();
    const attempt = message.attempts + 1;
    const ok = outcome === 'succeeded';
    const next = ok
      ? ({ status: 'delivered' } as const)
      : attempt >= maxAttempts
        ? ({ status: 'failed' } as const)
        : ({ status: 'pending', nextAttemptAt: new Date(at.getTime() + options.retryDelaysMs[attempt - 1]!) } as const);
    await repository.recordAttempt(message, { id: createId(), ok, responseStatus: status, at }, next);
    options.onDelivery?.(outcome);
  }

  async function pass(): Promise<void> {
    do {
      again = false;
      const room = Math.min(BATCH, IN_FLIGHT_MAX - inFlight.size);
      if (room <= 0) return;
      const now = new Date();
      const accountRoom = (userId: string) => ACCOUNT_IN_FLIGHT_MAX - (accountInFlight.get(userId) ?? 0);
      const messages = await repository.claimDue(now, new Date(now.getTime() + options.timeoutMs * 2 + 5_000), room, accountRoom);
      for (const message of messages) {
        accountInFlight.set(message.userId, (accountInFlight.get(message.userId) ?? 0) + 1);
        const delivery = deliver(message).catch((error: unknown) => options.onError?.(error));
        inFlight.add(delivery);
        void delivery.finally(() => {
          inFlight.delete(delivery);
          const left = (accountInFlight.get(message.userId) ?? 1) - 1;
          if (left > 0) accountInFlight.set(message.userId, left);
          else accountInFlight.delete(message.userId);
          // Room for this account (or the process) again: due messages need not wait for the poll.
          tick();
        });
      }
      if (messages.length === room) again = true;
    } while (again && !stopped);
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  function tick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = null;
        schedule(options.pollMs);
      });
  }

  return {
    start() {
      schedule(0);
    },
    /** New messages are due now. */
    poke() {
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await Promise.allSettled([...inFlight]);
    },
  };
}
