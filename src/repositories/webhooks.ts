// Webhooks, their pending messages (the retry state, so a restart loses none) and one row per
// delivery attempt. A message is claimed for one attempt with a compare-and-set on its lease, so
// two processes never send the same attempt.
import type { PrismaClient, Webhook, WebhookDelivery, WebhookMessage } from '../generated/prisma/client.js';
import { keysetPage, type ListPosition } from '../lib/cursors.js';
import { inTransaction, selectRows, type SqlDriverAdapter } from './driver-sql.js';
import { lockAccount } from './users.js';

/** A webhook with its events as a list (the column holds them comma-separated). */
export type WebhookRow = Omit<Webhook, 'events'> & { events: string[] };

/** A message claimed for one attempt, with its webhook's address, secret and account (deliveries are shared fairly by account). */
export type MessageRow = Pick<WebhookMessage, 'id' | 'webhookId' | 'event' | 'exportId' | 'payload' | 'attempts'> &
  Pick<Webhook, 'url' | 'sealedSecret' | 'userId'>;

/** nextAttemptAt: when the message's next attempt is due, on its newest row while one is; else null. */
export type DeliveryRow = Omit<WebhookDelivery, 'webhookId'> & { nextAttemptAt: Date | null };

/** A message waiting for its next attempt, as the test and redeliver routes answer it. */
export type PendingMessage = Pick<WebhookMessage, 'id' | 'event' | 'exportId' | 'nextAttemptAt'>;

export type NewMessage = Pick<WebhookMessage, 'id' | 'webhookId' | 'event' | 'exportId' | 'payload'>;

const pendingFields = { id: true, event: true, exportId: true, nextAttemptAt: true } as const;

const toWebhook = (row: Webhook): WebhookRow => ({ ...row, events: row.events.split(',') });

