// Projects and their version history in the database. Every query is scoped by the owner's id,
// and every statement that reads or writes on a caller's behalf also checks the caller's account
// (it exists, and its token generation is the token's): the JWT guard leaves that read to these
// statements on the editor's hot routes, so a request costs one round trip fewer.
//
// The free-plan cap is enforced in one transaction that serialises an account's creates and
// duplicates on its user row. A change to an existing project is a compare-and-set on its version:
// read, decide (the caller's If-Match, what differs), then one statement that writes only if the
// version is still the one read, recording the replaced state as a version in the same statement.
// When another write came in between, the change is decided again under the project's row lock.
// Either way no write is lost and no precondition is checked against a stale version, on one
// process or several.
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

/** Decides whether a write may go ahead given the project's current version. */
export type VersionPrecondition = (currentVersion: number) => boolean;

/** Who a statement acts for: the token's subject and generation, checked against the account. */
export interface Caller {
  userId: string;
  tokenGeneration: number;
}

/** The caller's account is gone, or its tokens were revoked (a newer generation). */
export type Unauthorized = { kind: 'unauthorized' };

export type ReadOutcome = { kind: 'found'; project: Project } | { kind: 'not-found' } | Unauthorized;

export type CreateOutcome = { kind: 'created'; project: Project } | { kind: 'limit-reached' } | Unauthorized;

export type DuplicateOutcome = CreateOutcome | { kind: 'not-found' };

export type WriteOutcome =
  | { kind: 'written'; project: Project; /** Nothing differed: nothing was written. */ unchanged?: true }
  | { kind: 'not-found' }
  | { kind: 'precondition-failed' }
  | Unauthorized;

export type RestoreOutcome = WriteOutcome | { kind: 'version-not-found' };

/** deleted: with the files of the project's exports, recorded for removal in the same transaction. */
export type DeleteOutcome = { kind: 'deleted'; exportFiles: string[] } | { kind: 'not-found' } | { kind: 'precondition-failed' } | Unauthorized;

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
export function withEditorState<T extends { artworkJson: unknown }>(row: T): Omit<T, 'artworkJson'> & { artworkJson: EditorState } {
  return { ...row, artworkJson: row.artworkJson as EditorState };
}

const COLUMNS = `"id", "userId", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "createdAt", "updatedAt", "version"`;
const VERSION_COLUMNS = `"version", "name", "templateId", "widthMm", "heightMm", "depthMm", "createdAt", "artworkJson"`;

/** A project row as the driver gives it: the document as its JSON text, times as ISO text. */
type ProjectRow = Omit<Project, 'artworkJson' | 'createdAt' | 'updatedAt'> & { artworkJson: string; createdAt: string; updatedAt: string };
type VersionRow = Omit<ProjectVersion, 'artworkJson' | 'createdAt'> & { artworkJson: string; createdAt: string };

// Field by field, not by spreading the row: see toProjectDto.
const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  userId: row.userId,
  name: row.name,
  templateId: row.templateId,
  widthMm: row.widthMm,
  heightMm: row.heightMm,
  depthMm: row.depthMm,
  artworkJson: JSON.parse(row.artworkJson) as EditorState,
  createdAt: new Date(row.createdAt),
  updatedAt: new Date(row.updatedAt),
  version: row.version,
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

const UNAUTHORIZED: Unauthorized = { kind: 'unauthorized' };

/** The project columns, taken from "projects" aliased p in a join. */
const P_COLUMNS = COLUMNS.split(', ').map((column) => `p.${column}`).join(', ');

/** A project row joined to its caller's account; the project's columns are null when there is none. */
type CallerRow = { callerGeneration: number } & ({ [Key in keyof ProjectRow]: ProjectRow[Key] } | { [Key in keyof ProjectRow]: null });

