// Builds the real app on a real database: the run's PostgreSQL database when DATABASE_URL was
// set, otherwise a fresh in-memory PGlite per app, loaded from the run's migrated template.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config, type DatabaseTarget } from '../../src/config.js';
import { createMigratedScratchDatabase } from './postgres-admin.js';
import { enforceResponseContract } from './response-contract.js';

export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-at-least-32-characters';
export const TEST_API_KEY_SECRET = 'ab'.repeat(32);

export function databaseUrl(): string | null {
  return inject('databaseUrl');
}

/** The embedded engine's target for a new in-memory database that starts migrated. */
export function embeddedTestDatabase(): Extract<DatabaseTarget, { kind: 'embedded' }> {
  const template = inject('embeddedTemplate');
  return { kind: 'embedded', dataDir: 'memory://', ...(template ? { initialDump: template } : {}) };
}

export const engineName = () => (databaseUrl() ? 'postgres' : 'embedded');

/** A config for tests: low bcrypt cost, limits off, private temp directories. */
export function testConfig(env: Record<string, string> = {}): Config {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-test-'));
  const url = databaseUrl();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: path.join(dir, 'data'),
    UPLOAD_DIR: path.join(dir, 'uploads'),
    PRINT_IMAGE_CACHE_DIR: path.join(dir, 'print-images'),
    JWT_SECRET: TEST_JWT_SECRET,
    API_KEY_SECRET: TEST_API_KEY_SECRET,
    BCRYPT_COST: '4',
    RATE_LIMIT_AUTH_PER_MIN: '0',
    RATE_LIMIT_V1_PER_MIN: '0',
    RATE_LIMIT_ACCOUNT_PER_MIN: '0',
    LOG_LEVEL: 'silent',
    ...(url ? { DATABASE_URL: url } : {}),
    ...env,
  });
  return url || env.DATABASE_URL ? config : { ...config, database: embeddedTestDatabase() };
}

export async function createTestApp(env: Record<string, string> = {}, config = testConfig(env)): Promise<App> {
  const app = await buildApp(config, { logger: false });
  // Every answer the tests see must be what the OpenAPI document says (response-contract.ts).
  enforceResponseContract(app);
  await app.ready();
  return app;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}@example.com`;
}

/**
 * On a PostgreSQL run, a migrated database of the caller's own (`env` for createTestApp, and its
 * `drop`). Processes sharing a database act as one deployment: every test app runs the export
 * runner and the webhook dispatcher, so apps configured otherwise (storage, webhook address rules,
 * retry delays) would take over each other's exports and deliveries. On the embedded engine every
 * app has a database of its own already.
 */
export async function ownDatabase(prefix: string): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const base = databaseUrl();
  if (!base) return { env: {}, drop: async () => undefined };
  const scratch = await createMigratedScratchDatabase(base, prefix);
  return { env: { DATABASE_URL: scratch.url }, drop: () => scratch.drop() };
}
