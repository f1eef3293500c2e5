// The /admin surface on a private database (so the set of accounts and administrators is known):
// the guard, the listing and its cursor, plan and role changes, the last-admin rule, deletion.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { engineName, testConfig, uniqueEmail } from '../helpers/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createEmptyDatabase, type EmptyDatabase } from '../helpers/database.js';
import { issueKey } from '../api-keys/keys.js';
import { PROJECT_CAP_MESSAGE } from '../projects/fixtures.js';
import { apiError, expectBadRequest, expectError, grantAdmin, INVALID_TOKEN, me, registerAdmin } from './helpers.js';

interface AdminUser {
  id: string;
  email: string;
  name: string;
  plan: 'free' | 'pro';
  role: 'user' | 'admin';
  createdAt: string;
  counts: { projects: number; assets: number; apiKeys: number };
}

interface Page {
  users: AdminUser[];
  nextCursor: string | null;
}

describe(`/admin (${engineName()})`, () => {
  let empty: EmptyDatabase;
  let app: App;
  let admin: TestAccount;
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    empty = await createEmptyDatabase();
    const logStream = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        callback();
      },
    });
    app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), { database: await empty.open(), ownsDatabase: true, logStream });
    await app.ready();
    admin = await registerAdmin(app);
  }, 60_000);

  afterAll(async () => {
    await app.close();
    await empty.drop();
  });

  const get = (account: TestAccount, url: string) => app.inject({ method: 'GET', url, headers: account.auth });
  const put = (account: TestAccount, id: string, payload: object) =>
    app.inject({ method: 'PUT', url: `/admin/users/${id}`, headers: account.auth, payload });
  const remove = (account: TestAccount, id: string) =>
    app.inject({ method: 'DELETE', url: `/admin/users/${id}`, headers: account.auth });
  const page = async (account: TestAccount, query: string): Promise<Page> => {
    const response = await get(account, `/admin/users?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };

  describe('the guard', () => {
    it('answers 401 without a token and 403 for a non-admin, before validating anything', async () => {
      const user = await registerAccount(app);
      for (const [method, url] of [
        ['GET', '/admin/users'],
        ['GET', '/admin/users?limit=0'],
        ['GET', `/admin/users/${user.id}`],
        ['PUT', `/admin/users/${admin.id}`],
        ['DELETE', `/admin/users/${admin.id}`],
        ['GET', '/admin/nowhere'],
      ] as const) {
        const anonymous = await app.inject({ method, url });
        expectError(anonymous, 401, 'Authentication required.');
        const refused = await app.inject({ method, url, headers: user.auth, ...(method === 'PUT' ? { payload: { role: 'nope' } } : {}) });
        expectError(refused, 403, 'Administrator access required.');
      }
      // Nothing changed: the target is still an administrator.
      expect((await me(app, admin.auth)).json<{ user: { role: string } }>().user.role).toBe('admin');
    });

    it('reads the role from the database on each request: a demoted admin is refused at once, a deleted one is 401', async () => {
      const other = await registerAdmin(app);
      expect((await get(other, '/admin/users')).statusCode).toBe(200);
      expect((await put(admin, other.id, { role: 'user' })).statusCode).toBe(200);
      expectError(await get(other, '/admin/users'), 403, 'Administrator access required.');
      await grantAdmin(app, other);
      expect((await get(other, '/admin/users')).statusCode).toBe(200);
      expect((await remove(admin, other.id)).statusCode).toBe(204);
      expect((await get(other, '/admin/users')).json()).toEqual(INVALID_TOKEN);
    });

    it('answers unknown /admin paths with 404 for an admin', async () => {
      const response = await get(admin, '/admin/nowhere');
      expect(response.statusCode).toBe(404);
    });
  });

  describe('GET /admin/users', () => {
    it('lists newest first with counts, pages through every account once, and filters by email substring', async () => {
      const tag = `list${Date.now().toString(36)}`;
      const owners: TestAccount[] = [];
      for (let i = 0; i < 5; i++) owners.push(await registerAccount(app, { email: uniqueEmail(`${tag}-${i}`) }));
      await issueKey(app, owners[0]!);
      await issueKey(app, owners[0]!);
      const project = { name: 'P', templateId: 'mailer-box' };
      expect((await app.inject({ method: 'POST', url: '/projects', headers: owners[0]!.auth, payload: project })).statusCode).toBe(201);

      const seen: AdminUser[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const result: Page = await page(admin, `q=${tag}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(result.users.length).toBeLessThanOrEqual(2);
        seen.push(...result.users);
        cursor = result.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen.map((user) => user.id)).toEqual(owners.map((owner) => owner.id).reverse());
      const first = seen.find((user) => user.id === owners[0]!.id);
      expect(first).toEqual({
        id: owners[0]!.id,
        email: owners[0]!.email,
        name: 'Test User',
        plan: 'free',
        role: 'user',
        createdAt: expect.any(String),
        counts: { projects: 1, assets: 0, apiKeys: 2 },
      });

      // Case-insensitive, and one exact account by its full address.
      expect((await page(admin, `q=${encodeURIComponent(owners[3]!.email.toUpperCase())}`)).users.map((user) => user.id)).toEqual([
        owners[3]!.id,
      ]);
      // The default page size is 20; without q every account is listed, newest first.
      const all = await page(admin, '');
      expect(all.users.length).toBeLessThanOrEqual(20);
      const order = all.users.map((user) => [user.createdAt, user.id].join(' '));
      expect(order).toEqual([...order].sort().reverse());
    });

    it('treats % and _ in q as literal characters', async () => {
      const tag = `lit${Date.now().toString(36)}`;
      const plain = await registerAccount(app, { email: `${tag}-ab@example.com` });
      const percent = await registerAccount(app, { email: `${tag}%b@example.com` });
      expect((await page(admin, `q=${encodeURIComponent(`${tag}%`)}`)).users.map((user) => user.id)).toEqual([percent.id]);
      expect((await page(admin, `q=${encodeURIComponent(`${tag}_`)}`)).users).toEqual([]);
      expect((await page(admin, `q=${tag}-`)).users.map((user) => user.id)).toEqual([plain.id]);
    });

    it('keeps pages stable while accounts are inserted between them', async () => {
      const tag = `stable${Date.now().toString(36)}`;
      const before: string[] = [];
      for (let i = 0; i < 6; i++) before.push((await registerAccount(app, { email: uniqueEmail(tag) })).id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const result: Page = await page(admin, `q=${tag}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...result.users.map((user) => user.id));
        cursor = result.nextCursor;
        // Newer accounts arriving mid-listing neither repeat nor push out anyone already listed.
        await Promise.all([registerAccount(app, { email: uniqueEmail(tag) }), registerAccount(app, { email: uniqueEmail(tag) })]);
      } while (cursor !== null);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual([...before].reverse());
    });

    it('refuses limit 0, limit 101, a non-integer limit, unknown fields, NUL in q and forged cursors with 400', async () => {
      for (const query of ['limit=0', 'limit=101', 'limit=2.5', 'limit=ten', 'sort=email']) {
        expectBadRequest(await get(admin, `/admin/users?${query}`), /limit|sort|must/);
      }
      expectBadRequest(await get(admin, '/admin/users?q=%00'), 'q must not contain NUL');
      const { nextCursor } = await page(admin, 'limit=1');
      expect(nextCursor).toEqual(expect.any(String));
      const [payload = '', mac = ''] = nextCursor!.split('.');
      const forgedPayload = Buffer.from(JSON.stringify(['2100-01-01T00:00:00.000Z', 'zzzz'])).toString('base64url');
      // The last character of the 22-character MAC carries 2 bits: A and B spell the same bytes.
      const respelled = `${mac.slice(0, -1)}${{ A: 'B', B: 'A' }[mac.at(-1) as string] ?? 'A'}`;
      const flipped = `${mac.slice(0, 5)}${mac[5] === 'x' ? 'y' : 'x'}${mac.slice(6)}`;
      for (const cursor of [
        'x',
        'abc.def',
        `${forgedPayload}.${mac}`,
        `${payload}.${flipped}`,
        `${payload}.${respelled}`,
        `${payload}`,
        `${nextCursor}x`,
      ]) {
        expectError(
          await get(admin, `/admin/users?cursor=${encodeURIComponent(cursor)}`),
          400,
          'cursor is not a cursor this service issued.',
        );
      }
    });
  });

  describe('GET, PUT and DELETE /admin/users/:id', () => {
    it('reads one account with its counts; unknown and malformed ids are 404', async () => {
      const user = await registerAccount(app);
      await issueKey(app, user);
      const response = await get(admin, `/admin/users/${user.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        user: { id: user.id, email: user.email, plan: 'free', role: 'user', counts: { projects: 0, assets: 0, apiKeys: 1 } },
      });
      for (const id of ['nobodyhere00000000000000', 'UPPER', 'a%00b']) {
        expectError(await get(admin, `/admin/users/${id}`), 404, 'User not found.');
        expectError(await put(admin, id, { plan: 'pro' }), 404, 'User not found.');
        expectError(await remove(admin, id), 404, 'User not found.');
      }
    });

    it('a plan change applies to the very next create, both ways', async () => {
      const user = await registerAccount(app);
      const create = () =>
        app.inject({ method: 'POST', url: '/projects', headers: user.auth, payload: { name: 'P', templateId: 'mailer-box' } });
      for (let i = 0; i < 3; i++) expect((await create()).statusCode).toBe(201);
      expectError(await create(), 403, PROJECT_CAP_MESSAGE);

      const upgraded = await put(admin, user.id, { plan: 'pro' });
      expect(upgraded.statusCode).toBe(200);
      expect(upgraded.json()).toEqual({
        user: { id: user.id, email: user.email, name: 'Test User', plan: 'pro', role: 'user', createdAt: expect.any(String) },
      });
      expect((await me(app, user.auth)).json()).toMatchObject({ user: { plan: 'pro' } });
      expect((await create()).statusCode).toBe(201);
      expect((await create()).statusCode).toBe(201);

      expect((await put(admin, user.id, { plan: 'free' })).statusCode).toBe(200);
      expectError(await create(), 403, PROJECT_CAP_MESSAGE);
    });

    it('refuses bad bodies with 400 and changes nothing', async () => {
      const user = await registerAccount(app);
      for (const payload of [{}, { plan: 'gold' }, { role: 'root' }, { plan: 'pro', email: 'x@example.com' }, { plan: null }]) {
        expectBadRequest(await put(admin, user.id, payload), /.+/);
      }
      expect((await get(admin, `/admin/users/${user.id}`)).json()).toMatchObject({ user: { plan: 'free', role: 'user' } });
    });

    it('logs every change with the acting administrator', async () => {
      const user = await registerAccount(app);
      expect((await put(admin, user.id, { plan: 'pro', role: 'admin' })).statusCode).toBe(200);
      expect((await put(admin, user.id, { role: 'user' })).statusCode).toBe(200);
      expect((await remove(admin, user.id)).statusCode).toBe(204);
      const entries = logLines.filter((line) => line.userId === user.id && line.adminId !== undefined);
      expect(entries.map((line) => [line.adminId, line.msg])).toEqual([
        [admin.id, 'account changed by an administrator'],
        [admin.id, 'account changed by an administrator'],
        [admin.id, 'account deleted by an administrator'],
      ]);
      expect(entries[0]).toMatchObject({ changes: { plan: 'pro', role: 'admin' } });
    });

    it('deletes an account with everything it owns; a second delete is 404', async () => {
      const user = await registerAccount(app);
      const key = await issueKey(app, user);
      expect((await app.inject({ method: 'GET', url: '/v1/templates', headers: { 'x-api-key': key.key } })).statusCode).toBe(200);
      expect((await remove(admin, user.id)).statusCode).toBe(204);
      expect((await app.inject({ method: 'GET', url: '/v1/templates', headers: { 'x-api-key': key.key } })).json()).toEqual(
        apiError(401, 'Invalid API key.'),
      );
      expect((await me(app, user.auth)).json()).toEqual(INVALID_TOKEN);
      expectError(await remove(admin, user.id), 404, 'User not found.');
      expectError(await get(admin, `/admin/users/${user.id}`), 404, 'User not found.');
    });
  });

  describe('the last administrator', () => {
    it('cannot be demoted or deleted, by itself or through /auth/me; with two, one may go', async () => {
      // Only `admin` is an administrator here: every other test demoted or deleted its extra admins.
      const admins = (await page(admin, 'limit=100')).users.filter((user) => user.role === 'admin');
      expect(admins.map((user) => user.id)).toEqual([admin.id]);
      expectError(await put(admin, admin.id, { role: 'user' }), 409, 'At least one administrator must remain.');
      expectError(await remove(admin, admin.id), 409, 'At least one administrator must remain.');
      const ownDeletion = await app.inject({
        method: 'DELETE',
        url: '/auth/me',
        headers: admin.auth,
        payload: { password: admin.password },
      });
      expectError(ownDeletion, 409, 'At least one administrator must remain.');
      // Re-granting an admin is not a removal; a plan change of the last admin is fine.
      expect((await put(admin, admin.id, { role: 'admin', plan: 'pro' })).statusCode).toBe(200);
      expect((await me(app, admin.auth)).json()).toMatchObject({ user: { role: 'admin', plan: 'pro' } });

      const second = await registerAdmin(app);
      expect((await put(second, admin.id, { role: 'user' })).statusCode).toBe(200);
      expectError(await put(second, second.id, { role: 'user' }), 409, 'At least one administrator must remain.');
      expect((await put(second, admin.id, { role: 'admin' })).statusCode).toBe(200);
      expect((await remove(admin, second.id)).statusCode).toBe(204);
    });

    it('survives two admins demoting each other at once: one 200, the other refused', async () => {
      const other = await registerAdmin(app);
      const [a, b] = await Promise.all([put(admin, other.id, { role: 'user' }), put(other, admin.id, { role: 'user' })]);
      // The loser is refused either as the last administrator (409) or, when the winner's change
      // committed before its own request's role check, as no longer an administrator (403).
      expect([a.statusCode, b.statusCode].sort()[0]).toBe(200);
      expect([403, 409]).toContain(Math.max(a.statusCode, b.statusCode));
      const survivor = a.statusCode === 200 ? admin : other;
      const remaining = (await page(survivor, 'limit=100')).users.filter((user) => user.role === 'admin');
      expect(remaining.map((user) => user.id)).toEqual([survivor.id]);
      // Leave `admin` as the only administrator for the other tests.
      if (survivor !== admin) {
        expect((await put(survivor, admin.id, { role: 'admin' })).statusCode).toBe(200);
      }
      expect((await remove(admin, other.id)).statusCode).toBe(204);
    });

    it('survives two admins deleting each other at once: one 204, the other refused', async () => {
      const other = await registerAdmin(app);
      const [a, b] = await Promise.all([remove(admin, other.id), remove(other, admin.id)]);
      const statuses = [a.statusCode, b.statusCode].sort();
      // The loser is either refused as the last admin (409) or was itself deleted first (401).
      expect(statuses[0]).toBe(204);
      expect([401, 409]).toContain(statuses[1]);
      const survivor = a.statusCode === 204 ? admin : other;
      const admins = (await page(survivor, 'limit=100')).users.filter((user) => user.role === 'admin');
      expect(admins.map((user) => user.id)).toEqual([survivor.id]);
      if (survivor !== admin) admin = survivor;
    });
  });
});
