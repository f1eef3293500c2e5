import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DEFAULT_MIGRATIONS_DIR, migrate, MigrationError, readMigrations } from '../../src/db/migrator.js';
import { createEmptyDatabase, type EmptyDatabase } from '../helpers/database.js';
import { engineName } from '../helpers/app.js';

interface MigrationRow {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
}

const rowsOf = (db: Database) =>
  db.withSession((session) =>
    session.query<MigrationRow>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name'),
  );

describe(`migrator (${engineName()})`, () => {
  let empty: EmptyDatabase | undefined;
  const opened: Database[] = [];
  const open = async () => {
    const db = await empty!.open();
    if (!opened.includes(db)) opened.push(db);
    return db;
  };

  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close().catch(() => undefined);
    await empty?.drop();
    empty = undefined;
  });

  it('applies every migration to a fresh database and records it as Prisma does', async () => {
    empty = await createEmptyDatabase();
    const db = await open();
    const files = await readMigrations();
    const result = await db.withSession((session) => migrate(session));
    expect(result.applied).toEqual(files.map((file) => file.name));

    const rows = await rowsOf(db);
    expect(rows.map((row) => row.migration_name)).toEqual(files.map((file) => file.name));
    for (const row of rows) {
      const sql = await readFile(path.join(DEFAULT_MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('is a no-op when run again', async () => {
    empty = await createEmptyDatabase();
    const db = await open();
    await db.withSession((session) => migrate(session));
    const before = await rowsOf(db);
    const again = await db.withSession((session) => migrate(session));
    expect(again.applied).toEqual([]);
    expect(await rowsOf(db)).toEqual(before);
  });

  it('lets two migrators started at once both finish, applying each migration once', async () => {
    empty = await createEmptyDatabase();
    const [first, second] = await Promise.all([open(), engineName() === 'postgres' ? empty.open() : open()]);
    if (!opened.includes(second!)) opened.push(second!);
    const results = await Promise.all([
      first!.withSession((session) => migrate(session)),
      second!.withSession((session) => migrate(session)),
    ]);
    const files = await readMigrations();
    expect([...results[0].applied, ...results[1].applied].sort()).toEqual(files.map((file) => file.name).sort());
    expect((await rowsOf(first!)).length).toBe(files.length);
  });

  it('refuses a migration whose file changed after it was applied', async () => {
    empty = await createEmptyDatabase();
    const db = await open();
    const dir = await mkdtemp(path.join(tmpdir(), 'pf-migrations-'));
    await mkdir(path.join(dir, '001_first'));
    await writeFile(path.join(dir, '001_first', 'migration.sql'), 'CREATE TABLE "t" ("id" INTEGER);');
    await db.withSession((session) => migrate(session, dir));
    await writeFile(path.join(dir, '001_first', 'migration.sql'), 'CREATE TABLE "t" ("id" BIGINT);');
    await expect(db.withSession((session) => migrate(session, dir))).rejects.toThrow(/checksum mismatch/);
  });

  it('rolls back a failing migration completely and records nothing', async () => {
    empty = await createEmptyDatabase();
    const db = await open();
    const dir = await mkdtemp(path.join(tmpdir(), 'pf-migrations-'));
    await mkdir(path.join(dir, '001_broken'));
    await writeFile(
      path.join(dir, '001_broken', 'migration.sql'),
      'CREATE TABLE "half" ("id" INTEGER);\nSELECT * FROM "missing_table";',
    );
    await expect(db.withSession((session) => migrate(session, dir))).rejects.toBeInstanceOf(MigrationError);
    const tables = await db.withSession((session) =>
      session.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_name = 'half'"),
    );
    expect(tables).toEqual([]);
    expect(await rowsOf(db)).toEqual([]);
  });
});
