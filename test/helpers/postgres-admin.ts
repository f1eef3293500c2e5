// Scratch PostgreSQL databases beside the one a URL names: created with a unique name, dropped
// (forcibly) when done. Shared by the test setup, the proxy test and the benchmarks.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrator.js';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE "${name}"`);
  return {
    url: withDatabase(baseUrl, name),
    drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** A scratch database with every migration applied. */
export async function createMigratedScratchDatabase(baseUrl: string, prefix: string): Promise<ScratchDatabase> {
  const scratch = await createScratchDatabase(baseUrl, prefix);
  const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2, timeoutMs: 10_000 });
  try {
    await database.withSession((session) => migrate(session));
  } finally {
    await database.close();
  }
  return scratch;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
