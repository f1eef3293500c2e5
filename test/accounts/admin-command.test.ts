// `npm run admin -- grant|revoke <email>`, run as a real process on the configured database: a
// scratch PostgreSQL database (DATABASE_URL) or an embedded one on disk (DATA_DIR).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, databaseUrl, embeddedTestDatabase, engineName, testConfig, uniqueEmail } from '../helpers/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createScratchDatabase } from '../helpers/postgres-admin.js';
import { serverEnv } from '../helpers/server-process.js';
import { me } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe(`npm run admin (${engineName()})`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-admin-cli-'));
  let env: Record<string, string>;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const base = databaseUrl();
    if (base) {
      const scratch = await createScratchDatabase(base, 'pf_cli');
      dropDatabase = scratch.drop;
      env = serverEnv({ DATABASE_URL: scratch.url, DATA_DIR: dataDir });
    } else {
      env = serverEnv({ DATA_DIR: dataDir });
    }
  }, 60_000);

  afterAll(async () => {
    await dropDatabase?.();
  });

  /** An app on the command's database. The embedded database admits one process at a time: close it before running the command. */
  function openApp(): Promise<App> {
    const config = testConfig(env);
    return createTestApp(
      env,
      databaseUrl() ? config : { ...config, database: { ...embeddedTestDatabase(), dataDir: path.join(dataDir, 'pgdata') } },
    );
  }

  // Each run starts tsx and, on the embedded engine, opens the database from disk: slow on a busy machine.
  function admin(...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      const command = ['--import', 'tsx', 'src/cli/admin.ts', ...args];
      execFile(process.execPath, command, { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: stdout.trim(), stderr: stderr.trim() });
      });
    });
  }

  /** The roles the accounts' own /auth/me reports, read on one app opened for the purpose. */
  async function rolesOf(...accounts: TestAccount[]): Promise<string[]> {
    const app = await openApp();
    try {
      const roles: string[] = [];
      for (const account of accounts) {
        const response = await me(app, account.auth);
        expect(response.statusCode).toBe(200);
        roles.push(response.json<{ user: { role: string } }>().user.role);
      }
      return roles;
    } finally {
      await app.close();
    }
  }

  it('grants and revokes the role; the last administrator cannot be revoked', async () => {
    const app = await openApp();
    const [first, second] = [await registerAccount(app), await registerAccount(app)];
    await app.close();

    expect(await admin('grant', `  ${first.email.toUpperCase()} `)).toEqual({
      code: 0,
      stdout: `${first.email} is now an administrator.`,
      stderr: '',
    });
    expect(await rolesOf(first, second)).toEqual(['admin', 'user']);
    expect(await admin('revoke', first.email)).toEqual({ code: 1, stdout: '', stderr: 'At least one administrator must remain.' });

    expect((await admin('grant', second.email)).code).toBe(0);
    expect(await admin('revoke', first.email)).toEqual({ code: 0, stdout: `${first.email} is now a regular user.`, stderr: '' });
    expect(await rolesOf(first, second)).toEqual(['user', 'admin']);
  }, 300_000);

  it('refuses an unknown email, a malformed one and a wrong usage without changing anything', async () => {
    const unknown = uniqueEmail('nobody');
    expect(await admin('grant', unknown)).toEqual({ code: 1, stdout: '', stderr: `No account has the email ${unknown}.` });
    const malformed = await admin('grant', 'not-an-email');
    expect(malformed).toMatchObject({ code: 1, stdout: '' });
    expect(malformed.stderr).toMatch(/^email must be a valid email address/);
    const usage = 'Usage: npm run admin -- grant <email> | npm run admin -- revoke <email>';
    const runs = await Promise.all([admin(), admin('promote', unknown), admin('grant', unknown, 'extra')]);
    expect(runs).toEqual(runs.map(() => ({ code: 2, stdout: '', stderr: usage })));
  }, 300_000);
});
