// With DATABASE_URL set, the run gets its own uniquely named PostgreSQL database, migrated once
// here and dropped at the end. Without it, every test app opens its own in-memory PGlite.
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrator.js';
import { createScratchDatabase } from './helpers/postgres-admin.js';
// @ts-expect-error: a plain ESM build script without type declarations
import { buildViewer } from '../scripts/build-viewer.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  // The viewer page's bundle (GET /viewer/viewer.js), as `npm run build` makes it.
  await buildViewer();
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    project.provide('databaseUrl', null);
    return;
  }
  const scratch = await createScratchDatabase(baseUrl, 'pf_test');
  const url = scratch.url;
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 2, timeoutMs: 10_000 });
  try {
    await database.withSession((session) => migrate(session));
  } finally {
    await database.close();
  }
  project.provide('databaseUrl', url);
  return () => scratch.drop();
}
