// Exports in the database: the one place their state lives, whichever process renders them.
// A render is claimed with a compare-and-set on the row (status and lease), so two processes never
// both finish the same export, and the file name is written in the same statement that marks it
// succeeded. Expired rows are deleted with their files recorded in the deletion outbox.
import type { Finding } from '../print/index.js';
import type { Export, Prisma, PrismaClient } from '../generated/prisma/client.js';
import { keysetPage, type ListPosition } from '../lib/cursors.js';
import { findStateAt, type ProjectStateOutcome } from './projects.js';
import { execute, inTransaction, selectRows, type SqlDriverAdapter } from './driver-sql.js';
import { lockAccount } from './users.js';

export type ExportStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ExportError {
  statusCode: number;
  error: string;
  message: string;
  /** The preflight's error findings, when a print was refused for them. */
  findings?: Finding[];
}

/** An export's row without the lease and announcement, which only this repository reads; its JSON columns typed. */
export type ExportRow = Omit<Export, 'leaseUntil' | 'announcedAt' | 'options' | 'status' | 'error'> & {
  options: Record<string, unknown>;
  status: ExportStatus;
  error: ExportError | null;
};

export type NewExport = Pick<
  ExportRow,
  'id' | 'userId' | 'projectId' | 'projectVersion' | 'format' | 'options' | 'idempotencyKey' | 'requestDigest' | 'routeBase'
>;

/** The file columns a succeeded export fills. */
export type FinishedFile = { [Column in 'fileName' | 'downloadName' | 'contentType' | 'sizeBytes']: NonNullable<Export[Column]> };

export type InsertOutcome = { kind: 'created'; row: ExportRow } | { kind: 'key-taken'; row: ExportRow } | { kind: 'limit-reached' };

const toRow = ({ leaseUntil: _leaseUntil, announcedAt: _announcedAt, ...row }: Export): ExportRow => ({
  ...row,
  options: row.options as Record<string, unknown>,
  status: row.status as ExportStatus,
  error: (row.error as ExportError | null) ?? null,
});

