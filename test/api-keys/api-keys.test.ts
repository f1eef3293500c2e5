import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { apiError, issueKey, KEY_FORMAT, listKeys } from './keys.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`developer keys (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
    other = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const v1 = (key: string) => app.inject({ method: 'GET', url: '/v1/templates/mailer-box', headers: { 'x-api-key': key } });

  describe('POST /api-keys', () => {
    it('issues a pf_ + 48 lower-case hex key owned by the caller, 201 { apiKey }', async () => {
      const before = Date.now();
      const response = await app.inject({ method: 'POST', url: '/api-keys', headers: owner.auth });
      expect(response.statusCode).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = response.json<{ apiKey: Record<string, unknown> }>();
      expect(Object.keys(body)).toEqual(['apiKey']);
      expect(Object.keys(body.apiKey).sort()).toEqual(['createdAt', 'id', 'key', 'userId']);
      expect(body.apiKey.key).toMatch(KEY_FORMAT);
      expect(body.apiKey.userId).toBe(owner.id);
      expect(body.apiKey.id).toEqual(expect.any(String));
      expect(body.apiKey.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(body.apiKey.createdAt as string)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('issues a different key every time', async () => {
      const keys = await Promise.all(Array.from({ length: 5 }, () => issueKey(app, owner)));
      expect(new Set(keys.map((key) => key.key)).size).toBe(5);
      expect(new Set(keys.map((key) => key.id)).size).toBe(5);
    });

    it('accepts no body, an empty JSON body and {}', async () => {
      const noBody = await app.inject({ method: 'POST', url: '/api-keys', headers: owner.auth });
      const emptyJson = await app.inject({
        method: 'POST',
        url: '/api-keys',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        payload: '',
      });
      const emptyObject = await app.inject({ method: 'POST', url: '/api-keys', headers: owner.auth, payload: {} });
      expect([noBody.statusCode, emptyJson.statusCode, emptyObject.statusCode]).toEqual([201, 201, 201]);
    });

    it('rejects any body field with 400, including attempts to choose the owner or the key', async () => {
      for (const payload of [{ name: 'ci' }, { userId: other.id }, { key: `pf_${'0'.repeat(48)}` }]) {
        const response = await app.inject({ method: 'POST', url: '/api-keys', headers: owner.auth, payload });
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json()).toEqual(apiError(400, `body has an unknown field '${Object.keys(payload)[0]}'.`));
      }
      const array = await app.inject({ method: 'POST', url: '/api-keys', headers: owner.auth, payload: [] });
      expect(array.statusCode).toBe(400);
      expect(array.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });

    it('rejects an unknown query field with 400', async () => {
      const response = await app.inject({ method: 'POST', url: '/api-keys?name=x', headers: owner.auth });
      expect(response.statusCode).toBe(400);
    });

    it('needs a JWT', async () => {
      const response = await app.inject({ method: 'POST', url: '/api-keys' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });
  });

  describe('GET /api-keys', () => {
    it('lists an account without keys as empty', async () => {
      const fresh = await registerAccount(app);
      expect(await listKeys(app, fresh)).toEqual({ apiKeys: [], total: 0 });
    });

    it('returns every own key in full, newest first, with total', async () => {
      const account = await registerAccount(app);
      const issued = [];
      for (let i = 0; i < 3; i++) {
        issued.push(await issueKey(app, account));
        await sleep(5);
      }
      const list = await listKeys(app, account);
      expect(list.total).toBe(3);
      expect(list.apiKeys).toEqual(issued.reverse());
      for (const apiKey of list.apiKeys) expect((await v1(apiKey.key)).statusCode).toBe(200);
    });

    it('orders keys issued in the same instant by id, descending', async () => {
      const account = await registerAccount(app);
      await Promise.all(Array.from({ length: 6 }, () => issueKey(app, account)));
      const { apiKeys, total } = await listKeys(app, account);
      expect(total).toBe(6);
      const sorted = [...apiKeys].sort(
        (a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
      );
      expect(apiKeys).toEqual(sorted);
    });

    it('rejects an unknown query field with 400', async () => {
      const response = await app.inject({ method: 'GET', url: '/api-keys?nope=1', headers: owner.auth });
      expect(response.statusCode).toBe(400);
    });

    it('needs a JWT', async () => {
      expect((await app.inject({ method: 'GET', url: '/api-keys' })).statusCode).toBe(401);
    });
  });

  describe('DELETE /api-keys/:id', () => {
    it('revokes: 204 with an empty body, gone from the list, and the key stops working', async () => {
      const account = await registerAccount(app);
      const keep = await issueKey(app, account);
      const revoke = await issueKey(app, account);
      expect((await v1(revoke.key)).statusCode).toBe(200);

      const response = await app.inject({ method: 'DELETE', url: `/api-keys/${revoke.id}`, headers: account.auth });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers['content-type']).toBeUndefined();

      expect(await listKeys(app, account)).toEqual({ apiKeys: [keep], total: 1 });
      const after = await v1(revoke.key);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual(apiError(401, 'Invalid API key.'));
      expect((await v1(keep.key)).statusCode).toBe(200);
    });

    it('answers 404 "API key not found." for an unknown id and for a second delete', async () => {
      const key = await issueKey(app, owner);
      const first = await app.inject({ method: 'DELETE', url: `/api-keys/${key.id}`, headers: owner.auth });
      expect(first.statusCode).toBe(204);
      for (const id of [key.id, 'does-not-exist', '%00', encodeURIComponent(`${key.id}\u0000`), key.id.toUpperCase()]) {
        const response = await app.inject({ method: 'DELETE', url: `/api-keys/${id}`, headers: owner.auth });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(apiError(404, 'API key not found.'));
      }
    });

    it('needs a JWT', async () => {
      const key = await issueKey(app, owner);
      const response = await app.inject({ method: 'DELETE', url: `/api-keys/${key.id}` });
      expect(response.statusCode).toBe(401);
      expect((await v1(key.key)).statusCode).toBe(200);
    });
  });

  describe('isolation between accounts', () => {
    it('lists only the keys of the caller', async () => {
      const a = await registerAccount(app);
      const b = await registerAccount(app);
      const keyA = await issueKey(app, a);
      const keyB = await issueKey(app, b);
      expect(await listKeys(app, a)).toEqual({ apiKeys: [keyA], total: 1 });
      expect(await listKeys(app, b)).toEqual({ apiKeys: [keyB], total: 1 });
    });

    it('a key of another account cannot be revoked: 404 like a missing one, and it keeps working', async () => {
      const a = await registerAccount(app);
      const b = await registerAccount(app);
      const keyA = await issueKey(app, a);
      const response = await app.inject({ method: 'DELETE', url: `/api-keys/${keyA.id}`, headers: b.auth });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(apiError(404, 'API key not found.'));
      expect((await v1(keyA.key)).statusCode).toBe(200);
      expect(await listKeys(app, a)).toEqual({ apiKeys: [keyA], total: 1 });
    });
  });

  describe('a developer key never opens the account surface', () => {
    it('answers 401 on account routes sent only an x-api-key, or the key as a bearer token', async () => {
      const key = await issueKey(app, owner);
      const requests = [
        { method: 'GET', url: '/auth/me' },
        { method: 'GET', url: '/api-keys' },
        { method: 'POST', url: '/api-keys' },
        { method: 'DELETE', url: `/api-keys/${key.id}` },
      ] as const;
      for (const request of requests) {
        for (const headers of [{ 'x-api-key': key.key }, { authorization: `Bearer ${key.key}` }]) {
          const response = await app.inject({ ...request, headers });
          expect(response.statusCode, `${request.method} ${request.url}`).toBe(401);
          expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
        }
      }
      expect((await listKeys(app, owner)).apiKeys.map((apiKey) => apiKey.id)).toContain(key.id);
    });
  });

  describe('storage', () => {
    it('keeps no plaintext key in the database: a SHA-256 digest and an AES-256-GCM seal only', async () => {
      const issued = [await issueKey(app, owner), await issueKey(app, other)];
      const rows = await app.db.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>('SELECT * FROM api_keys');
      const dump = JSON.stringify(rows);
      for (const { id, key } of issued) {
        expect(dump).toContain(id);
        expect(dump).not.toContain(key);
        expect(dump).not.toContain(key.slice(3));
        expect(dump.toLowerCase()).not.toContain(Buffer.from(key.slice(3), 'hex').toString('base64url').toLowerCase());
        const row = rows.find((candidate) => candidate.id === id);
        expect(Object.keys(row ?? {}).sort()).toEqual(['createdAt', 'id', 'keyDigest', 'sealedKey', 'userId']);
        expect(row?.keyDigest).toMatch(/^[0-9a-f]{64}$/);
        expect(row?.sealedKey).toMatch(/^[A-Za-z0-9_-]+$/);
      }
    });

    it('a seal moved to another row does not open: the list fails instead of showing a foreign key', async () => {
      const account = await registerAccount(app);
      const first = await issueKey(app, account);
      const second = await issueKey(app, account);
      const [row] = await app.db.prisma.$queryRawUnsafe<Array<{ sealedKey: string }>>(
        'SELECT "sealedKey" FROM api_keys WHERE id = $1',
        second.id,
      );
      await app.db.prisma.$executeRawUnsafe('UPDATE api_keys SET "sealedKey" = $1 WHERE id = $2', row?.sealedKey, first.id);
      const response = await app.inject({ method: 'GET', url: '/api-keys', headers: account.auth });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'An unexpected error occurred.' });
      expect(response.body).not.toContain(second.key);
    });
  });
});
