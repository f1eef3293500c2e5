// Projects and their version history in the database. Every query is scoped by the owner's id;
// whether the owner's token is still valid was settled by the guard before any of these run.
//
// The free-plan cap is enforced in one transaction that serialises an account's creates and
// duplicates on its user row. A change to an existing project is a compare-and-set on its version:
// read, decide (the caller's If-Match, what differs), then one statement that writes only if the
// version is still the one read, recording the replaced state as a version in the same statement.
// When another write came in between, the change is decided again under the project's row lock.
// Either way no write is lost and no precondition is checked against a stale version, on one
// process or several.
//
// Every statement is SQL through driver-sql.ts: the cap, the compare-and-set and the deletion
// carry conditions the Prisma client cannot express, and the reads are the editor's hot paths,
// where the client's findFirst and findMany would cost about three times the driver's CPU.
import type { Project as ProjectRow, ProjectVersion as VersionRow } from '../generated/prisma/client.js';
import type { Plan } from '../generated/prisma/enums.js';
import type { EditorState } from '../schemas/projects.js';
import { execute, inTransaction, selectRows, type SqlArg, type SqlDriverAdapter, type SqlQueryable } from './driver-sql.js';
import { deleteRecordingFiles } from './file-deletions.js';
import { lockAccount } from './users.js';

export type { Plan };

/** A project with its document typed (the column only ever receives documents that passed the EditorState schema). */
export type Project = Omit<ProjectRow, 'artworkJson'> & { artworkJson: EditorState };

export type NewProject = Omit<Project, 'createdAt' | 'updatedAt' | 'version'>;

/** The columns a change may set (and a version records). */
export type ProjectState = Pick<Project, 'name' | 'templateId' | 'widthMm' | 'heightMm' | 'depthMm' | 'artworkJson'>;
export type ProjectChanges = Partial<ProjectState>;

/** A recorded state, as listed (without its document); createdAt: the project's updatedAt while it was current. */
export type ProjectVersionSummary = Omit<VersionRow, 'projectId' | 'artworkJson'>;
export type ProjectVersion = ProjectVersionSummary & { artworkJson: EditorState };

/** The versions kept per project; older ones are deleted by the write that records a new one. */
export const VERSIONS_KEPT = 50;

/** Decides whether a write may go ahead given the project's current version. */
export type VersionPrecondition = (currentVersion: number) => boolean;

/** Why a write did not happen; the service turns each into its answer. */
export type Refused<Reason extends string> = { refused: Reason };

/** A change that was decided: written, or (nothing differed) left as it was. */
export type Written = { project: Project; changed: boolean };

export type WriteOutcome = Written | Refused<'not-found' | 'precondition-failed'>;

export type CreateOutcome = { project: Project } | Refused<'limit-reached'>;

export type ProjectStateOutcome =
  | { kind: 'found'; state: ProjectState & Pick<Project, 'createdAt' | 'updatedAt'> }
  | { kind: 'project-gone' }
  | { kind: 'version-gone' };

/** deleted: with the files of the project's exports, recorded for removal in the same transaction. */
export type DeleteOutcome = { exportFiles: string[] } | Refused<'not-found' | 'precondition-failed'>;

const COLUMNS =
  '"id", "userId", "name", "templateId", "widthMm", "heightMm", "depthMm", ' + '"artworkJson", "createdAt", "updatedAt", "version"';
const STATE_COLUMNS = `"version", "name", "templateId", "widthMm", "heightMm", "depthMm", "createdAt"`;

type ProjectDocument = Pick<ProjectState, 'artworkJson'>;

/** A row as the driver gives it: the document as its JSON text, times as ISO text. */
type Row<T> = { [Key in keyof T]: Key extends 'artworkJson' | 'createdAt' | 'updatedAt' ? string : T[Key] };

