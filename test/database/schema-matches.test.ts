// Proves the hand-written migrations produce exactly what prisma/schema.prisma describes.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrator.js';
import { engineName } from '../helpers/app.js';
import { createEmptyDatabase, type EmptyDatabase } from '../helpers/database.js';
import { readPrismaSchema } from '../helpers/prisma-schema.js';

const expected = readPrismaSchema(path.resolve(import.meta.dirname, '../../prisma/schema.prisma'));

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
  character_maximum_length: number | null;
}
interface IndexRow {
  table_name: string;
  is_unique: boolean;
  is_primary: boolean;
  columns: string[] | string;
}
interface ForeignKeyRow {
  table_name: string;
  columns: string[] | string;
  referenced_table: string;
  delete_rule: string;
}

// PGlite returns name[] as a PostgreSQL array literal string; pg returns a JS array.
const asArray = (value: string[] | string) =>
  Array.isArray(value) ? value : value.replace(/^\{|\}$/g, '').split(',').map((part) => part.replace(/^"|"$/g, ''));

describe(`migrated database matches schema.prisma (${engineName()})`, () => {
  let empty: EmptyDatabase;
  let db: Database;
  let columns: ColumnRow[];
  let indexes: IndexRow[];
  let foreignKeys: ForeignKeyRow[];

  beforeAll(async () => {
    empty = await createEmptyDatabase();
    db = await empty.open();
    await db.withSession(async (session) => {
      await migrate(session);
      columns = await session.query<ColumnRow>(
        `SELECT table_name, column_name, data_type, udt_name, is_nullable, character_maximum_length
           FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
      );
      indexes = await session.query<IndexRow>(
        `SELECT t.relname AS table_name, i.indisunique AS is_unique, i.indisprimary AS is_primary,
                ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
           FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'`,
      );
      foreignKeys = await session.query<ForeignKeyRow>(
        `SELECT c.conrelid::regclass::text AS table_name, c.confrelid::regclass::text AS referenced_table,
                ARRAY(SELECT a.attname FROM unnest(c.conkey) AS k(attnum)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum)::text[] AS columns,
                CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'r' THEN 'RESTRICT' WHEN 'n' THEN 'SET NULL'
                                   WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END AS delete_rule
           FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
          WHERE c.contype = 'f' AND n.nspname = 'public'`,
      );
    });
  });

  afterAll(async () => {
    await db?.close();
    await empty?.drop();
  });

  it('reads every model of the schema', () => {
    expect(expected.map((table) => table.model).sort()).toEqual([
      'ApiKey', 'Asset', 'Export', 'FileDeletion', 'Font', 'IdempotentRequest', 'Project', 'ProjectShare', 'ProjectVersion', 'User',
      'Webhook', 'WebhookDelivery', 'WebhookMessage',
    ]);
  });

  it('has exactly the tables of the schema', () => {
    const tables = [...new Set(columns.map((column) => column.table_name))].sort();
    expect(tables).toEqual(expected.map((table) => table.table).sort());
  });

  for (const table of expected) {
    describe(`${table.model} (${table.table})`, () => {
      it('has each column with its type, length and nullability, and no other', () => {
        const actual = columns
          .filter((column) => column.table_name === table.table)
          .map((column) => ({
            name: column.column_name,
            type: column.data_type === 'USER-DEFINED' ? column.udt_name : column.data_type,
            maxLength: column.character_maximum_length,
            nullable: column.is_nullable === 'YES',
          }))
          .sort((a, b) => a.name.localeCompare(b.name));
        expect(actual).toEqual([...table.columns].sort((a, b) => a.name.localeCompare(b.name)));
      });

      it('has its primary key, unique indexes and indexes', () => {
        const mine = indexes.filter((index) => index.table_name === table.table);
        expect(mine.filter((index) => index.is_primary).map((index) => asArray(index.columns))).toEqual([table.primaryKey]);
        const uniques = mine.filter((index) => index.is_unique && !index.is_primary).map((index) => asArray(index.columns).join(','));
        expect(uniques.sort()).toEqual(table.uniques.map((columns) => columns.join(',')).sort());
        const plain = mine.filter((index) => !index.is_unique).map((index) => asArray(index.columns).join(','));
        expect(plain.sort()).toEqual(table.indexes.map((columns) => columns.join(',')).sort());
      });

      it('has its foreign keys with their delete rules', () => {
        const actual = foreignKeys
          .filter((key) => key.table_name.replace(/"/g, '') === table.table)
          .map((key) => ({ columns: asArray(key.columns), references: key.referenced_table.replace(/"/g, ''), onDelete: key.delete_rule }));
        expect(actual).toEqual(table.foreignKeys);
      });
    });
  }
});
