// Share links in the database: the token's digest (the lookup) and the sealed token (the owner's
// list shows the link again), never the token itself.
import type { PrismaClient, ProjectShare } from '../generated/prisma/client.js';
import type { EditorState } from '../schemas/projects.js';
import { mapOwnerMissing } from './prisma-errors.js';
import type { Project } from './projects.js';

export type SealedShare = ProjectShare;

/** The project was deleted between the owner check and the insert. */
export class ShareTargetMissingError extends Error {}

export function createShareRepository(prisma: PrismaClient) {
  return {
    create(share: SealedShare): Promise<SealedShare> {
      return mapOwnerMissing(() => prisma.projectShare.create({ data: share }), () => new ShareTargetMissingError());
    },

    /** The project's links, newest first. */
    listForProject(userId: string, projectId: string): Promise<SealedShare[]> {
      return prisma.projectShare.findMany({ where: { userId, projectId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    },

    /** Deletes the link only when it is this owner's link to this project. */
    async deleteOwned(userId: string, projectId: string, id: string): Promise<boolean> {
      const { count } = await prisma.projectShare.deleteMany({ where: { id, projectId, userId } });
      return count > 0;
    },

    /** One unique-index lookup with the project it opens, whatever its expiry (the caller decides). */
    async findProjectByDigest(tokenDigest: string): Promise<{ expiresAt: Date | null; project: Project } | null> {
      const row = await prisma.projectShare.findUnique({
        where: { tokenDigest },
        select: { expiresAt: true, project: true },
      });
      if (!row) return null;
      // The column only ever receives documents that passed the EditorState schema.
      return { expiresAt: row.expiresAt, project: { ...row.project, artworkJson: row.project.artworkJson as EditorState } };
    },
  };
}

export type ShareRepository = ReturnType<typeof createShareRepository>;