/** Tells an unknown or revoked caller from a known one, given the caller's account row (if any). */
const isCallerValid = (caller: Caller, row: { callerGeneration: number } | undefined): boolean =>
  row !== undefined && row.callerGeneration === caller.tokenGeneration;

/** The caller's project, read with the caller's account in one statement. */
async function readOwned(db: SqlQueryable, caller: Caller, id: string): Promise<ReadOutcome> {
  const [row] = await selectRows<CallerRow>(
    db,
    `SELECT u."tokenGeneration" AS "callerGeneration", ${P_COLUMNS}
       FROM "users" u LEFT JOIN "projects" p ON p."id" = $2 AND p."userId" = u."id"
      WHERE u."id" = $1`,
    [caller.userId, id],
  );
  if (!isCallerValid(caller, row)) return UNAUTHORIZED;
  return row!.id === null ? { kind: 'not-found' } : { kind: 'found', project: toProject(row as ProjectRow) };
}

/** Whether the caller's account still accepts the caller's token (for refusals that did not read it). */
async function callerIsValid(db: SqlQueryable, caller: Caller): Promise<boolean> {
  const [row] = await selectRows<{ callerGeneration: number }>(
    db,
    `SELECT "tokenGeneration" AS "callerGeneration" FROM "users" WHERE "id" = $1`,
    [caller.userId],
  );
  return isCallerValid(caller, row);
}

/**
 * Locks the caller's account row (the turn every create and duplicate of the account waits for)
 * and returns the most projects its plan allows: undefined when the caller is not valid.
 */
async function lockOwner(tx: SqlQueryable, caller: Caller, limitFor: (plan: Plan) => number | null): Promise<number | null | undefined> {
  const [owner] = await selectRows<{ plan: Plan; callerGeneration: number }>(
    tx,
    `SELECT "plan"::text AS "plan", "tokenGeneration" AS "callerGeneration" FROM "users" WHERE "id" = $1 FOR UPDATE`,
    [caller.userId],
  );
  if (!isCallerValid(caller, owner)) return undefined;
  return limitFor(owner!.plan);
}

/**
 * Inserts the project unless its owner already has `limit` projects (null: no cap). Run after the
 * owner's row lock, the count is a new statement (READ COMMITTED) and sees every project
 * committed before the lock was granted.
 */
async function insertWithinLimit(tx: SqlQueryable, project: NewProject, limit: number | null): Promise<Project | null> {
  const [row] = await selectRows<ProjectRow>(
    tx,
    `INSERT INTO "projects" ("id", "userId", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson")
     SELECT $1::text, $2::text, $3::text, $4::text, $5::double precision, $6::double precision, $7::double precision, $8::json
      WHERE $9::int IS NULL OR (SELECT count(*) FROM "projects" WHERE "userId" = $2::text) < $9::int
     RETURNING ${COLUMNS}`,
    [project.id, project.userId, project.name, project.templateId, project.widthMm, project.heightMm, project.depthMm, { json: JSON.stringify(project.artworkJson) }, limit],
  );
  return row ? toProject(row) : null;
}

/** Locks the owner's project and reads it, in one statement. */
async function lockOwned(tx: SqlQueryable, userId: string, id: string): Promise<Project | null> {
  const [row] = await selectRows<ProjectRow>(tx, `SELECT ${COLUMNS} FROM "projects" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`, [id, userId]);
  return row ? toProject(row) : null;
}

/**
 * Writes the changes with the next version number if the project is still at current.version,
 * and in the same statement records the replaced state as a version (copied inside the database:
 * the document does not travel back and forth) and prunes what falls out of the kept window.
 * Null when another write moved the version first; then nothing was written. The copy reads the
 * statement's snapshot, which holds exactly current's state whenever the version check passes
 * (the version moves with every write). Every version bump records the version it replaces, so
 * the recorded numbers are consecutive and the window is a range. updatedAt is the database clock.
 */