// Field by field, not by spreading the row: see toProjectDto.
const toProject = (row: Row<Project>): Project => ({
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

const toSummary = (row: Row<ProjectVersionSummary>): ProjectVersionSummary => ({ ...row, createdAt: new Date(row.createdAt) });

/** The columns a change may write. */
const WRITABLE = ['name', 'templateId', 'widthMm', 'heightMm', 'depthMm', 'artworkJson'] as const;

function setClause(changes: ProjectChanges, firstParameter: number): { sql: string; args: SqlArg[] } {
  const keys = WRITABLE.filter((key) => changes[key] !== undefined);
  return {
    sql: keys.map((key, index) => `"${key}" = $${firstParameter + index}`).join(', '),
    args: keys.map((key) => (key === 'artworkJson' ? { json: JSON.stringify(changes.artworkJson) } : (changes[key] as SqlArg))),
  };
}

/** The owner's project's columns, its row locked with lock; undefined when it is not the owner's. */
async function selectOwned<T>(db: SqlQueryable, columns: string, userId: string, id: string, lock = false): Promise<T | undefined> {
  const statement = `SELECT ${columns} FROM "projects" WHERE "id" = $1 AND "userId" = $2${lock ? ' FOR UPDATE' : ''}`;
  const [row] = await selectRows<T>(db, statement, [id, userId]);
  return row;
}

async function readOwned(db: SqlQueryable, userId: string, id: string, lock = false): Promise<Project | null> {
  const row = await selectOwned<Row<Project>>(db, COLUMNS, userId, id, lock);
  return row ? toProject(row) : null;
}

const ownedVersion = async (db: SqlQueryable, userId: string, id: string, lock = false): Promise<number | undefined> =>
  (await selectOwned<{ version: number }>(db, '"version"', userId, id, lock))?.version;

/** The state recorded as `version` of the project, if it is kept. */
async function findRecorded(db: SqlQueryable, id: string, version: number): Promise<(Row<ProjectVersionSummary> & ProjectDocument) | null> {
  const [row] = await selectRows<Row<ProjectVersion>>(
    db,
    `SELECT ${STATE_COLUMNS}, "artworkJson" FROM "project_versions" WHERE "projectId" = $1 AND "version" = $2`,
    [id, version],
  );
  return row ? { ...row, artworkJson: JSON.parse(row.artworkJson) as EditorState } : null;
}

/**
 * The owner's project as it was at `version`: its current row while it is at that version, else
 * the state recorded then (updatedAt: when that state was saved).
 */
export async function findStateAt(db: SqlQueryable, userId: string, id: string, version: number): Promise<ProjectStateOutcome> {
  const project = await readOwned(db, userId, id);
  if (!project) return { kind: 'project-gone' };
  const recorded = project.version === version ? null : await findRecorded(db, id, version);
  if (project.version !== version && !recorded) return { kind: 'version-gone' };
  const { name, templateId, widthMm, heightMm, depthMm, artworkJson } = recorded ?? project;
  const updatedAt = recorded ? new Date(recorded.createdAt) : project.updatedAt;
  return { kind: 'found', state: { name, templateId, widthMm, heightMm, depthMm, artworkJson, createdAt: project.createdAt, updatedAt } };
}

/**
 * Inserts the project unless its owner already has `limit` projects (null: no cap). Run after the
 * owner's row lock (lockAccount: the turn every create and duplicate of the account waits for),
 * the count is a new statement (READ COMMITTED) and sees every project committed before the lock
 * was granted.
 */
async function insertWithinLimit(tx: SqlQueryable, project: NewProject, limit: number | null): Promise<CreateOutcome> {
  const [row] = await selectRows<Row<Project>>(
    tx,
    `INSERT INTO "projects" ("id", "userId", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson")
     SELECT $1::text, $2::text, $3::text, $4::text, $5::double precision, $6::double precision, $7::double precision, $8::json
      WHERE $9::int IS NULL OR (SELECT count(*) FROM "projects" WHERE "userId" = $2::text) < $9::int
     RETURNING ${COLUMNS}`,
    [
      project.id,
      project.userId,
      project.name,
      project.templateId,
      project.widthMm,
      project.heightMm,
      project.depthMm,
      { json: JSON.stringify(project.artworkJson) },
      limit,
    ],
  );
  return row ? { project: toProject(row) } : { refused: 'limit-reached' };
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
  const [row] = await selectRows<Row<Project>>(
    db,
    `WITH "updated" AS (
       UPDATE "projects" SET ${set.sql}, "updatedAt" = now(), "version" = $3
        WHERE "id" = $1 AND "version" = $2 RETURNING ${COLUMNS}
     ), "recorded" AS (
       INSERT INTO "project_versions"
         ("projectId", "version", "name", "templateId", "widthMm", "heightMm", "depthMm", "artworkJson", "createdAt")
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

export function createProjectRepository(sql: SqlDriverAdapter) {
  /**
   * The shared shape of every change to an existing project: read, ask changesFor(current) what
   * differs, check the precondition, write only that if the version did not move (no change:
   * nothing written, version and updatedAt stay). When it moved, all of it again under the row lock.
   */
  async function changeOwned<Reason extends string>(
    userId: string,
    id: string,
    precondition: VersionPrecondition | undefined,
    changesFor: (db: SqlQueryable, current: Project) => Promise<{ changes: ProjectChanges } | Refused<Reason>>,
  ): Promise<WriteOutcome | Refused<Reason>> {
    const attempt = async (db: SqlQueryable, current: Project): Promise<WriteOutcome | Refused<Reason> | null> => {
      const wanted = await changesFor(db, current);
      if (!('changes' in wanted)) return wanted;
      if (precondition && !precondition(current.version)) return { refused: 'precondition-failed' };
      if (Object.keys(wanted.changes).length === 0) return { project: current, changed: false };
      const written = await writeIfCurrent(db, current, wanted.changes);
      return written && { project: written, changed: true };
    };
    const read = await readOwned(sql, userId, id);
    if (!read) return { refused: 'not-found' };
    const optimistic = await attempt(sql, read);
    if (optimistic) return optimistic;
    return inTransaction(sql, async (tx) => {
      const current = await readOwned(tx, userId, id, true);
      if (!current) return { refused: 'not-found' as const };
      const outcome = await attempt(tx, current);
      if (!outcome) throw new Error('a project changed under its own row lock');
      return outcome;
    });
  }

  return {
    /** The owner's projects, most recently updated first. */
    async listOwned(userId: string): Promise<Project[]> {
      const rows = await selectRows<Row<Project>>(
        sql,
        `SELECT ${COLUMNS} FROM "projects" WHERE "userId" = $1 ORDER BY "updatedAt" DESC, "id" DESC`,
        [userId],
      );
      return rows.map(toProject);
    },

    findOwned(userId: string, id: string): Promise<Project | null> {
      return readOwned(sql, userId, id);
    },

    /** Inserts the project unless the owner already has limitFor(plan) projects. */
    createWithinLimit(project: NewProject, limitFor: (plan: Plan) => number | null): Promise<CreateOutcome> {
      return inTransaction(sql, async (tx) => insertWithinLimit(tx, project, limitFor(await lockAccount(tx, project.userId))));
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
    ): Promise<CreateOutcome | Refused<'not-found'>> {
      return inTransaction(sql, async (tx) => {
        const limit = limitFor(await lockAccount(tx, userId));
        const source = await readOwned(tx, userId, sourceId);
        if (!source) return { refused: 'not-found' as const };
        const { templateId, widthMm, heightMm, depthMm, artworkJson } = source;
        const copy = { id: newId, userId, name: nameFor(source), templateId, widthMm, heightMm, depthMm, artworkJson };
        return insertWithinLimit(tx, copy, limit);
      });
    },

    /** Writes what changesFor(current) says differs, if precondition(current version) allows. */
    updateOwned(
      userId: string,
      id: string,
      changesFor: (current: Project) => ProjectChanges,
      precondition?: VersionPrecondition,
    ): Promise<WriteOutcome> {
      return changeOwned<never>(userId, id, precondition, async (_db, current) => ({ changes: changesFor(current) }));
    },

    /** Brings back the state recorded as `version`; the replaced state is recorded in turn. */
    restoreOwned(
      userId: string,
      id: string,
      version: number,
      changesFor: (current: Project, recorded: ProjectState) => ProjectChanges,
      precondition?: VersionPrecondition,
    ): Promise<WriteOutcome | Refused<'version-not-found'>> {
      return changeOwned<'version-not-found'>(userId, id, precondition, async (db, current) => {
        const recorded = await findRecorded(db, id, version);
        if (!recorded) return { refused: 'version-not-found' as const };
        return { changes: changesFor(current, recorded) };
      });
    },

    /** The owner's project's versions, newest first; null when the project is not the owner's. */
    async listVersions(userId: string, id: string): Promise<ProjectVersionSummary[] | null> {
      if ((await ownedVersion(sql, userId, id)) === undefined) return null;
      const rows = await selectRows<Row<ProjectVersionSummary>>(
        sql,
        `SELECT ${STATE_COLUMNS} FROM "project_versions" WHERE "projectId" = $1 ORDER BY "version" DESC`,
        [id],
      );
      return rows.map(toSummary);
    },

    /** One version of the owner's project: undefined when the project is not the owner's, null when the version is not kept. */
    async findVersion(userId: string, id: string, version: number): Promise<ProjectVersion | null | undefined> {
      if ((await ownedVersion(sql, userId, id)) === undefined) return undefined;
      const row = await findRecorded(sql, id, version);
      return row && { ...toSummary(row), artworkJson: row.artworkJson };
    },

    /**
     * Deletes the owner's project (by cascade its versions) and its exports, the row locked and
     * the precondition, if any, checked first, in one transaction.
     */
    async deleteOwned(userId: string, id: string, precondition?: VersionPrecondition): Promise<DeleteOutcome> {
      return inTransaction(sql, async (tx) => {
        const current = await ownedVersion(tx, userId, id, true);
        if (current === undefined) return { refused: 'not-found' as const };
        if (precondition && !precondition(current)) return { refused: 'precondition-failed' as const };
        await execute(tx, `DELETE FROM "projects" WHERE "id" = $1`, [id]);
        // Its exports go with it (rows, and their files once this commits): no download outlives the project.
        return { exportFiles: await deleteRecordingFiles(tx, 'exports', ['fileName'], `"projectId" = $1 AND "userId" = $2`, [id, userId]) };
      });
    },
  };
}

export type ProjectRepository = ReturnType<typeof createProjectRepository>;