export function createExportRepository(prisma: PrismaClient, sql: SqlDriverAdapter) {
  const live = (now: Date): Prisma.ExportWhereInput => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });
  /** Writes data to the export if it is running; whether it was. */
  const whileRunning = async (id: string, data: Prisma.ExportUpdateManyMutationInput) =>
    (await prisma.export.updateMany({ where: { id, status: 'running' }, data })).count > 0;

  return {
    /**
     * Inserts the export unless the account already has `maxUnfinished` queued or running. With an
     * idempotency key already used by the account (and not yet forgotten), nothing is inserted and
     * the row holding the key is returned. Serialised per account on its user row, so concurrent
     * requests never pass the cap nor race for a key; OwnerMissingError when the account is gone.
     */
    async insert(data: NewExport, keyWindowStart: Date, maxUnfinished: number): Promise<InsertOutcome> {
      const outcome = await inTransaction(sql, async (tx): Promise<{ kind: InsertOutcome['kind']; id: string } | null> => {
        await lockAccount(tx, data.userId);
        if (data.idempotencyKey !== null) {
          const [holder] = await selectRows<{ id: string; createdAt: string | Date }>(
            tx,
            `SELECT "id", "createdAt" FROM "exports" WHERE "userId" = $1 AND "idempotencyKey" = $2`,
            [data.userId, data.idempotencyKey],
          );
          if (holder && new Date(holder.createdAt) > keyWindowStart) return { kind: 'key-taken', id: holder.id };
          // Older than the key's lifetime: the key is forgotten and may name a new request.
          if (holder) await execute(tx, `UPDATE "exports" SET "idempotencyKey" = NULL WHERE "id" = $1`, [holder.id]);
        }
        const inserted = await execute(
          tx,
          `INSERT INTO "exports" ("id", "userId", "projectId", "projectVersion", "format", "options", "idempotencyKey",
                                  "requestDigest", "routeBase")
           SELECT $1::text, $2::text, $3::text, $4::int, $5::text, $6::jsonb, $7::text, $8::text, $9::text
            WHERE (SELECT count(*) FROM "exports" WHERE "userId" = $2::text AND "status" IN ('queued', 'running')) < $10::int`,
          [
            data.id,
            data.userId,
            data.projectId,
            data.projectVersion,
            data.format,
            { json: JSON.stringify(data.options) },
            data.idempotencyKey,
            data.requestDigest,
            data.routeBase,
            maxUnfinished,
          ],
        );
        return inserted === 1 ? { kind: 'created', id: data.id } : null;
      });
      if (!outcome) return { kind: 'limit-reached' };
      const row = await prisma.export.findUnique({ where: { id: outcome.id } });
      if (!row) throw new Error(`The export ${outcome.id} vanished as it was recorded.`);
      return { kind: outcome.kind, row: toRow(row) };
    },

    /** The export a key names, when it was created after `keyWindowStart` (the key is still remembered). */
    async findByKey(userId: string, idempotencyKey: string, keyWindowStart: Date): Promise<ExportRow | null> {
      const row = await prisma.export.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } } });
      return row && row.createdAt > keyWindowStart ? toRow(row) : null;
    },

    async findOwned(userId: string, id: string, now: Date): Promise<ExportRow | null> {
      const row = await prisma.export.findFirst({ where: { id, userId, ...live(now) } });
      return row ? toRow(row) : null;
    },

    async find(id: string): Promise<ExportRow | null> {
      const row = await prisma.export.findUnique({ where: { id } });
      return row ? toRow(row) : null;
    },

    /** Newest first, strictly after `after`; one more than limit so the caller knows whether more follow. */
    async listPage(
      userId: string,
      options: { projectId: string | null; after: ListPosition | null; limit: number; now: Date },
    ): Promise<ExportRow[]> {
      const { projectId, after, limit, now } = options;
      const { where, orderBy } = keysetPage(after);
      const rows = await prisma.export.findMany({
        where: { userId, ...(projectId ? { projectId } : {}), AND: [live(now), where] },
        orderBy,
        take: limit + 1,
      });
      return rows.map(toRow);
    },

    /**
     * Takes the export for one attempt: a queued one, or a running one whose lease ran out (its
     * process died) or that the caller is told to take over (a stalled queue job). Null when it
     * is finished, gone, or held by a live process.
     */
    async claim(id: string, leaseUntil: Date, takeOver: boolean, now: Date): Promise<ExportRow | null> {
      // startedAt is the first attempt's start: a takeover or retry keeps it. A queued export is due
      // once its retry time (leaseUntil, after a busy render pool) has passed.
      const count = await execute(
        sql,
        `UPDATE "exports"
            SET "status" = 'running', "leaseUntil" = $2::timestamptz, "attempts" = "attempts" + 1,
                "startedAt" = COALESCE("startedAt", $3::timestamptz)
          WHERE "id" = $1
            AND (("status" = 'queued' AND ("leaseUntil" IS NULL OR "leaseUntil" < $3::timestamptz))
                 OR ("status" = 'running' AND ("leaseUntil" < $3::timestamptz OR $4::boolean)))`,
        [id, leaseUntil, now, takeOver],
      );
      if (count === 0) return null;
      return this.find(id);
    },

    /** Extends a running attempt's lease; false when the export is no longer running. */
    renew(id: string, leaseUntil: Date): Promise<boolean> {
      return whileRunning(id, { leaseUntil });
    },

    /**
     * Ids of exports a process may take: queued ones that are due (one waiting out a busy render
     * pool keeps its retry time in leaseUntil) and running ones whose lease ran out.
     */
    async claimable(now: Date, limit: number, queuedBefore?: Date): Promise<string[]> {
      const rows = await prisma.export.findMany({
        where: {
          OR: [
            {
              status: 'queued',
              OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
              ...(queuedBefore ? { createdAt: { lt: queuedBefore } } : {}),
            },
            { status: 'running', leaseUntil: { lt: now } },
          ],
        },
        orderBy: { createdAt: 'asc' },
        take: limit,
        select: { id: true },
      });
      return rows.map((row) => row.id);
    },

    /**
     * Puts a running export back in the queue until retryAt without counting its attempt (a render
     * pool was busy: the export did not get to run).
     */
    async wait(id: string, retryAt: Date): Promise<void> {
      await whileRunning(id, { status: 'queued', leaseUntil: retryAt, attempts: { decrement: 1 } });
    },

    /**
     * Gives up the lease after an attempt that may pass next time: the export stays running (it
     * was claimed) and any process may take it at once.
     */
    async release(id: string, now: Date): Promise<void> {
      await whileRunning(id, { leaseUntil: new Date(now.getTime() - 1) });
    },

    async queuedCount(): Promise<number> {
      return prisma.export.count({ where: { status: 'queued' } });
    },

    /** Marks a running export succeeded with its file; false when it was not running any more. */
    succeed(id: string, file: FinishedFile, finishedAt: Date, expiresAt: Date): Promise<boolean> {
      return whileRunning(id, { status: 'succeeded', ...file, finishedAt, expiresAt, leaseUntil: null });
    },

    async fail(id: string, error: ExportError, finishedAt: Date, expiresAt: Date): Promise<boolean> {
      const { count } = await prisma.export.updateMany({
        where: { id, status: { in: ['queued', 'running'] } },
        data: { status: 'failed', error: error as unknown as Prisma.InputJsonValue, finishedAt, expiresAt, leaseUntil: null },
      });
      return count > 0;
    },

    /** A project's state at one version: its current row when it is still there, else its recorded version. */
    projectState(userId: string, projectId: string, version: number): Promise<ProjectStateOutcome> {
      return findStateAt(sql, userId, projectId, version);
    },

    async markAnnounced(id: string, at: Date): Promise<void> {
      await prisma.export.updateMany({ where: { id }, data: { announcedAt: at } });
    },

    /** Finished exports whose webhook messages were never recorded (their process died first). */
    async unannounced(finishedBefore: Date, limit: number): Promise<ExportRow[]> {
      const rows = await prisma.export.findMany({
        where: { status: { in: ['succeeded', 'failed'] }, announcedAt: null, finishedAt: { lt: finishedBefore } },
        take: limit,
      });
      return rows.map(toRow);
    },

    /** Deletes up to `limit` expired exports, recording their files for removal; returns the file names. */
    async deleteExpired(now: Date, limit: number): Promise<{ count: number; fileNames: string[] }> {
      return prisma.$transaction(async (tx) => {
        const rows = await tx.export.findMany({ where: { expiresAt: { lte: now } }, take: limit, select: { id: true, fileName: true } });
        const fileNames = rows.flatMap((row) => (row.fileName ? [row.fileName] : []));
        await tx.fileDeletion.createMany({ data: fileNames.map((name) => ({ name })), skipDuplicates: true });
        await tx.export.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
        return { count: rows.length, fileNames };
      });
    },
  };
}

export type ExportRepository = ReturnType<typeof createExportRepository>;
