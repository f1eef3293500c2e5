// Creating requests sent with an Idempotency-Key. The first request claims the key with one
// insert-or-take-over statement, so of several identical requests at once exactly one runs; the
// others find its row and wait for its answer. A claim is a random token: only its holder records
// the answer or gives the key up.
import type { IdempotentRequest } from '../generated/prisma/client.js';
import { execute, selectRows, type SqlQueryable } from './driver-sql.js';
import { mapOwnerMissing } from './prisma-errors.js';

export type IdempotentKey = Pick<IdempotentRequest, 'userId' | 'route' | 'key'>;

/** sealedAnswer: null while the first request runs. */
export type IdempotentRequestRow = Pick<IdempotentRequest, 'requestDigest' | 'sealedAnswer'>;

export function createIdempotentRequestRepository(sql: SqlQueryable) {
  return {
    /**
     * Claims the key for a request: a new row, or the row of a key whose lifetime is over
     * (created at or before `forgottenBefore`) or whose first request stopped without an answer
     * (its lease ran out). True when the caller holds it now.
     */
    async claim(
      id: IdempotentKey,
      claim: { requestDigest: string; claim: string; leaseUntil: Date; now: Date; forgottenBefore: Date },
    ): Promise<boolean> {
      const rows = await mapOwnerMissing(() =>
        selectRows<{ claim: string }>(
          sql,
          `INSERT INTO "idempotent_requests" AS r ("userId", "route", "key", "requestDigest", "claim", "leaseUntil", "createdAt")
           VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::timestamptz, $7::timestamptz)
           ON CONFLICT ("userId", "route", "key") DO UPDATE
             SET "requestDigest" = EXCLUDED."requestDigest", "claim" = EXCLUDED."claim", "sealedAnswer" = NULL,
                 "leaseUntil" = EXCLUDED."leaseUntil", "createdAt" = EXCLUDED."createdAt"
           WHERE r."createdAt" <= $8::timestamptz OR (r."sealedAnswer" IS NULL AND r."leaseUntil" < $7::timestamptz)
           RETURNING r."claim"`,
          [id.userId, id.route, id.key, claim.requestDigest, claim.claim, claim.leaseUntil, claim.now, claim.forgottenBefore],
        ),
      );
      return rows[0]?.claim === claim.claim;
    },

    async find(id: IdempotentKey): Promise<IdempotentRequestRow | null> {
      const [row] = await selectRows<IdempotentRequestRow>(
        sql,
        `SELECT "requestDigest", "sealedAnswer" FROM "idempotent_requests" WHERE "userId" = $1 AND "route" = $2 AND "key" = $3`,
        [id.userId, id.route, id.key],
      );
      return row ?? null;
    },

    /** Records the answer of the claim's request; false when the claim was lost meanwhile. */
    async answer(id: IdempotentKey, claim: string, sealedAnswer: string): Promise<boolean> {
      const count = await execute(
        sql,
        `UPDATE "idempotent_requests" SET "sealedAnswer" = $5, "leaseUntil" = NULL
          WHERE "userId" = $1 AND "route" = $2 AND "key" = $3 AND "claim" = $4 AND "sealedAnswer" IS NULL`,
        [id.userId, id.route, id.key, claim, sealedAnswer],
      );
      return count > 0;
    },

    /** Gives the key up after a request that created nothing (an error answer): it is free again. */
    async release(id: IdempotentKey, claim: string): Promise<void> {
      await execute(
        sql,
        `DELETE FROM "idempotent_requests"
          WHERE "userId" = $1 AND "route" = $2 AND "key" = $3 AND "claim" = $4 AND "sealedAnswer" IS NULL`,
        [id.userId, id.route, id.key, claim],
      );
    },

    /** Removes keys created at or before `before` (their lifetime is over); returns how many. */
    deleteForgotten(before: Date): Promise<number> {
      return execute(sql, 'DELETE FROM "idempotent_requests" WHERE "createdAt" <= $1::timestamptz', [before]);
    },
  };
}

export type IdempotentRequestRepository = ReturnType<typeof createIdempotentRequestRepository>;
