// Projects in the database. Every query is scoped by the owner's id; the free-plan cap is
// enforced here, in one transaction that serialises an account's creates on its user row.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Plan } from '../generated/prisma/enums.js';
import type { EditorState } from '../schemas/projects.js';

export type { Plan };

export interface Project {
  id: string;
  userId: string;
  name: string;
  templateId: string;
  widthMm: number;
  heightMm: number;
  depthMm: number;
  artworkJson: EditorState;
  createdAt: Date;
  updatedAt: Date;
}

export type NewProject = Omit<Project, 'createdAt' | 'updatedAt'>;

/** The columns a partial update may set. */
export type ProjectChanges = Partial<Pick<Project, 'name' | 'templateId' | 'widthMm' | 'heightMm' | 'depthMm' | 'artworkJson'>>;

export type CreateOutcome =
  | { kind: 'created'; project: Project }
  | { kind: 'limit-reached' }
  | { kind: 'owner-missing' };

const fields = {
  id: true,
  userId: true,
  name: true,
  templateId: true,
  widthMm: true,
  heightMm: true,
  depthMm: true,
  artworkJson: true,
  createdAt: true,
  updatedAt: true,
} as const;

// A queue of ten creates for one account waits on one row lock; the defaults (2 s, 5 s) are tight.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

interface ProjectRow extends Omit<Project, 'artworkJson'> {
  artworkJson: unknown;
}

function toProject(row: ProjectRow): Project {
  // The column only ever receives documents that passed the EditorState schema.
  return { ...row, artworkJson: row.artworkJson as EditorState };
}

export function createProjectRepository(prisma: PrismaClient) {
  return {
    /** The owner's projects, most recently updated first: one query. */
    async listOwned(userId: string): Promise<Project[]> {
      const rows = await prisma.project.findMany({
        where: { userId },
        orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
        select: fields,
      });
      return rows.map(toProject);
    },

    async findOwned(userId: string, id: string): Promise<Project | null> {
      const row = await prisma.project.findFirst({ where: { id, userId }, select: fields });
      return row ? toProject(row) : null;
    },

    /**
     * Inserts the project unless the owner already has limitFor(plan) projects. The owner's row
     * is locked first, so concurrent creates for one account (from any process) take turns and
     * each counts the ones committed before it.
     */
    createWithinLimit(project: NewProject, limitFor: (plan: Plan) => number | null): Promise<CreateOutcome> {
      return prisma.$transaction(async (tx): Promise<CreateOutcome> => {
        const owners = await tx.$queryRaw<Array<{ plan: Plan }>>`
          SELECT "plan"::text AS "plan" FROM "users" WHERE "id" = ${project.userId} FOR UPDATE`;
        const owner = owners[0];
        if (!owner) return { kind: 'owner-missing' };
        const limit = limitFor(owner.plan);
        if (limit !== null && (await tx.project.count({ where: { userId: project.userId } })) >= limit) {
          return { kind: 'limit-reached' };
        }
        const row = await tx.project.create({ data: project, select: fields });
        return { kind: 'created', project: toProject(row) };
      }, TRANSACTION_OPTIONS);
    },

    /**
     * Locks the owner's project, asks changesFor(current) what differs, and writes only that.
     * updatedAt moves (to the database clock) only when something is written. Null when the
     * project does not exist or belongs to someone else.
     */
    updateOwned(
      userId: string,
      id: string,
      changesFor: (current: Project) => ProjectChanges,
    ): Promise<Project | null> {
      return prisma.$transaction(async (tx) => {
        const locked = await tx.$queryRaw<Array<{ now: Date }>>`
          SELECT now() AS "now" FROM "projects" WHERE "id" = ${id} AND "userId" = ${userId} FOR UPDATE`;
        const lock = locked[0];
        if (!lock) return null;
        const current = toProject(await tx.project.findUniqueOrThrow({ where: { id }, select: fields }));
        const changes = changesFor(current);
        if (Object.keys(changes).length === 0) return current;
        const row = await tx.project.update({
          where: { id },
          data: { ...changes, updatedAt: new Date(lock.now) },
          select: fields,
        });
        return toProject(row);
      }, TRANSACTION_OPTIONS);
    },

    /** Deletes the project only when it belongs to userId; false when there was nothing to delete. */
    async deleteOwned(userId: string, id: string): Promise<boolean> {
      const { count } = await prisma.project.deleteMany({ where: { id, userId } });
      return count > 0;
    },
  };
}

export type ProjectRepository = ReturnType<typeof createProjectRepository>;
