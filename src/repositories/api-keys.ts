// Developer keys in the database: only the digest and the sealed key are stored, never the key.
import type { PrismaClient } from '../generated/prisma/client.js';
import { mapOwnerMissing } from './prisma-errors.js';

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

export function createApiKeyRepository(prisma: PrismaClient) {
  return {
    /** Throws OwnerMissingError when the account no longer exists. */
    create(key: NewApiKey): Promise<SealedApiKey> {
      return mapOwnerMissing(() => prisma.apiKey.create({ data: key, select: sealedFields }));
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

    count(userId: string): Promise<number> {
      return prisma.apiKey.count({ where: { userId } });
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
