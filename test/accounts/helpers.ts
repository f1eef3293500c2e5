// Shared steps of the account-lifecycle and admin tests.
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';

export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
};

export const apiError = (statusCode: number, message: string) => ({ statusCode, error: STATUS_TEXT[statusCode], message });

export const INVALID_TOKEN = apiError(401, 'Invalid or expired token.');

interface Injected {
  statusCode: number;
  body: string;
  json<T>(): T;
}

/** The response is exactly this ApiError. */
export function expectError(response: Injected, statusCode: number, message: string) {
  expect(response.statusCode, response.body).toBe(statusCode);
  expect(response.json()).toEqual(apiError(statusCode, message));
}

/** A 400 ApiError whose message mentions `mentions`. */
export function expectBadRequest(response: Injected, mentions: string | RegExp) {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ message: string }>();
  expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
  expect(body.message).toMatch(mentions);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Gives the account the admin role, as `npm run admin -- grant` does (the same service call). */
export async function grantAdmin(app: App, account: TestAccount): Promise<void> {
  const user = await app.services.admin.setRoleByEmail(account.email, 'admin');
  expect(user.role).toBe('admin');
}

export async function registerAdmin(app: App): Promise<TestAccount> {
  const account = await registerAccount(app);
  await grantAdmin(app, account);
  return account;
}

export const me = (app: App, headers: Record<string, string>) => app.inject({ method: 'GET', url: '/auth/me', headers });
