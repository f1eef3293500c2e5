// An account's own lifecycle: password change, sign-out everywhere, deletion (one server; the
// multi-process guarantees are in multi-process.test.ts).
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildApp } from '../../src/app.js';
import { createTestApp, engineName, TEST_JWT_SECRET, testConfig } from '../helpers/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { imageFixture } from '../helpers/images.js';
import { issueKey } from '../api-keys/keys.js';
import { uploadAsset, uploadDirEntries } from '../assets/helpers.js';
import { filePart, multipartBody } from '../helpers/multipart.js';
import { apiError, bearer, expectBadRequest, expectError, INVALID_TOKEN, me } from './helpers.js';

/** An HS256 JWT signed with the test secret, with exactly these claims. */
function signedToken(claims: Record<string, unknown>): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iat: now, exp: now + 3600, ...claims })}`;
  return `${unsigned}.${createHmac('sha256', TEST_JWT_SECRET).update(unsigned).digest('base64url')}`;
}

describe(`account lifecycle (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const changePassword = (headers: Record<string, string>, payload: unknown) =>
    app.inject({ method: 'PUT', url: '/auth/password', headers, payload: payload as object });
  const endSessions = (headers: Record<string, string>) => app.inject({ method: 'DELETE', url: '/auth/sessions', headers });
  const deleteMe = (headers: Record<string, string>, payload?: unknown) =>
    app.inject({ method: 'DELETE', url: '/auth/me', headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const login = (email: string, password: string) => app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });

  async function secondToken(account: TestAccount): Promise<Record<string, string>> {
    const response = await login(account.email, account.password);
    expect(response.statusCode).toBe(200);
    return bearer(response.json<{ token: string }>().token);
  }

  describe('PUT /auth/password', () => {
    it('answers a new token; every older token fails, the new one and the new password work', async () => {
      const account = await registerAccount(app);
      const other = await secondToken(account);
      const response = await changePassword(account.auth, { currentPassword: account.password, newPassword: 'a brand new secret' });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ token: string }>();
      expect(Object.keys(body)).toEqual(['token']);
      expect((await me(app, account.auth)).json()).toEqual(INVALID_TOKEN);
      expect((await me(app, other)).json()).toEqual(INVALID_TOKEN);
      expect((await me(app, bearer(body.token))).statusCode).toBe(200);
      expectError(await login(account.email, account.password), 401, 'Invalid email or password.');
      expect((await login(account.email, 'a brand new secret')).statusCode).toBe(200);
    });

    it('refuses a wrong current password with 403 and changes nothing', async () => {
      const account = await registerAccount(app);
      for (const currentPassword of ['wrong password', 'x'.repeat(73), 'short', `${account.password}\u0000`]) {
        expectError(
          await changePassword(account.auth, { currentPassword, newPassword: 'another secret' }),
          403,
          'Current password is incorrect.',
        );
      }
      expect((await me(app, account.auth)).statusCode).toBe(200);
      expect((await login(account.email, account.password)).statusCode).toBe(200);
    });

    it('refuses an unusable or unchanged new password and malformed bodies with 400, changing nothing', async () => {
      const account = await registerAccount(app);
      const current = account.password;
      const cases: Array<[unknown, string | RegExp]> = [
        [{ currentPassword: current, newPassword: current }, 'newPassword must differ from currentPassword.'],
        [{ currentPassword: current, newPassword: 'é'.repeat(36) + 'x' }, 'newPassword must be 8 to 72 bytes long in UTF-8.'],
        [{ currentPassword: current, newPassword: 'x'.repeat(73) }, 'newPassword must be 8 to 72 bytes long in UTF-8.'],
        [{ currentPassword: current, newPassword: 'short' }, 'newPassword must be 8 to 72 bytes long in UTF-8.'],
        [{ currentPassword: current, newPassword: 'null\u0000character' }, 'newPassword must not contain a NUL character.'],
        [{ currentPassword: current }, /newPassword/],
        [{ currentPassword: current, newPassword: 'another secret', extra: 1 }, /extra|additional/],
        [{ currentPassword: current, newPassword: 12345678 }, /newPassword/],
      ];
      for (const [payload, message] of cases) expectBadRequest(await changePassword(account.auth, payload), message);
      expect((await me(app, account.auth)).statusCode).toBe(200);
      expect((await login(account.email, current)).statusCode).toBe(200);
    });

    it('answers 401 without a valid token, before looking at the body', async () => {
      expectError(await changePassword({}, {}), 401, 'Authentication required.');
      expectError(await changePassword(bearer('a.b.c'), { nope: true }), 401, 'Invalid or expired token.');
    });

    it('lets one of two simultaneous changes with one token win; the other is 401 and its password is not set', async () => {
      const account = await registerAccount(app);
      const [first, second] = await Promise.all([
        changePassword(account.auth, { currentPassword: account.password, newPassword: 'first new secret' }),
        changePassword(account.auth, { currentPassword: account.password, newPassword: 'second new secret' }),
      ]);
      const statuses = [first.statusCode, second.statusCode].sort();
      expect(statuses).toEqual([200, 401]);
      const [winner, loser] =
        first.statusCode === 200 ? ['first new secret', 'second new secret'] : ['second new secret', 'first new secret'];
      expect((await login(account.email, winner)).statusCode).toBe(200);
      expect((await login(account.email, loser)).statusCode).toBe(401);
    });
  });

  describe('DELETE /auth/sessions', () => {
    it('ends every token issued so far; logging in again works', async () => {
      const account = await registerAccount(app);
      const other = await secondToken(account);
      const response = await endSessions(account.auth);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await me(app, account.auth)).json()).toEqual(INVALID_TOKEN);
      expect((await me(app, other)).json()).toEqual(INVALID_TOKEN);
      expect((await endSessions(other)).json()).toEqual(INVALID_TOKEN);
      const fresh = await secondToken(account);
      expect((await me(app, fresh)).statusCode).toBe(200);
    });

    it('treats a token without a generation claim as generation 0, and refuses malformed claims', async () => {
      const account = await registerAccount(app);
      const legacy = bearer(signedToken({ sub: account.id }));
      expect((await me(app, legacy)).statusCode).toBe(200);
      for (const gen of ['0', 0.5, -1, null, 1]) {
        expect((await me(app, bearer(signedToken({ sub: account.id, gen })))).json(), String(gen)).toEqual(INVALID_TOKEN);
      }
      expect((await endSessions(legacy)).statusCode).toBe(204);
      expect((await me(app, legacy)).json()).toEqual(INVALID_TOKEN);
      expect((await me(app, bearer(signedToken({ sub: account.id, gen: 1 })))).statusCode).toBe(200);
    });
  });

  describe('DELETE /auth/me', () => {
    it('deletes the account, its projects, assets with their files, and keys', async () => {
      const account = await registerAccount(app);
      const bystander = await registerAccount(app);
      const project = await app.inject({
        method: 'POST',
        url: '/projects',
        headers: account.auth,
        payload: { name: 'P', templateId: 'mailer-box' },
      });
      expect(project.statusCode).toBe(201);
      const asset = await uploadAsset(app, account, imageFixture('tiny.png'));
      const kept = await uploadAsset(app, bystander, imageFixture('tiny.png'));
      const key = await issueKey(app, account);
      const file = path.join(app.config.uploadDir, asset.name);
      expect(existsSync(file)).toBe(true);

      const response = await deleteMe(account.auth, { password: account.password });
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');
      expect(existsSync(file)).toBe(false);
      expect((await app.inject({ method: 'GET', url: `/files/${asset.name}` })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/v1/templates', headers: { 'x-api-key': key.key } })).json()).toEqual(
        apiError(401, 'Invalid API key.'),
      );
      expect((await me(app, account.auth)).json()).toEqual(INVALID_TOKEN);
      expectError(await login(account.email, account.password), 401, 'Invalid email or password.');
      const rows = await app.db.prisma.$queryRaw<Array<{ n: number }>>`
        SELECT ((SELECT count(*) FROM "projects" WHERE "userId" = ${account.id})
              + (SELECT count(*) FROM "assets" WHERE "userId" = ${account.id})
              + (SELECT count(*) FROM "api_keys" WHERE "userId" = ${account.id}))::int AS "n"`;
      expect(rows[0]?.n).toBe(0);
      // Someone else's things are untouched, and the email can be registered again.
      expect((await app.inject({ method: 'GET', url: `/files/${kept.name}` })).statusCode).toBe(200);
      expect((await me(app, bystander.auth)).statusCode).toBe(200);
      await registerAccount(app, { email: account.email });
    });

    it('refuses a wrong password with 403 and a missing one with 400, deleting nothing; a second delete is 401', async () => {
      const account = await registerAccount(app);
      expectError(await deleteMe(account.auth, { password: 'wrong password' }), 403, 'Password is incorrect.');
      expectError(await deleteMe(account.auth, { password: 'x'.repeat(73) }), 403, 'Password is incorrect.');
      expectBadRequest(await deleteMe(account.auth), /body/);
      expectBadRequest(await deleteMe(account.auth, {}), /password/);
      expect((await me(app, account.auth)).statusCode).toBe(200);
      expect((await deleteMe(account.auth, { password: account.password })).statusCode).toBe(204);
      expect((await deleteMe(account.auth, { password: account.password })).json()).toEqual(INVALID_TOKEN);
    });

    it('lets one of two simultaneous deletions succeed; the other is 401', async () => {
      const account = await registerAccount(app);
      await uploadAsset(app, account, imageFixture('tiny.png'));
      const [a, b] = await Promise.all([
        deleteMe(account.auth, { password: account.password }),
        deleteMe(account.auth, { password: account.password }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([204, 401]);
      expect((a.statusCode === 401 ? a : b).json()).toEqual(INVALID_TOKEN);
    });
  });
});

describe(`per-account rate limit on password change and deletion (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_ACCOUNT_PER_MIN: '2' });
  });
  afterAll(() => app.close());

  it('shares one budget per account between both routes; another account has its own', async () => {
    const account = await registerAccount(app);
    const other = await registerAccount(app);
    const wrong = { currentPassword: 'wrong password', newPassword: 'another secret' };
    expect((await app.inject({ method: 'PUT', url: '/auth/password', headers: account.auth, payload: wrong })).statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'DELETE', url: '/auth/me', headers: account.auth, payload: { password: 'wrong password' } })).statusCode,
    ).toBe(403);
    const limited = await app.inject({ method: 'PUT', url: '/auth/password', headers: account.auth, payload: wrong });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await app.inject({ method: 'PUT', url: '/auth/password', headers: other.auth, payload: wrong })).statusCode).toBe(403);
  });
});

describe(`writes racing an account deletion (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig(), { logger: false });
    // Deletes the caller's account after its token was checked, as a deletion on another server could.
    app.addHook('preHandler', async (request) => {
      if (request.headers['x-test-delete-account'] === 'yes') await app.services.accounts.deleteAccount(request.userId);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('a key issue or an upload whose account vanished mid-request is 401 and leaves no row and no file', async () => {
    const vanish = { 'x-test-delete-account': 'yes' };
    const keyOwner = await registerAccount(app);
    const issued = await app.inject({ method: 'POST', url: '/api-keys', headers: { ...keyOwner.auth, ...vanish } });
    expect(issued.json()).toEqual(INVALID_TOKEN);

    const uploader = await registerAccount(app);
    const before = await uploadDirEntries(app);
    const { body, contentType } = multipartBody([filePart(imageFixture('tiny.png'))]);
    const uploaded = await app.inject({
      method: 'POST',
      url: '/assets',
      headers: { ...uploader.auth, ...vanish, 'content-type': contentType },
      payload: body,
    });
    expect(uploaded.json()).toEqual(INVALID_TOKEN);
    expect(await uploadDirEntries(app)).toEqual(before);
    const rows = await app.db.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT ((SELECT count(*) FROM "assets" WHERE "userId" IN (${keyOwner.id}, ${uploader.id}))
            + (SELECT count(*) FROM "api_keys" WHERE "userId" IN (${keyOwner.id}, ${uploader.id})))::int AS "n"`;
    expect(rows[0]?.n).toBe(0);
  });
});
