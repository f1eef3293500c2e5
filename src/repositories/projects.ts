// Projects and their version history in the database. Every query is scoped by the owner's id.
// The free-plan cap is enforced here, in one transaction that serialises an account's creates and
// duplicates on its user row. Every write to an existing project locks its row first, checks the
// caller's precondition (If-Match) under that lock, records the replaced state as a version, and
// writes, all in one transaction: no window between check and write, on one process or several.
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
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
  /** Moves by one with every written change; the source of the ETag. */
  version: number;
}

export type NewProject = Omit<Project, 'createdAt' | 'updatedAt' | 'version'>;

/** The columns a change may set (and a version records). */
export type ProjectState = Pick<Project, 'name' | 'templateId' | 'widthMm' | 'heightMm' | 'depthMm' | 'artworkJson'>;
export type ProjectChanges = Partial<ProjectState>;

/** A recorded state, as listed (without its document). */
export interface ProjectVersionSummary extends Omit<ProjectState, 'artworkJson'> {
  version: number;
  /** When this state was saved: the project's updatedAt while it was current. */
  createdAt: Date;
}
export interface ProjectVersion extends ProjectVersionSummary {
  artworkJson: EditorState;
}

/** The versions kept per project; older ones are deleted by the write that records a new one. */
export const VERSIONS_KEPT = 50;

/** Decides, under the row lock, whether a write may go ahead given the project's current version. */
export type VersionPrecondition = (currentVersion: number) => boolean;

export type CreateOutcome =
  | { kind: 'created'; project: Project }
  | { kind: 'limit-reached' }
  | { kind: 'owner-missing' };

export type DuplicateOutcome = CreateOutcome | { kind: 'not-found' };

export type WriteOutcome =
  | { kind: 'written'; project: Project }
  | { kind: 'not-found' }
  | { kind: 'precondition-failed' };

export type RestoreOutcome = WriteOutcome | { kind: 'version-not-found' };

export type DeleteOutcome = 'deleted' | 'not-found' | 'precondition-failed';

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
  version: true,
} as const;

const versionSummaryFields = {
  version: true,
  name: true,
  templateId: true,
  widthMm: true,
  heightMm: true,
  depthMm: true,
  createdAt: true,
} as const;

const versionFields = { ...versionSummaryFields, artworkJson: true } as const;

// A queue of ten creates for one account waits on one row lock; the defaults (2 s, 5 s) are tight.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

// The column only ever receives documents that passed the EditorState schema.
function withEditorState<T extends { artworkJson: unknown }>(row: T): Omit<T, 'artworkJson'> & { artworkJson: EditorState } {
  return { ...row, artworkJson: row.artworkJson as EditorState };
}
const toProject = (row: Omit<Project, 'artworkJson'> & { artworkJson: unknown }): Project => withEditorState(row);

type Tx = Prisma.TransactionClient;

/**
 * Locks the owner's row and says whether one more project fits under limitFor(plan). Concurrent
 * creates and duplicates for one account (from any process) take turns on this lock and each
 * counts the ones committed before it.
 */
async function checkOwnerLimit(tx: Tx, userId: string, limitFor: (plan: Plan) => number | null) {
  const owners = await tx.$queryRaw<Array<{ plan: Plan }>>`
    SELECT "plan"::text AS "plan" FROM "users" WHERE "id" = ${userId} FOR UPDATE`;
  const owner = owners[0];
  if (!owner) return { kind: 'owner-missing' } as const;
  const limit = limitFor(owner.plan);
  if (limit !== null && (await tx.project.count({ where: { userId } })) >= limit) return { kind: 'limit-reached' } as const;
  return null;
}

/** Locks the owner's project and reads it; the database clock's now() is the time of any write. */
async function lockOwned(tx: Tx, userId: string, id: string): Promise<{ current: Project; now: Date } | null> {
  const locked = await tx.$queryRaw<Array<{ now: Date }>>`
    SELECT now() AS "now" FROM "projects" WHERE "id" = ${id} AND "userId" = ${userId} FOR UPDATE`;
  const lock = locked[0];
  if (!lock) return null;
  const current = toProject(await tx.project.findUniqueOrThrow({ where: { id }, select: fields }));
  return { current, now: new Date(lock.now) };
}

/**
 * Records the locked project's current state as its version, prunes what falls out of the kept
 * window, and writes the changes with the next version number. Every version bump records the
 * version it replaces, so the recorded numbers are consecutive and the window is a range.
 */
async function writeChanges(tx: Tx, current: Project, now: Date, changes: ProjectChanges): Promise<Project> {
  // One statement, one round trip: the copy is made inside the database (the document does not
  // travel back and forth) and the DELETE, which sees the table as it was before the INSERT, only
  // removes versions older than the window.
  await tx.$executeRaw`
    WITH "recorded" AS (
      INSERT INTO "project_versions" ("projectId", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "createdAt")
      SELECT "id", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "updatedAt"
        FROM "projects" WHERE "id" = ${current.id}
    )
    DELETE FROM "project_versions" WHERE "projectId" = ${current.id} AND "version" <= ${current.version - VERSIONS_KEPT}`;
  const row = await tx.project.update({
    where: { id: current.id },
    data: { ...changes, updatedAt: now, version: current.version + 1 },
    select: fields,
  });
  return toProject(row);
}

