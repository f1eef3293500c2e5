// Font rows: the fonts an account uploaded, under which stored name, and what the font says it is.
import type { Font, PrismaClient } from '../generated/prisma/client.js';
import type { FontFormat, FontStyle } from '../generated/prisma/enums.js';
import type { SqlQueryable } from './driver-sql.js';
import { deleteRecordingFiles } from './file-deletions.js';
import { mapOwnerMissing } from './prisma-errors.js';

// A font's stored object (its name) is never served.
export type { Font, FontFormat, FontStyle };

export type NewFont = Omit<Font, 'createdAt'>;

export function createFontRepository(prisma: PrismaClient, sql: SqlQueryable) {
  return {
    /** Throws OwnerMissingError when the account no longer exists. */
    create(font: NewFont): Promise<Font> {
      return mapOwnerMissing(() => prisma.font.create({ data: font }));
    },

    /** The owner's fonts, newest first. */
    listOwned(userId: string): Promise<Font[]> {
      return prisma.font.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    },

    /**
     * Deletes the owner's font and records its stored file in the deletion outbox, in one
     * statement. Returns the name to remove, or null when there is no such font.
     */
    async deleteOwned(userId: string, id: string): Promise<string | null> {
      const [name] = await deleteRecordingFiles(sql, 'fonts', ['name'], '"id" = $1 AND "userId" = $2', [id, userId]);
      return name ?? null;
    },
  };
}

export type FontRepository = ReturnType<typeof createFontRepository>;
