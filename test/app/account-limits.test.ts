// What one account may hold and leave behind, through the real app: 20 API keys (409 beyond),
// 50 unfinished exports (429 with Retry-After beyond), both held under concurrent requests, sign-out everywhere that keeps the keys
// unless asked to revoke them, a project's deletion taking its exports and files with it, the
// Bearer scheme in any case, and webhook addresses that reach the machine through IPv6 forms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, ownDatabase } from '../helpers/app.js';
import { SHARED_REDIS_URL, uniqueNamespace } from '../helpers/redis.js';
import { expectApiError } from '../assets/helpers.js';
import { createProject } from '../print/harness.js';
import { registerProAccount } from '../projects/fixtures.js';
import { MAILER, pollInjected, type ExportBody } from '../exports/helpers.js';

let app: App;
let own: Awaited<ReturnType<typeof ownDatabase>>;

beforeAll(async () => {
  own = await ownDatabase('pf_account_limits');
  app = await createTestApp(own.env);
}, 240_000);

afterAll(async () => {
  await app?.close();
  await own?.drop();
});

const useKey = (key: string) => app.inject({ method: 'GET', url: '/v1/templates/mailer-box', headers: { 'x-api-key': key } });

describe(`account limits (${engineName()})`, () => {
  it('20 API keys per account: the 21st is 409 "API key limit reached.", and revoking one makes room', async () => {
    const account = await registerAccount(app);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const issued = await app.inject({ method: 'POST', url: '/api-keys', headers: account.auth });
      expect(issued.statusCode, issued.body).toBe(201);
      ids.push(issued.json<{ apiKey: { id: string } }>().apiKey.id);
    }
    expectApiError(await app.inject({ method: 'POST', url: '/api-keys', headers: account.auth }), 409, 'API key limit reached.');
    expect((await app.inject({ method: 'DELETE', url: `/api-keys/${ids[0]}`, headers: account.auth })).statusCode).toBe(204);
    expect((await app.inject({ method: 'POST', url: '/api-keys', headers: account.auth })).statusCode).toBe(201);
  });

  it('the key cap holds under concurrent requests: 30 at once at 15 keys end with exactly 20', async () => {
    const account = await registerAccount(app);
    const issue = () => app.inject({ method: 'POST', url: '/api-keys', headers: account.auth });
    for (let i = 0; i < 15; i++) expect((await issue()).statusCode).toBe(201);
    const answers = await Promise.all(Array.from({ length: 30 }, issue));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(5);
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      expectApiError(refused, 409, 'API key limit reached.');
    }
    const listed = await app.inject({ method: 'GET', url: '/api-keys', headers: account.auth });
    expect(listed.json<{ apiKeys: unknown[] }>().apiKeys).toHaveLength(20);
  });

  it('sign-out everywhere keeps the API keys; with apiKeys=true it revokes them too', async () => {
    const account = await registerAccount(app);
    const created = await app.inject({ method: 'POST', url: '/api-keys', headers: account.auth });
    const key = created.json<{ apiKey: { key: string } }>().apiKey.key;
    expect((await app.inject({ method: 'DELETE', url: '/auth/sessions', headers: account.auth })).statusCode).toBe(204);
    expect((await useKey(key)).statusCode).toBe(200);

    const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: account.email, password: account.password } });
    const auth = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    expect((await app.inject({ method: 'DELETE', url: '/auth/sessions?apiKeys=true', headers: auth })).statusCode).toBe(204);
    expectApiError(await useKey(key), 401);
    expectApiError(await app.inject({ method: 'GET', url: '/auth/me', headers: auth }), 401);
  });

  it('the Bearer scheme is case-insensitive', async () => {
    const account = await registerAccount(app);
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const me = await app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `${scheme} ${account.token}` } });
      expect(me.statusCode, `${scheme}: ${me.body}`).toBe(200);
    }
  });

  it('webhook URLs whose IPv6 address reaches loopback or private ranges are refused', async () => {
    const account = await registerAccount(app);
    for (const host of ['[64:ff9b:1::a00:1]', '[::127.0.0.1]', '[::7f00:1]', '[2002:7f00:1::]', '[2002:a00:1::1]', '[64:ff9b::7f00:1]']) {
      const created = await app.inject({
        method: 'POST',
        url: '/webhooks',
        headers: account.auth,
        payload: { url: `http://${host}/hook`, events: ['export.succeeded'] },
      });
      expectApiError(created, 400, 'Webhook URL must be a public http(s) address.');
    }
  });

  it('deleting a project deletes its exports: the export is 404 and its file is gone', async () => {
    const account = await registerProAccount(app);
    const projectId = await createProject(app, account, 'mailer-box', {}, MAILER);
    const created = await app.inject({
      method: 'POST',
      url: `/projects/${projectId}/exports`,
      headers: account.auth,
      payload: { format: 'dieline-svg' },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json<{ export: ExportBody }>().export.id;
    const done = await pollInjected(app, `/exports/${id}`, account.auth, 60_000);
    expect(done.status).toBe('succeeded');
    expect((await app.inject({ method: 'GET', url: done.downloadUrl! })).statusCode).toBe(200);

    expect((await app.inject({ method: 'DELETE', url: `/projects/${projectId}`, headers: account.auth })).statusCode).toBe(204);
    expectApiError(await app.inject({ method: 'GET', url: `/exports/${id}`, headers: account.auth }), 404, 'Export not found.');
    expect((await app.inject({ method: 'GET', url: done.downloadUrl! })).statusCode).not.toBe(200);
    expect(await app.services.storage.open(`export-${id}.svg`)).toBeNull();
  });
});

