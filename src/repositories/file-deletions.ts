// The outbox of stored files to remove. A caller deleting rows that own files records the file
// names in the same statement (deleteRecordingFiles) or transaction, so a crash after the commit
// still leaves a record of what to remove; the file janitor removes the files, then their outbox rows.
import type { PrismaClient } from '../generated/prisma/client.js';
import { selectRows, type SqlArg, type SqlQueryable } from './driver-sql.js';

/**
 * Deletes the rows of `table` that `where` selects and records the files their `columns` name, in
 * one statement; returns the names recorded (null columns left out).
 */
export async function deleteRecordingFiles(
  db: SqlQueryable,
  table: string,
  columns: string[],
  where: string,
  args: SqlArg[],
): Promise<string[]> {
  const names = columns.map((column) => `SELECT "${column}" AS "name" FROM "gone"`);
  const rows = await selectRows<{ name: string }>(
    db,
    `WITH "gone" AS (DELETE FROM "${table}" WHERE ${where} RETURNING ${columns.map((column) => `"${column}"`).join(', ')}),
     "names" AS (${names.join(' UNION ALL ')}),
     "recorded" AS (INSERT INTO "file_deletions" ("name") SELECT "name" FROM "names" WHERE "name" IS NOT NULL ON CONFLICT DO NOTHING)
     SELECT "name" FROM "names" WHERE "name" IS NOT NULL`,
    args,
  );
  return rows.map((row) => row.name);
}

export function createFileDeletionRepository(prisma: PrismaClient) {
  return {
    /** Up to `limit` recorded names in name order, after the name `after` (a drain pages with it). */
    async pending(limit: number, after?: string): Promise<string[]> {
      const rows = await prisma.fileDeletion.findMany({
        where: after === undefined ? {} : { name: { gt: after } },
        orderBy: { name: 'asc' },
        take: limit,
        select: { name: true },
      });
      return rows.map((row) => row.name);
    },

    /** Forgets names whose files are gone. */
    async forget(names: readonly string[]): Promise<void> {
      if (names.length === 0) return;
      await prisma.fileDeletion.deleteMany({ where: { name: { in: [...names] } } });
    },
  };
}

export type FileDeletionRepository = ReturnType<typeof createFileDeletionRepository>;
