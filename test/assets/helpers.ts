// Shared steps of the asset and file tests.
import { readdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrator.js';
import type { TestAccount } from '../helpers/accounts.js';
import { testConfig } from '../helpers/app.js';
import { createEmptyDatabase, type EmptyDatabase } from '../helpers/database.js';
import { filePart, multipartBody, type MultipartBody, type Part } from '../helpers/multipart.js';

export interface AssetBody {
  id: string;
  userId: string;
  name: string;
  url: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: string;
}

interface InjectedResponse {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
  json<T>(): T;
}

export const STORED_NAME = /^[a-z0-9]{20,32}\.(png|jpg|gif|webp|avif|svg)$/;

export function upload(app: App, account: TestAccount | null, parts: Part[] | MultipartBody) {
  const { body, contentType } = Array.isArray(parts) ? multipartBody(parts) : parts;
  return app.inject({
    method: 'POST',
    url: '/assets',
    headers: { ...(account ? account.auth : {}), 'content-type': contentType },
    payload: body,
  });
}

export const uploadFile = (app: App, account: TestAccount, data: Buffer | string, overrides: Partial<Omit<Part, 'data'>> = {}) =>
  upload(app, account, [filePart(data, overrides)]);

/** Uploads and expects 201; returns the asset. */
export async function uploadAsset(app: App, account: TestAccount, data: Buffer | string, overrides: Partial<Omit<Part, 'data'>> = {}) {
  const response = await uploadFile(app, account, data, overrides);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ asset: AssetBody }>().asset;
}

export function expectApiError(response: InjectedResponse, statusCode: number, message?: string) {
  expect(response.statusCode, response.body).toBe(statusCode);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  const body = response.json<Record<string, unknown>>();
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(statusCode);
  if (message !== undefined) expect(body.message).toBe(message);
}

/** Every entry of the upload directory, temporary names included. */
export async function uploadDirEntries(app: App): Promise<string[]> {
  return (await readdir(app.config.uploadDir)).sort();
}

export const assetCount = (app: App, userId: string) => app.db.prisma.asset.count({ where: { userId } });

/** Polls until check() holds; fails after timeoutMs. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await sleep(20);
  }
}

/**
 * A migrated database of the describe block's own and one upload directory; start() builds an app
 * on both, as a restarted process would find them (start-up background work included).
 */
export function restartableApps() {
  const config = testConfig();
  let empty: EmptyDatabase | undefined;
  let database: Database | undefined;
  beforeAll(async () => {
    empty = await createEmptyDatabase();
    database = await empty.open();
    await database.withSession((session) => migrate(session));
  });
  afterAll(async () => {
    await database?.close();
    await empty?.drop();
  });
  return {
    config,
    async start(): Promise<App> {
      const app = await buildApp(config, { database, logger: false });
      await app.ready();
      return app;
    },
  };
}
