// Developer keys in the database: only the digest and the sealed key are stored, never the key.
import type { PrismaClient } from '../generated/prisma/client.js';
import { inTransaction, selectRows, type SqlDriverAdapter } from './driver-sql.js';
import { lockAccount } from './users.js';

/** Who a key belongs to: all a /v1 request needs. */
export interface ApiKeyOwner {
  id: string;
  userId: string;
}

export interface SealedApiKey extends ApiKeyOwner {
  keyDigest: string;
  sealedKey: string;
  createdAt: Date;
}

export type NewApiKey = Omit<SealedApiKey, 'createdAt'>;

const sealedFields = { id: true, userId: true, keyDigest: true, sealedKey: true, createdAt: true } as const;

export function createApiKeyRepository(prisma: PrismaClient, sql: SqlDriverAdapter) {
  return {
    /**
     * Inserts unless the account already holds `max` keys; serialised per account on its user row,
     * so concurrent issues never pass the cap. OwnerMissingError when the account no longer exists.
     */
    createCapped(key: NewApiKey, max: number): Promise<SealedApiKey | 'limit-reached'> {
      return inTransaction(sql, async (tx) => {
        await lockAccount(tx, key.userId);
        const [created] = await selectRows<Omit<SealedApiKey, 'createdAt'> & { createdAt: string }>(
          tx,
          `INSERT INTO "api_keys" ("id", "userId", "keyDigest", "sealedKey")
           SELECT $1::text, $2::text, $3::text, $4::text
            WHERE (SELECT count(*) FROM "api_keys" WHERE "userId" = $2::text) < $5::int
           RETURNING "id", "userId", "keyDigest", "sealedKey", "createdAt"`,
          [key.id, key.userId, key.keyDigest, key.sealedKey, max],
        );
        return created ? { ...created, createdAt: new Date(created.createdAt) } : 'limit-reached';
      });
    },

    /** The owner's keys, newest first. */
    listSealed(userId: string): Promise<SealedApiKey[]> {
      return prisma.apiKey.findMany({
        where: { userId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: sealedFields,
      });
    },

    /** One unique-index lookup: the hot path of every /v1 request. */
    findOwnerByDigest(keyDigest: string): Promise<ApiKeyOwner | null> {
      return prisma.apiKey.findUnique({ where: { keyDigest }, select: { id: true, userId: true } });
    },

    /** Deletes every key of the account; returns how many. */
    async deleteAllOwned(userId: string): Promise<number> {
      const { count } = await prisma.apiKey.deleteMany({ where: { userId } });
      return count;
    },

    /** Deletes the key only when it belongs to userId; false when there was nothing to delete. */
    async deleteOwned(userId: string, id: string): Promise<boolean> {
      const { count } = await prisma.apiKey.deleteMany({ where: { id, userId } });
      return count > 0;
    },
  };
}

export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
