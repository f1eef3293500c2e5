// Account helpers that go through the public API, as a client would.
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { uniqueEmail } from './app.js';

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  token: string;
  auth: { authorization: string };
}

export async function registerAccount(
  app: App,
  overrides: Partial<{ email: string; password: string; name: string }> = {},
): Promise<TestAccount> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? 'correct horse battery';
  const response = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { email, password, name: overrides.name ?? 'Test User' },
  });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json<{ user: { id: string; email: string }; token: string }>();
  return { id: body.user.id, email: body.user.email, password, token: body.token, auth: { authorization: `Bearer ${body.token}` } };
}
