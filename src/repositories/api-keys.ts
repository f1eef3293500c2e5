// Developer keys in the database: only the digest and the sealed key are stored, never the key.
import type { ApiKey, PrismaClient } from '../generated/prisma/client.js';
import { inTransaction, selectRows, type SqlDriverAdapter } from './driver-sql.js';
import { lockAccount, toUser, USER_COLUMNS, type User, type UserRow } from './users.js';

/** Who a key belongs to. */
export type ApiKeyOwner = Pick<ApiKey, 'id' | 'userId'>;

/** All a /v1 request needs: the key and its owner's account. */
export interface VerifiedApiKey {
  apiKey: ApiKeyOwner;
  account: User;
}

export type SealedApiKey = ApiKey;

export type NewApiKey = Omit<SealedApiKey, 'createdAt'>;

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
      return prisma.apiKey.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    },

    /** One statement on the unique index, joined with the owner's account: the hot path of every /v1 request. */
    async findWithOwnerByDigest(keyDigest: string): Promise<VerifiedApiKey | null> {
      const [row] = await selectRows<UserRow & { apiKeyId: string }>(
        sql,
        `SELECT "apiKeyId", ${USER_COLUMNS} FROM "users"
           JOIN (SELECT "id" AS "apiKeyId", "userId" FROM "api_keys" WHERE "keyDigest" = $1) AS "key" ON "key"."userId" = "users"."id"`,
        [keyDigest],
      );
      if (!row) return null;
      const { apiKeyId, ...user } = row;
      return { apiKey: { id: apiKeyId, userId: user.id }, account: toUser(user) };
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