export function createWebhookRepository(prisma: PrismaClient, sql: SqlDriverAdapter) {
  return {
    /** Inserts unless the account already has `max`; serialised per account on its user row. */
    createCapped(row: Omit<WebhookRow, 'createdAt'>, max: number): Promise<WebhookRow | 'limit-reached'> {
      return inTransaction(sql, async (tx) => {
        await lockAccount(tx, row.userId);
        const [created] = await selectRows<Omit<Webhook, 'createdAt'> & { createdAt: string }>(
          tx,
          `INSERT INTO "webhooks" ("id", "userId", "url", "events", "sealedSecret")
           SELECT $1::text, $2::text, $3::text, $4::text, $5::text
            WHERE (SELECT count(*) FROM "webhooks" WHERE "userId" = $2::text) < $6::int
           RETURNING "id", "userId", "url", "events", "sealedSecret", "createdAt"`,
          [row.id, row.userId, row.url, row.events.join(','), row.sealedSecret, max],
        );
        return created ? toWebhook({ ...created, createdAt: new Date(created.createdAt) }) : 'limit-reached';
      });
    },

    /** Newest first; with a page, strictly after its position and at most its limit. */
    async list(userId: string, page?: { limit: number; after: ListPosition | null }): Promise<WebhookRow[]> {
      const { where, orderBy } = keysetPage(page?.after);
      const rows = await prisma.webhook.findMany({ where: { userId, ...where }, orderBy, ...(page ? { take: page.limit } : {}) });
      return rows.map(toWebhook);
    },

    async findOwned(userId: string, id: string): Promise<WebhookRow | null> {
      const row = await prisma.webhook.findFirst({ where: { id, userId } });
      return row ? toWebhook(row) : null;
    },

    async deleteOwned(userId: string, id: string): Promise<boolean> {
      const { count } = await prisma.webhook.deleteMany({ where: { id, userId } });
      return count > 0;
    },

    /** Newest first, strictly after `after`; `limit` rows (the caller asks one more to know whether more follow). */
    async deliveries(webhookId: string, page: { limit: number; after: ListPosition | null }): Promise<DeliveryRow[]> {
      const { where, orderBy } = keysetPage(page.after);
      const rows = await prisma.webhookDelivery.findMany({
        where: { webhookId, ...where },
        orderBy,
        take: page.limit,
        include: { message: { select: { status: true, nextAttemptAt: true } } },
      });
      const newest = new Map<string, number>();
      if (rows.length > 0) {
        const latest = await prisma.webhookDelivery.groupBy({
          by: ['messageId'],
          where: { messageId: { in: [...new Set(rows.map((row) => row.messageId))] } },
          _max: { attempt: true },
        });
        for (const entry of latest) newest.set(entry.messageId, entry._max.attempt ?? 0);
      }
      return rows.map(({ message, webhookId: _webhookId, ...row }) => ({
        ...row,
        nextAttemptAt: message.status === 'pending' && newest.get(row.messageId) === row.attempt ? message.nextAttemptAt : null,
      }));
    },

    /** Records one message for one webhook, due now. */
    enqueueOne(message: NewMessage, now: Date): Promise<PendingMessage> {
      return prisma.webhookMessage.create({ data: { ...message, nextAttemptAt: now }, select: pendingFields });
    },

    /**
     * Makes the message of one of the account's deliveries due again (a new attempt under the same
     * webhook-id); null when the delivery is not the account's or its webhook is gone.
     */
    async redeliver(userId: string, webhookId: string, deliveryId: string, now: Date): Promise<PendingMessage | null> {
      const delivery = await prisma.webhookDelivery.findFirst({
        where: { id: deliveryId, webhookId, webhook: { userId } },
        select: { messageId: true },
      });
      if (!delivery) return null;
      const { count } = await prisma.webhookMessage.updateMany({
        where: { id: delivery.messageId },
        data: { status: 'pending', nextAttemptAt: now, leaseUntil: null },
      });
      if (count === 0) return null;
      return prisma.webhookMessage.findUnique({ where: { id: delivery.messageId }, select: pendingFields });
    },

    /**
     * One pending message per webhook of the account subscribed to the event; returns how many.
     * An export event's message id names its export and webhook, so recording it again adds nothing;
     * other events get a fresh id each.
     */
    async enqueue(
      userId: string,
      event: string,
      subject: { exportId: string } | { messageId: () => string },
      payload: string,
      now: Date,
    ): Promise<number> {
      const hooks = await prisma.webhook.findMany({ where: { userId }, select: { id: true, events: true } });
      const subscribed = hooks.filter((hook) => hook.events.split(',').includes(event));
      if (subscribed.length === 0) return 0;
      const exportId = 'exportId' in subject ? subject.exportId : null;
      const idFor = (hookId: string) => ('exportId' in subject ? `msg_${subject.exportId}_${hookId}` : subject.messageId());
      await prisma.webhookMessage.createMany({
        data: subscribed.map((hook) => ({ id: idFor(hook.id), webhookId: hook.id, event, exportId, payload, nextAttemptAt: now })),
        skipDuplicates: true,
      });
      return subscribed.length;
    },

    /**
     * Due messages this process now holds for one attempt each (until leaseUntil), at most `limit`,
     * fairly by account: at most room(account) of each account's (its oldest due first), the
     * accounts in turn, so one account's backlog never stands in front of another's first attempt.
     */
    async claimDue(now: Date, leaseUntil: Date, limit: number, room: (userId: string) => number): Promise<MessageRow[]> {
      const due = { status: 'pending', nextAttemptAt: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] };
      const accounts = await prisma.webhook.findMany({
        where: { messages: { some: due } },
        distinct: ['userId'],
        select: { userId: true },
      });
      const queues = await Promise.all(
        accounts
          .filter(({ userId }) => room(userId) > 0)
          .map(({ userId }) =>
            prisma.webhookMessage.findMany({
              where: { ...due, webhook: { userId } },
              orderBy: { nextAttemptAt: 'asc' },
              take: Math.min(room(userId), limit),
              select: { id: true },
            }),
          ),
      );
      const candidates: string[] = [];
      for (let turn = 0; candidates.length < limit && queues.some((queue) => queue.length > turn); turn++) {
        for (const queue of queues) if (queue[turn] && candidates.length < limit) candidates.push(queue[turn]!.id);
      }
      const claimed: MessageRow[] = [];
      for (const id of candidates) {
        const { count } = await prisma.webhookMessage.updateMany({ where: { id, ...due }, data: { leaseUntil } });
        if (count === 0) continue;
        const row = await prisma.webhookMessage.findUnique({
          where: { id },
          include: { webhook: { select: { url: true, sealedSecret: true, userId: true } } },
        });
        if (row) claimed.push({ ...row, url: row.webhook.url, sealedSecret: row.webhook.sealedSecret, userId: row.webhook.userId });
      }
      return claimed;
    },

    /** The earliest time a pending message is due, or null when none is pending. */
    async nextDue(): Promise<Date | null> {
      const row = await prisma.webhookMessage.findFirst({
        where: { status: 'pending' },
        orderBy: { nextAttemptAt: 'asc' },
        select: { nextAttemptAt: true },
      });
      return row?.nextAttemptAt ?? null;
    },

    /** Records one attempt and the message's next state, together. */
    async recordAttempt(
      message: MessageRow,
      attempt: { id: string; ok: boolean; responseStatus: number | null; at: Date },
      next: { status: 'delivered' | 'failed' } | { status: 'pending'; nextAttemptAt: Date },
    ): Promise<void> {
      await prisma.$transaction([
        prisma.webhookDelivery.create({
          data: {
            id: attempt.id,
            webhookId: message.webhookId,
            messageId: message.id,
            event: message.event,
            exportId: message.exportId,
            attempt: message.attempts + 1,
            status: attempt.ok ? 'succeeded' : 'failed',
            responseStatus: attempt.responseStatus,
            createdAt: attempt.at,
          },
        }),
        prisma.webhookMessage.updateMany({
          where: { id: message.id },
          data: { attempts: message.attempts + 1, leaseUntil: null, ...next },
        }),
      ]);
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
