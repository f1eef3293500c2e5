// With DATABASE_URL set, the run gets its own uniquely named PostgreSQL database, migrated once
// here and dropped at the end. Without it, every test app opens its own in-memory PGlite, loaded
// from a template migrated once here (a data-directory dump: loading it skips PGlite's initdb and
// the migrations, the bulk of an embedded app's start-up).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/db/migrator.js';
import { createMigratedScratchDatabase } from './helpers/postgres-admin.js';
// @ts-expect-error: a plain ESM build script without type declarations
import { buildViewer } from '../scripts/build-viewer.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null;
    /** The embedded engine's migrated template (a dumpDataDir tar), when DATABASE_URL is unset. */
    embeddedTemplate: string | null;
  }
}

export default async function setup(project: TestProject) {
  // The viewer page's bundle (GET /viewer/viewer.js), as `npm run build` makes it.
  await buildViewer();
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    project.provide('databaseUrl', null);
    const dir = await mkdtemp(path.join(tmpdir(), 'pf-template-'));
    const template = path.join(dir, 'migrated.tar');
    await writeFile(template, await migratedEmbeddedDump());
    project.provide('embeddedTemplate', template);
    return () => rm(dir, { recursive: true, force: true });
  }
  project.provide('embeddedTemplate', null);
  const scratch = await createMigratedScratchDatabase(baseUrl, 'pf_test');
  project.provide('databaseUrl', scratch.url);
  return () => scratch.drop();
}

async function migratedEmbeddedDump(): Promise<Uint8Array> {
  const pglite = await PGlite.create('memory://');
  try {
    await migrate({
      query: async <Row>(sql: string, params?: readonly unknown[]) => (await pglite.query<Row>(sql, params ? [...params] : undefined)).rows,
      exec: async (script) => {
        await pglite.exec(script);
      },
    });
    return new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await pglite.close();
  }
}
