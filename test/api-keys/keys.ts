// Developer-key helpers for the api-keys tests, going through the public API as a client would.
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import type { TestAccount } from '../helpers/accounts.js';

export const KEY_FORMAT = /^pf_[0-9a-f]{48}$/;

export interface IssuedKey {
  id: string;
  userId: string;
  key: string;
  createdAt: string;
}

export async function issueKey(app: App, account: TestAccount): Promise<IssuedKey> {
  const response = await app.inject({ method: 'POST', url: '/api-keys', headers: account.auth });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ apiKey: IssuedKey }>().apiKey;
}

export async function listKeys(app: App, account: TestAccount): Promise<{ apiKeys: IssuedKey[]; total: number }> {
  const response = await app.inject({ method: 'GET', url: '/api-keys', headers: account.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export function apiError(statusCode: number, message: string) {
  const error = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests' }[statusCode];
  return { statusCode, error, message };
}
