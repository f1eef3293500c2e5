// With DATABASE_URL set, the run gets its own uniquely named PostgreSQL database, migrated once
// here and dropped at the end. Without it, every test app opens its own in-memory PGlite.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrator.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    project.provide('databaseUrl', null);
    return;
  }
  const name = `pf_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE "${name}"`);
  const url = withDatabase(baseUrl, name);
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 2, timeoutMs: 10_000 });
  try {
    await database.withSession((session) => migrate(session));
  } finally {
    await database.close();
  }
  project.provide('databaseUrl', url);
  return async () => {
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
