// Applies prisma/migrations/<name>/migration.sql in order and records each in _prisma_migrations
// exactly as `prisma migrate deploy` does (same table, same columns, SHA-256 of the file), under
// the same advisory lock Prisma takes, so the two agree and never run at once.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlSession } from './sql.js';

/** Prisma's own advisory lock id for migrations (schema-engine's postgres connector). */
export const PRISMA_MIGRATION_LOCK_ID = 72707369;

export const DEFAULT_MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../prisma/migrations',
);

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
}

export class MigrationError extends Error {}

export async function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies every pending migration. Each one runs in its own transaction together with its
 * _prisma_migrations row, so a failure leaves neither half a schema nor a record of it.
 * The session must be a single connection: the advisory lock belongs to it.
 */
export async function migrate(session: SqlSession, dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrationResult> {
  const migrations = await readMigrations(dir);
  await session.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATION_LOCK_ID]);
  try {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await session.query<{ migration_name: string; checksum: string; finished_at: unknown }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const recorded = new Map(rows.map((row) => [row.migration_name, row]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const record = recorded.get(migration.name);
      if (record) {
        if (record.finished_at === null) {
          throw new MigrationError(`Migration ${migration.name} is recorded as started but not finished; resolve it first.`);
        }
        if (record.checksum !== migration.checksum) {
          throw new MigrationError(`Migration ${migration.name} was modified after it was applied (checksum mismatch).`);
        }
        continue;
      }
      await applyOne(session, migration);
      applied.push(migration.name);
    }
    return { applied };
  } finally {
    await session.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATION_LOCK_ID]);
  }
}

async function applyOne(session: SqlSession, migration: MigrationFile): Promise<void> {
  await session.exec('BEGIN');
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count)
       VALUES ($1, $2, now(), $3, NULL, now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK');
    throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