describe(`queued exports per account (${engineName()}, exports queued on Redis with no worker)`, () => {
  let queued: App;
  let queuedDb: Awaited<ReturnType<typeof ownDatabase>>;

  beforeAll(async () => {
    queuedDb = await ownDatabase('pf_account_limits_q');
    // With REDIS_URL the web process only queues exports; no worker runs, so they stay queued.
    queued = await createTestApp({ ...queuedDb.env, REDIS_URL: SHARED_REDIS_URL, EXPORT_QUEUE_PREFIX: uniqueNamespace() });
  }, 240_000);

  afterAll(async () => {
    await queued?.close();
    await queuedDb?.drop();
  });

  it('50 unfinished exports: the 51st is 429 "Too many exports are queued." ' +
    'with Retry-After; another account is not affected', async () => {
    const account: TestAccount = await registerProAccount(queued);
    const projectId = await createProject(queued, account, 'mailer-box', {}, MAILER);
    const post = (who: TestAccount, id: string) =>
      queued.inject({ method: 'POST', url: `/projects/${id}/exports`, headers: who.auth, payload: { format: 'dieline-svg' } });
    for (let i = 0; i < 50; i++) expect((await post(account, projectId)).statusCode).toBe(202);
    const refused = await post(account, projectId);
    expectApiError(refused, 429, 'Too many exports are queued.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await registerProAccount(queued);
    expect((await post(other, await createProject(queued, other, 'mailer-box', {}, MAILER))).statusCode).toBe(202);
  }, 120_000);

  it('the queued exports cap holds under concurrent requests: 20 at once at 45 queued end with exactly 50', async () => {
    const account: TestAccount = await registerProAccount(queued);
    const projectId = await createProject(queued, account, 'mailer-box', {}, MAILER);
    const post = () =>
      queued.inject({ method: 'POST', url: `/projects/${projectId}/exports`, headers: account.auth, payload: { format: 'dieline-svg' } });
    for (let i = 0; i < 45; i++) expect((await post()).statusCode).toBe(202);
    const answers = await Promise.all(Array.from({ length: 20 }, post));
    expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(5);
    for (const refused of answers.filter((answer) => answer.statusCode !== 202)) {
      expectApiError(refused, 429, 'Too many exports are queued.');
    }
    expect(await queued.db.prisma.export.count({ where: { userId: account.id, status: { in: ['queued', 'running'] } } })).toBe(50);
  }, 120_000);
});
