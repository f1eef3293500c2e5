// Fresh, empty databases for tests of the migrator itself.
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../src/db/database.js';
import { adminQuery, withDatabase } from '../global-setup.js';
import { databaseUrl } from './app.js';

export interface EmptyDatabase {
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/** A new empty database on the run's engine; on the embedded engine every open() shares one PGlite. */
export async function createEmptyDatabase(): Promise<EmptyDatabase> {
  const base = databaseUrl();
  if (base) {
    const name = `pf_mig_${Date.now()}_${randomBytes(3).toString('hex')}`;
    await adminQuery(base, `CREATE DATABASE "${name}"`);
    const url = withDatabase(base, name);
    return {
      open: () => openDatabase({ kind: 'postgres', url, poolSize: 2, timeoutMs: 10_000 }),
      drop: () => adminQuery(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  }
  let shared: Promise<Database> | undefined;
  return {
    open: () => (shared ??= openDatabase({ kind: 'embedded', dataDir: 'memory://' })),
    drop: async () => {
      if (shared) await (await shared).close();
    },
  };
}
