// Prisma CLI configuration. The URL is read from process.env directly: Prisma's env() helper
// throws when DATABASE_URL is unset, and an unset DATABASE_URL is this project's default
// (the embedded engine). Only `prisma generate` runs here; migrations are applied by src/db/migrator.ts.
import path from 'node:path';
import { defineConfig } from 'prisma/config';

const here = import.meta.dirname;

export default defineConfig({
  schema: path.join(here, 'schema.prisma'),
  migrations: { path: path.join(here, 'migrations') },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
