// The outbox of stored files to remove. A caller deleting rows that own files records the file
// names in the same transaction (recordFileDeletions), so a crash after the commit still leaves a
// record of what to remove; the file janitor removes the files, then their outbox rows.
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** What a Prisma interactive transaction hands its callback. */
export type TransactionClient = Prisma.TransactionClient;

/** Records names to delete, inside the caller's transaction. Recording a name twice is harmless. */
export async function recordFileDeletions(tx: TransactionClient, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await tx.fileDeletion.createMany({ data: names.map((name) => ({ name })), skipDuplicates: true });
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
