// Fresh, empty databases for tests of the migrator itself.
import { openDatabase, type Database } from '../../src/db/database.js';
import { createScratchDatabase } from './postgres-admin.js';
import { databaseUrl } from './app.js';

export interface EmptyDatabase {
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/** A new empty database on the run's engine; on the embedded engine every open() shares one PGlite. */
export async function createEmptyDatabase(): Promise<EmptyDatabase> {
  const base = databaseUrl();
  if (base) {
    const { url, drop } = await createScratchDatabase(base, 'pf_mig');
    return {
      open: () => openDatabase({ kind: 'postgres', url, poolSize: 2, timeoutMs: 10_000 }),
      drop,
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
