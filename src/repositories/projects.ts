// Projects and their version history in the database. Every query is scoped by the owner's id.
// The free-plan cap is enforced here, in one transaction that serialises an account's creates and
// duplicates on its user row. Every write to an existing project locks its row first, checks the
// caller's precondition (If-Match) under that lock, records the replaced state as a version, and
// writes, all in one transaction: no window between check and write, on one process or several.
//
// The routes the editor calls all day (list, read, create, change, delete) send their statements
// through Prisma's driver adapter (driver-sql.ts); the version listings use the Prisma client.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Plan } from '../generated/prisma/enums.js';
import type { EditorState } from '../schemas/projects.js';
import { execute, inTransaction, selectRows, type SqlArg, type SqlDriverAdapter, type SqlQueryable } from './driver-sql.js';

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

// The column only ever receives documents that passed the EditorState schema.
function withEditorState<T extends { artworkJson: unknown }>(row: T): Omit<T, 'artworkJson'> & { artworkJson: EditorState } {
  return { ...row, artworkJson: row.artworkJson as EditorState };
}

const COLUMNS = `"id", "userId", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "createdAt", "updatedAt", "version"`;
const VERSION_COLUMNS = `"version", "name", "templateId", "widthMm", "heightMm", "depthMm", "createdAt", "artworkJson"`;

/** A project row as the driver gives it: the document as its JSON text, times as ISO text. */
type ProjectRow = Omit<Project, 'artworkJson' | 'createdAt' | 'updatedAt'> & { artworkJson: string; createdAt: string; updatedAt: string };
type VersionRow = Omit<ProjectVersion, 'artworkJson' | 'createdAt'> & { artworkJson: string; createdAt: string };

const toProject = (row: ProjectRow): Project => ({
  ...row,
  artworkJson: JSON.parse(row.artworkJson) as EditorState,
  createdAt: new Date(row.createdAt),
  updatedAt: new Date(row.updatedAt),
});

/** The columns a change may write, each with how its value is sent. */
const WRITABLE: { [Key in keyof ProjectState]-?: (value: ProjectState[Key]) => SqlArg } = {
  name: (value) => value,
  templateId: (value) => value,
  widthMm: (value) => value,
  heightMm: (value) => value,
  depthMm: (value) => value,
  artworkJson: (value) => ({ json: JSON.stringify(value) }),
};

function setClause(changes: ProjectChanges, firstParameter: number): { sql: string; args: SqlArg[] } {
  const assignments: string[] = [];
  const args: SqlArg[] = [];
  for (const key of Object.keys(WRITABLE) as Array<keyof ProjectState>) {
    const value = changes[key];
    if (value === undefined) continue;
    args.push((WRITABLE[key] as (value: unknown) => SqlArg)(value));
    assignments.push(`"${key}" = $${firstParameter + args.length - 1}`);
  }
  return { sql: assignments.join(', '), args };
}

/**
 * Locks the owner's row and says whether one more project fits under limitFor(plan). Concurrent
 * creates and duplicates for one account (from any process) take turns on this lock and each
 * counts the ones committed before it (READ COMMITTED: the count is a new statement, after the lock).
 */
async function checkOwnerLimit(tx: SqlQueryable, userId: string, limitFor: (plan: Plan) => number | null) {
  const [owner] = await selectRows<{ plan: Plan }>(tx, `SELECT "plan"::text AS "plan" FROM "users" WHERE "id" = $1 FOR UPDATE`, [userId]);
  if (!owner) return { kind: 'owner-missing' } as const;
  const limit = limitFor(owner.plan);
  if (limit === null) return null;
  const [counted] = await selectRows<{ projects: number }>(tx, `SELECT count(*)::int AS "projects" FROM "projects" WHERE "userId" = $1`, [userId]);
  return counted!.projects >= limit ? ({ kind: 'limit-reached' } as const) : null;
}

