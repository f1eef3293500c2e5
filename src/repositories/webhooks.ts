// Webhooks, their pending messages (the retry state, so a restart loses none) and one row per
// delivery attempt. A message is claimed for one attempt with a compare-and-set on its lease, so
// two processes never send the same attempt.
import type { PrismaClient } from '../generated/prisma/client.js';
import { mapOwnerMissing } from './prisma-errors.js';

export interface WebhookRow {
  id: string;
  userId: string;
  url: string;
  events: string[];
  sealedSecret: string;
  createdAt: Date;
}

export interface MessageRow {
  id: string;
  webhookId: string;
  event: string;
  exportId: string;
  payload: string;
  attempts: number;
  url: string;
  sealedSecret: string;
  /** The account the webhook belongs to (deliveries are shared fairly by account). */
  userId: string;
}

export interface DeliveryRow {
  id: string;
  event: string;
  exportId: string;
  attempt: number;
  status: string;
  responseStatus: number | null;
  createdAt: Date;
}

const toWebhook = (row: { id: string; userId: string; url: string; events: string; sealedSecret: string; createdAt: Date }): WebhookRow => ({
  ...row,
  events: row.events.split(','),
});

export function createWebhookRepository(prisma: PrismaClient) {
  return {
    /** Inserts unless the account already has `max`; serialised per account on its user row. */
    async createCapped(row: Omit<WebhookRow, 'createdAt'>, max: number): Promise<WebhookRow | 'limit-reached'> {
      return mapOwnerMissing(() =>
        prisma.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT 1 FROM "users" WHERE "id" = ${row.userId} FOR UPDATE`;
          const count = await tx.webhook.count({ where: { userId: row.userId } });
          if (count >= max) return 'limit-reached' as const;
          return toWebhook(await tx.webhook.create({ data: { ...row, events: row.events.join(',') } }));
        }),
      );
    },

    async list(userId: string): Promise<WebhookRow[]> {
      const rows = await prisma.webhook.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
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

    async deliveries(webhookId: string, limit: number): Promise<DeliveryRow[]> {
      return prisma.webhookDelivery.findMany({
        where: { webhookId },
        orderBy: [{ createdAt: 'desc' }, { attempt: 'desc' }, { id: 'desc' }],
        take: limit,
        select: { id: true, event: true, exportId: true, attempt: true, status: true, responseStatus: true, createdAt: true },
      });
    },

    /**
     * One pending message per webhook of the account subscribed to the event; returns how many.
     * A message's id names its export and webhook, so recording the same event again adds nothing.
     */
    async enqueue(userId: string, event: string, exportId: string, payload: string, now: Date): Promise<number> {
      const hooks = await prisma.webhook.findMany({ where: { userId }, select: { id: true, events: true } });
      const subscribed = hooks.filter((hook) => hook.events.split(',').includes(event));
      if (subscribed.length === 0) return 0;
      await prisma.webhookMessage.createMany({
        data: subscribed.map((hook) => ({ id: `msg_${exportId}_${hook.id}`, webhookId: hook.id, event, exportId, payload, nextAttemptAt: now })),
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
      const accounts = await prisma.webhook.findMany({ where: { messages: { some: due } }, distinct: ['userId'], select: { userId: true } });
      const queues = await Promise.all(
        accounts
          .filter(({ userId }) => room(userId) > 0)
          .map(({ userId }) =>
            prisma.webhookMessage.findMany({ where: { ...due, webhook: { userId } }, orderBy: { nextAttemptAt: 'asc' }, take: Math.min(room(userId), limit), select: { id: true } }),
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
        const row = await prisma.webhookMessage.findUnique({ where: { id }, include: { webhook: { select: { url: true, sealedSecret: true, userId: true } } } });
        if (row) claimed.push({ ...row, url: row.webhook.url, sealedSecret: row.webhook.sealedSecret, userId: row.webhook.userId });
      }
      return claimed;
    },

    /** The earliest time a pending message is due, or null when none is pending. */
    async nextDue(): Promise<Date | null> {
      const row = await prisma.webhookMessage.findFirst({ where: { status: 'pending' }, orderBy: { nextAttemptAt: 'asc' }, select: { nextAttemptAt: true } });
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
