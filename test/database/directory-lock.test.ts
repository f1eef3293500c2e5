// The embedded data directory admits one process: a second server, or `npm run admin` while a
// server runs, is told which process holds it (pid and port), opens nothing and exits 1.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { DirectoryLockedError, lockFileOf } from '../../src/db/directory-lock.js';
import { uniqueEmail } from '../helpers/app.js';
import { freePort, serverEnv, startServer, type ServerProcess } from '../helpers/server-process.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Run {
  code: number;
  output: string;
}

function run(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe('the embedded data directory lock, in one process', () => {
  it('refuses a second open of the same directory while the first is open, and admits one after close', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'pf-lock-')), 'pgdata');
    const first = await openDatabase({ kind: 'embedded', dataDir }, {}, { port: 4321 });
    try {
      const error = await openDatabase({ kind: 'embedded', dataDir }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(DirectoryLockedError);
      expect((error as Error).message).toBe(
        `The embedded database directory ${dataDir} is in use by a server (pid ${process.pid}, ` +
          `port 4321). Two processes on one directory would corrupt it: nothing was opened.`,
      );
    } finally {
      await first.close();
    }
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
    const again = await openDatabase({ kind: 'embedded', dataDir });
    await again.close();
  }, 120_000);

  it('opens a data directory whose parent does not exist yet (a first start), taking the lock', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'pf-lock-')), 'data', 'not', 'yet', 'pgdata');
    const first = await openDatabase({ kind: 'embedded', dataDir }, {}, { port: 4322 });
    try {
      expect(existsSync(lockFileOf(dataDir))).toBe(true);
    } finally {
      await first.close();
    }
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
  }, 120_000);

  it('takes over a lock whose process is gone', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'pf-lock-')), 'pgdata');
    // pid 2^22 + 1 is above Linux's pid_max ceiling: no such process.
    writeFileSync(lockFileOf(dataDir), JSON.stringify({ pid: 4_194_305, port: 3000, command: 'the service' }));
    const database = await openDatabase({ kind: 'embedded', dataDir });
    await database.close();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
  }, 120_000);
});

describe('the embedded data directory lock, across processes', () => {
  const dataRoot = mkdtempSync(path.join(tmpdir(), 'pf-lock-procs-'));
  const dataDir = path.join(dataRoot, 'pgdata');
  let server: ServerProcess | undefined;
  let port = 0;
  let token = '';
  const email = uniqueEmail('lock');

  beforeAll(async () => {
    server = await startServer({ databaseUrl: '', env: { DATA_DIR: dataRoot } });
    port = Number(new URL(server.baseUrl).port);
    const response = await fetch(`${server.baseUrl}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'password1', name: 'Lock' }),
    });
    expect(response.status).toBe(201);
    token = ((await response.json()) as { token: string }).token;
  }, 120_000);
  afterAll(() => server?.stop());

  const role = async () => {
    const response = await fetch(`${server!.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    return ((await response.json()) as { user: { role: string } }).user.role;
  };

  it('a second server on the same directory names the holder and exits 1 before listening', async () => {
    const secondPort = await freePort();
    const second = await run(['src/server.ts'], serverEnv({ DATA_DIR: dataRoot, PORT: String(secondPort) }));
    expect(second.code).toBe(1);
    expect(second.output).toContain(`The embedded database directory ${dataDir} is in use by a server (pid `);
    expect(second.output).toContain(`port ${port})`);
    expect(second.output).not.toMatch(/Ready:/);
  }, 120_000);

  it('npm run admin while the server runs changes nothing, says what to do and exits 1', async () => {
    const granted = await run(['src/cli/admin.ts', 'grant', email], serverEnv({ DATA_DIR: dataRoot }));
    expect(granted.code).toBe(1);
    expect(granted.output).toContain(`Nothing was changed: the embedded database ${dataDir} is open in a running server`);
    expect(granted.output).toContain(`port ${port}`);
    expect(granted.output).not.toMatch(/is now an administrator/);
    expect(await role()).toBe('user');
  }, 120_000);

  it('once the server has stopped, the lock is gone and the command works', async () => {
    await server!.stop();
    server = undefined;
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
    const granted = await run(['src/cli/admin.ts', 'grant', email], serverEnv({ DATA_DIR: dataRoot }));
    expect(granted.output).toContain(`${email} is now an administrator.`);
    expect(granted.code).toBe(0);
  }, 120_000);
});