async function insertProject(tx: SqlQueryable, project: NewProject): Promise<Project> {
  const [row] = await selectRows<ProjectRow>(
    tx,
    `INSERT INTO "projects" ("id", "userId", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [project.id, project.userId, project.name, project.templateId, project.widthMm, project.heightMm, project.depthMm, { json: JSON.stringify(project.artworkJson) }],
  );
  return toProject(row!);
}

/** Locks the owner's project and reads it, in one statement. */
async function lockOwned(tx: SqlQueryable, userId: string, id: string): Promise<Project | null> {
  const [row] = await selectRows<ProjectRow>(tx, `SELECT ${COLUMNS} FROM "projects" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`, [id, userId]);
  return row ? toProject(row) : null;
}

/**
 * Records the locked project's current state as its version, prunes what falls out of the kept
 * window, and writes the changes with the next version number, in one statement: the copy is made
 * inside the database (the document does not travel back and forth), and the DELETE, which sees
 * the table as it was before the INSERT, only removes versions older than the window. Every
 * version bump records the version it replaces, so the recorded numbers are consecutive and the
 * window is a range. updatedAt is the transaction's now(), the database clock.
 */
async function writeChanges(tx: SqlQueryable, current: Project, changes: ProjectChanges): Promise<Project> {
  const set = setClause(changes, 4);
  const [row] = await selectRows<ProjectRow>(
    tx,
    `WITH "recorded" AS (
       INSERT INTO "project_versions" ("projectId", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "createdAt")
       SELECT "id", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "updatedAt"
         FROM "projects" WHERE "id" = $1
     ), "pruned" AS (
       DELETE FROM "project_versions" WHERE "projectId" = $1 AND "version" <= $2
     )
     UPDATE "projects" SET ${set.sql}, "updatedAt" = now(), "version" = $3
      WHERE "id" = $1 RETURNING ${COLUMNS}`,
    [current.id, current.version - VERSIONS_KEPT, current.version + 1, ...set.args],
  );
  return toProject(row!);
}

export function createProjectRepository(prisma: PrismaClient, sql: SqlDriverAdapter) {
  /**
   * The shared shape of every change to an existing project: lock, check the precondition, ask
   * changesFor(current) what differs, write only that (no change: nothing written, version and
   * updatedAt stay).
   */
  function changeOwned<Refusal extends { kind: string }>(
    userId: string,
    id: string,
    precondition: VersionPrecondition | undefined,
    changesFor: (tx: SqlQueryable, current: Project) => Promise<{ changes: ProjectChanges } | Refusal>,
  ): Promise<WriteOutcome | Refusal> {
    return inTransaction(sql, async (tx): Promise<WriteOutcome | Refusal> => {
      const current = await lockOwned(tx, userId, id);
      if (!current) return { kind: 'not-found' };
      const wanted = await changesFor(tx, current);
      if (!('changes' in wanted)) return wanted;
      if (precondition && !precondition(current.version)) return { kind: 'precondition-failed' };
      if (Object.keys(wanted.changes).length === 0) return { kind: 'written', project: current };
      return { kind: 'written', project: await writeChanges(tx, current, wanted.changes) };
    });
  }

  return {
    /** The owner's projects, most recently updated first: one query. */
    async listOwned(userId: string): Promise<Project[]> {
      const rows = await selectRows<ProjectRow>(
        sql,
        `SELECT ${COLUMNS} FROM "projects" WHERE "userId" = $1 ORDER BY "updatedAt" DESC, "id" DESC`,
        [userId],
      );
      return rows.map(toProject);
    },

    async findOwned(userId: string, id: string): Promise<Project | null> {
      const [row] = await selectRows<ProjectRow>(sql, `SELECT ${COLUMNS} FROM "projects" WHERE "id" = $1 AND "userId" = $2`, [id, userId]);
      return row ? toProject(row) : null;
    },

    /** Inserts the project unless the owner already has limitFor(plan) projects. */
    createWithinLimit(project: NewProject, limitFor: (plan: Plan) => number | null): Promise<CreateOutcome> {
      return inTransaction(sql, async (tx): Promise<CreateOutcome> => {
        const refused = await checkOwnerLimit(tx, project.userId, limitFor);
        if (refused) return refused;
        return { kind: 'created', project: await insertProject(tx, project) };
      });
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
      return inTransaction(sql, async (tx): Promise<DuplicateOutcome> => {
        const refused = await checkOwnerLimit(tx, userId, limitFor);
        const [row] = await selectRows<ProjectRow>(tx, `SELECT ${COLUMNS} FROM "projects" WHERE "id" = $1 AND "userId" = $2`, [sourceId, userId]);
        if (!row) return refused?.kind === 'owner-missing' ? refused : { kind: 'not-found' };
        if (refused) return refused;
        const source = toProject(row);
        const { templateId, widthMm, heightMm, depthMm, artworkJson } = source;
        const copy = { id: newId, userId, name: nameFor(source), templateId, widthMm, heightMm, depthMm, artworkJson };
        return { kind: 'created', project: await insertProject(tx, copy) };
      });
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
        const [recorded] = await selectRows<VersionRow>(
          tx,
          `SELECT ${VERSION_COLUMNS} FROM "project_versions" WHERE "projectId" = $1 AND "version" = $2`,
          [id, version],
        );
        if (!recorded) return { kind: 'version-not-found' };
        return { changes: changesFor(current, { ...recorded, artworkJson: JSON.parse(recorded.artworkJson) as EditorState }) };
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
      const deleteSql = `DELETE FROM "projects" WHERE "id" = $1 AND "userId" = $2`;
      if (!precondition) return (await execute(sql, deleteSql, [id, userId])) > 0 ? 'deleted' : 'not-found';
      return inTransaction(sql, async (tx): Promise<DeleteOutcome> => {
        const [row] = await selectRows<{ version: number }>(
          tx,
          `SELECT "version" FROM "projects" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`,
          [id, userId],
        );
        if (!row) return 'not-found';
        if (!precondition(row.version)) return 'precondition-failed';
        await execute(tx, deleteSql, [id, userId]);
        return 'deleted';
      });
    },
  };
}

export type ProjectRepository = ReturnType<typeof createProjectRepository>;
