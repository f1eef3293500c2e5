import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'pf-config-'));

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      production: false,
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'embedded', dataDir: path.join(dataDir, 'pgdata') },
      dataDir,
      uploadDir: path.resolve('./uploads'),
      publicBaseUrl: null,
      bcryptCost: 12,
      logLevel: 'info',
      trustProxy: false,
      rateLimit: { authPerMinute: 30, v1PerMinute: 1200 },
    });
  });

  it('keeps converted print images in the OS temp dir, within 1 GiB, unless told otherwise', () => {
    const base = { DATA_DIR: tempDir() };
    expect(loadConfig(base).printImageCache).toEqual({ dir: path.join(tmpdir(), 'packaging-print-images'), maxBytes: 1024 * 1024 * 1024 });
    expect(loadConfig({ ...base, PRINT_IMAGE_CACHE_DIR: 'cache/images', PRINT_IMAGE_CACHE_MB: '50' }).printImageCache).toEqual({
      dir: path.resolve('cache/images'),
      maxBytes: 50 * 1024 * 1024,
    });
    expect(loadConfig({ ...base, PRINT_IMAGE_CACHE_MB: '0' }).printImageCache).toBeNull();
    expect(() => loadConfig({ ...base, PRINT_IMAGE_CACHE_MB: '-1' })).toThrow(ConfigError);
  });

  it('listens on every interface in production and wherever HOST says', () => {
    const production = { DATA_DIR: tempDir(), NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), API_KEY_SECRET: 'ab'.repeat(32) };
    expect(loadConfig(production).host).toBe('0.0.0.0');
    expect(loadConfig({ ...production, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'postgresql://u@h:5432/db', DATABASE_POOL_SIZE: '7' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgresql://u@h:5432/db', poolSize: 7, timeoutMs: 3000 });
  });

  it('parses TRUST_PROXY and trims a trailing slash from PUBLIC_BASE_URL', () => {
    const base = { DATA_DIR: tempDir() };
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toBe('127.0.0.1,10.0.0.0/8');
    expect(loadConfig({ ...base, PUBLIC_BASE_URL: 'https://x.test/api/' }).publicBaseUrl).toBe('https://x.test/api');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ BCRYPT_COST: '40' }, 'BCRYPT_COST'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY'],
    [{ RATE_LIMIT_AUTH_PER_MIN: '-1' }, 'RATE_LIMIT_AUTH_PER_MIN'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
  ])('stops on a bad value with one line naming the variable: %o', (env, name) => {
    const attempt = () => loadConfig({ DATA_DIR: tempDir(), ...env });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(name);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('requires the secrets in production', () => {
    // Both missing: one message names both.
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir() })).toThrow(
      'Invalid configuration: JWT_SECRET (at least 32 characters) ' +
        'and API_KEY_SECRET (64 hexadecimal characters) are required in production.',
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir(), JWT_SECRET: 'x'.repeat(32) }),
    ).toThrow('Invalid configuration: API_KEY_SECRET (64 hexadecimal characters) is required in production.');
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir(), API_KEY_SECRET: 'cd'.repeat(32) }),
    ).toThrow('Invalid configuration: JWT_SECRET (at least 32 characters) is required in production.');
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: tempDir(),
      JWT_SECRET: 'x'.repeat(32),
      API_KEY_SECRET: 'cd'.repeat(32),
    });
    expect(config.production).toBe(true);
    expect(config.apiKeySecret).toEqual(Buffer.from('cd'.repeat(32), 'hex'));
  });

  it('generates development secrets once, owner-only, and reuses them', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.apiKeySecret).toEqual(first.apiKeySecret);
    expect(first.apiKeySecret).toHaveLength(32);
    for (const name of ['jwt-secret', 'api-key-secret']) {
      const file = path.join(dataDir, 'secrets', name);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]+$/);
    }
    expect(loadConfig({ DATA_DIR: tempDir() }).jwtSecret).not.toBe(first.jwtSecret);
  });

  it('makes the server exit 1 with one clear line on bad configuration', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { PATH: process.env.PATH, PORT: 'not-a-port', DATA_DIR: tempDir() },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n').filter((line) => !line.includes('ExperimentalWarning'));
    expect(lines.at(-1)).toMatch(/^Invalid configuration: PORT /);
  });
});