export function createProjectRepository(prisma: PrismaClient) {
  /**
   * The shared shape of every change to an existing project: lock, check the precondition, ask
   * changesFor(current) what differs, write only that (no change: nothing written, version and
   * updatedAt stay).
   */
  function changeOwned<Refusal extends { kind: string }>(
    userId: string,
    id: string,
    precondition: VersionPrecondition | undefined,
    changesFor: (tx: Tx, current: Project) => Promise<{ changes: ProjectChanges } | Refusal>,
  ): Promise<WriteOutcome | Refusal> {
    return prisma.$transaction(async (tx): Promise<WriteOutcome | Refusal> => {
      const locked = await lockOwned(tx, userId, id);
      if (!locked) return { kind: 'not-found' };
      const { current, now } = locked;
      const wanted = await changesFor(tx, current);
      if (!('changes' in wanted)) return wanted;
      if (precondition && !precondition(current.version)) return { kind: 'precondition-failed' };
      if (Object.keys(wanted.changes).length === 0) return { kind: 'written', project: current };
      return { kind: 'written', project: await writeChanges(tx, current, now, wanted.changes) };
    }, TRANSACTION_OPTIONS);
  }

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

    /** Inserts the project unless the owner already has limitFor(plan) projects. */
    createWithinLimit(project: NewProject, limitFor: (plan: Plan) => number | null): Promise<CreateOutcome> {
      return prisma.$transaction(async (tx): Promise<CreateOutcome> => {
        const refused = await checkOwnerLimit(tx, project.userId, limitFor);
        if (refused) return refused;
        const row = await tx.project.create({ data: project, select: fields });
        return { kind: 'created', project: toProject(row) };
      }, TRANSACTION_OPTIONS);
    },

    /**
     * Copies the owner's project (its current state, not its versions) under newId, unless the
     * owner is at limitFor(plan). nameFor(source) names the copy.
     */
    duplicateWithinLimit(
      userId: string,
      sourceId: string,
      newId: string,
      nameFor: (source: Project) => string,
      limitFor: (plan: Plan) => number | null,
    ): Promise<DuplicateOutcome> {
      return prisma.$transaction(async (tx): Promise<DuplicateOutcome> => {
        const refused = await checkOwnerLimit(tx, userId, limitFor);
        const source = await tx.project.findFirst({ where: { id: sourceId, userId }, select: fields });
        if (!source) return refused?.kind === 'owner-missing' ? refused : { kind: 'not-found' };
        if (refused) return refused;
        const { templateId, widthMm, heightMm, depthMm, artworkJson } = toProject(source);
        const row = await tx.project.create({
          data: { id: newId, userId, name: nameFor(toProject(source)), templateId, widthMm, heightMm, depthMm, artworkJson },
          select: fields,
        });
        return { kind: 'created', project: toProject(row) };
      }, TRANSACTION_OPTIONS);
    },

    /** Writes what changesFor(current) says differs, if precondition(current version) allows. */
    updateOwned(
      userId: string,
      id: string,
      changesFor: (current: Project) => ProjectChanges,
      precondition?: VersionPrecondition,
    ): Promise<WriteOutcome> {
      return changeOwned<never>(userId, id, precondition, async (_tx, current) => ({ changes: changesFor(current) }));
    },

    /** Brings back the state recorded as `version`; the replaced state is recorded in turn. */
    restoreOwned(
      userId: string,
      id: string,
      version: number,
      changesFor: (current: Project, recorded: ProjectState) => ProjectChanges,
      precondition?: VersionPrecondition,
    ): Promise<RestoreOutcome> {
      return changeOwned<{ kind: 'version-not-found' }>(userId, id, precondition, async (tx, current) => {
        const recorded = await tx.projectVersion.findUnique({
          where: { projectId_version: { projectId: id, version } },
          select: versionFields,
        });
        if (!recorded) return { kind: 'version-not-found' };
        return { changes: changesFor(current, withEditorState(recorded)) };
      });
    },

    /** The owner's project's versions, newest first; null when the project is not the owner's. */
    async listVersions(userId: string, id: string): Promise<ProjectVersionSummary[] | null> {
      const project = await prisma.project.findFirst({
        where: { id, userId },
        select: { versions: { select: versionSummaryFields, orderBy: { version: 'desc' } } },
      });
      return project ? project.versions : null;
    },

    /** One version of the owner's project: undefined when the project is not the owner's, null when the version is not kept. */
    async findVersion(userId: string, id: string, version: number): Promise<ProjectVersion | null | undefined> {
      const project = await prisma.project.findFirst({
        where: { id, userId },
        select: { versions: { select: versionFields, where: { version } } },
      });
      if (!project) return undefined;
      const found = project.versions[0];
      return found ? withEditorState(found) : null;
    },

    /**
     * Deletes the project (and, by cascade, its versions) when it belongs to userId. With a
     * precondition the row is locked and checked first, in the same transaction.
     */
    async deleteOwned(userId: string, id: string, precondition?: VersionPrecondition): Promise<DeleteOutcome> {
      if (!precondition) {
        const { count } = await prisma.project.deleteMany({ where: { id, userId } });
        return count > 0 ? 'deleted' : 'not-found';
      }
      return prisma.$transaction(async (tx): Promise<DeleteOutcome> => {
        const locked = await tx.$queryRaw<Array<{ version: number }>>`
          SELECT "version" FROM "projects" WHERE "id" = ${id} AND "userId" = ${userId} FOR UPDATE`;
        const row = locked[0];
        if (!row) return 'not-found';
        if (!precondition(row.version)) return 'precondition-failed';
        await tx.project.delete({ where: { id } });
        return 'deleted';
      }, TRANSACTION_OPTIONS);
    },
  };
}

export type ProjectRepository = ReturnType<typeof createProjectRepository>;
