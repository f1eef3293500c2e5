// Bodies refused where a route takes none, and tokens that must expire.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { MESSAGES } from '../../src/errors.js';
import { apiError } from '../accounts/helpers.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, TEST_JWT_SECRET } from '../helpers/app.js';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function hs256(payload: object, secret = TEST_JWT_SECRET): string {
  const signed = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(payload)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

describe(`bodies and tokens (${engineName()})`, () => {
  let app: App;
  let user: TestAccount;
  beforeAll(async () => {
    app = await createTestApp();
    user = await registerAccount(app);
  });
  afterAll(() => app.close());

  it('refuses a body on DELETE /auth/sessions, which takes none, and ends no session', async () => {
    const account = await registerAccount(app);
    const refused = await app.inject({ method: 'DELETE', url: '/auth/sessions', headers: account.auth, payload: { everywhere: true } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/^body /);
    expect((await app.inject({ method: 'GET', url: '/auth/me', headers: account.auth })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: '/auth/sessions', headers: account.auth, payload: {} })).statusCode).toBe(204);
  });

  it('refuses an HS256 token without exp, even signed with the secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const noExpiry = hs256({ sub: user.id, gen: 0, iat: now });
    const response = await app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${noExpiry}` } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(apiError(401, MESSAGES.invalidToken));
    // The same claims with an expiry are accepted: the signature is right.
    const withExpiry = hs256({ sub: user.id, gen: 0, iat: now, exp: now + 600 });
    expect((await app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${withExpiry}` } })).statusCode).toBe(200);
  });
});