async function writeIfCurrent(db: SqlQueryable, current: Project, changes: ProjectChanges): Promise<Project | null> {
  const set = setClause(changes, 5);
  const [row] = await selectRows<ProjectRow>(
    db,
    `WITH "updated" AS (
       UPDATE "projects" SET ${set.sql}, "updatedAt" = now(), "version" = $3
        WHERE "id" = $1 AND "version" = $2 RETURNING ${COLUMNS}
     ), "recorded" AS (
       INSERT INTO "project_versions" ("projectId", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "createdAt")
       SELECT "id", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "updatedAt"
         FROM "projects" WHERE "id" = $1 AND "version" = $2 AND EXISTS (SELECT 1 FROM "updated")
     ), "pruned" AS (
       DELETE FROM "project_versions"
        WHERE "projectId" = $1 AND "version" <= $4 AND EXISTS (SELECT 1 FROM "updated")
     )
     SELECT * FROM "updated"`,
    [current.id, current.version, current.version + 1, current.version - VERSIONS_KEPT, ...set.args],
  );
  return row ? toProject(row) : null;
}

export function createProjectRepository(prisma: PrismaClient, sql: SqlDriverAdapter) {
  /**
   * The shared shape of every change to an existing project: read, ask changesFor(current) what
   * differs, check the precondition, write only that if the version did not move (no change:
   * nothing written, version and updatedAt stay). When it moved, all of it again under the row lock.
   */
  async function changeOwned<Refusal extends { kind: string }>(
    caller: Caller,
    id: string,
    precondition: VersionPrecondition | undefined,
    changesFor: (db: SqlQueryable, current: Project) => Promise<{ changes: ProjectChanges } | Refusal>,
  ): Promise<WriteOutcome | Refusal> {
    const attempt = async (db: SqlQueryable, current: Project): Promise<WriteOutcome | Refusal | null> => {
      const wanted = await changesFor(db, current);
      if (!('changes' in wanted)) return wanted;
      if (precondition && !precondition(current.version)) return { kind: 'precondition-failed' };
      if (Object.keys(wanted.changes).length === 0) return { kind: 'written', project: current, unchanged: true };
      const written = await writeIfCurrent(db, current, wanted.changes);
      return written && { kind: 'written', project: written };
    };
    const read = await readOwned(sql, caller, id);
    if (read.kind !== 'found') return read;
    const optimistic = await attempt(sql, read.project);
    if (optimistic) return optimistic;
    return inTransaction(sql, async (tx): Promise<WriteOutcome | Refusal> => {
      const current = await lockOwned(tx, caller.userId, id);
      if (!current) return { kind: 'not-found' };
      const outcome = await attempt(tx, current);
      if (!outcome) throw new Error('a project changed under its own row lock');
      return outcome;
    });
  }

  return {
    /** The caller's projects, most recently updated first: one statement, account check included. */
    async listOwned(caller: Caller): Promise<Project[] | Unauthorized> {
      const rows = await selectRows<CallerRow>(
        sql,
        `SELECT u."tokenGeneration" AS "callerGeneration", ${P_COLUMNS}
           FROM "users" u LEFT JOIN "projects" p ON p."userId" = u."id"
          WHERE u."id" = $1 ORDER BY p."updatedAt" DESC, p."id" DESC`,
        [caller.userId],
      );
      if (!isCallerValid(caller, rows[0])) return UNAUTHORIZED;
      return rows.filter((row): row is ProjectRow & CallerRow => row.id !== null).map(toProject);
    },

    findOwned(caller: Caller, id: string): Promise<ReadOutcome> {
      return readOwned(sql, caller, id);
    },

    /** Inserts the project unless the owner already has limitFor(plan) projects. */
    createWithinLimit(caller: Caller, project: NewProject, limitFor: (plan: Plan) => number | null): Promise<CreateOutcome> {
      return inTransaction(sql, async (tx): Promise<CreateOutcome> => {
        const limit = await lockOwner(tx, caller, limitFor);
        if (limit === undefined) return UNAUTHORIZED;
        const created = await insertWithinLimit(tx, project, limit);
        return created ? { kind: 'created', project: created } : { kind: 'limit-reached' };
      });
    },

    /**
     * Copies the caller's project (its current state, not its versions) under newId, unless the
     * owner is at limitFor(plan). nameFor(source) names the copy.
     */
    duplicateWithinLimit(
      caller: Caller,
      sourceId: string,
      newId: string,
      nameFor: (source: Project) => string,
      limitFor: (plan: Plan) => number | null,
    ): Promise<DuplicateOutcome> {
      return inTransaction(sql, async (tx): Promise<DuplicateOutcome> => {
        const limit = await lockOwner(tx, caller, limitFor);
        if (limit === undefined) return UNAUTHORIZED;
        const [row] = await selectRows<ProjectRow>(tx, `SELECT ${COLUMNS} FROM "projects" WHERE "id" = $1 AND "userId" = $2`, [sourceId, caller.userId]);
        if (!row) return { kind: 'not-found' };
        const source = toProject(row);
        const { templateId, widthMm, heightMm, depthMm, artworkJson } = source;
        const copy = { id: newId, userId: caller.userId, name: nameFor(source), templateId, widthMm, heightMm, depthMm, artworkJson };
        const created = await insertWithinLimit(tx, copy, limit);
        return created ? { kind: 'created', project: created } : { kind: 'limit-reached' };
      });
    },

    /** Writes what changesFor(current) says differs, if precondition(current version) allows. */
    updateOwned(
      caller: Caller,
      id: string,
      changesFor: (current: Project) => ProjectChanges,
      precondition?: VersionPrecondition,
    ): Promise<WriteOutcome> {
      return changeOwned<never>(caller, id, precondition, async (_db, current) => ({ changes: changesFor(current) }));
    },

    /** Brings back the state recorded as `version`; the replaced state is recorded in turn. */
    restoreOwned(
      caller: Caller,
      id: string,
      version: number,
      changesFor: (current: Project, recorded: ProjectState) => ProjectChanges,
      precondition?: VersionPrecondition,
    ): Promise<RestoreOutcome> {
      return changeOwned<{ kind: 'version-not-found' }>(caller, id, precondition, async (db, current) => {
        const [recorded] = await selectRows<VersionRow>(
          db,
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
     * Deletes the caller's project (by cascade its versions) and its exports, the row locked and
     * the precondition, if any, checked first, in one transaction.
     */
    async deleteOwned(caller: Caller, id: string, precondition?: VersionPrecondition): Promise<DeleteOutcome> {
      return inTransaction(sql, async (tx): Promise<DeleteOutcome> => {
        if (!(await callerIsValid(tx, caller))) return UNAUTHORIZED;
        const [current] = await selectRows<{ version: number }>(
          tx,
          `SELECT "version" FROM "projects" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`,
          [id, caller.userId],
        );
        if (!current) return { kind: 'not-found' };
        if (precondition && !precondition(current.version)) return { kind: 'precondition-failed' };
        await execute(tx, `DELETE FROM "projects" WHERE "id" = $1`, [id]);
        // Its exports go with it (rows, and their files once this commits): no download outlives the project.
        const files = await selectRows<{ name: string }>(
          tx,
          `WITH gone AS (DELETE FROM "exports" WHERE "projectId" = $1 AND "userId" = $2 RETURNING "fileName")
           INSERT INTO "file_deletions" ("name") SELECT "fileName" FROM gone WHERE "fileName" IS NOT NULL
           ON CONFLICT DO NOTHING RETURNING "name"`,
          [id, caller.userId],
        );
        return { kind: 'deleted', exportFiles: files.map((file) => file.name) };
      });
    },
  };
}

export type ProjectRepository = ReturnType<typeof createProjectRepository>;
