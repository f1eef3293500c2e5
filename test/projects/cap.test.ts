import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase } from '../../src/db/database.js';
import { PLAN_LIMITS } from '../../src/services/plans.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, databaseUrl, engineName, testConfig, uniqueEmail } from '../helpers/app.js';
import { startServers, stopServers } from '../helpers/server-process.js';
import { expectApiError, PROJECT_CAP_MESSAGE, projectsApi, registerProAccount, type ProjectBody } from './fixtures.js';

const newProject = (index: number) => ({ name: `Project ${index}`, templateId: 'mailer-box' });

describe(`free-plan project cap (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;

  beforeAll(async () => {
    app = await createTestApp();
    api = projectsApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const total = async (account: TestAccount) => (await api.list(account)).json<{ total: number }>().total;

  it('the plan table caps free at 3 and pro not at all', () => {
    expect(PLAN_LIMITS).toEqual({ free: { maxProjects: 3 }, pro: { maxProjects: null } });
  });

  it('allows 3 projects; the 4th is 403 with the fixed message and is not stored', async () => {
    const account = await registerAccount(app);
    for (let index = 1; index <= 3; index++) await api.created(account, newProject(index));
    const fourth = await api.create(account, newProject(4));
    expectApiError(fourth, 403, PROJECT_CAP_MESSAGE);
    expect(fourth.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: PROJECT_CAP_MESSAGE });
    expect(await total(account)).toBe(3);
  });

  it('frees a slot when a project is deleted', async () => {
    const account = await registerAccount(app);
    const created: ProjectBody[] = [];
    for (let index = 1; index <= 3; index++) created.push(await api.created(account, newProject(index)));
    expectApiError(await api.create(account, newProject(4)), 403, PROJECT_CAP_MESSAGE);

    expect((await api.remove(account, created[0]!.id)).statusCode).toBe(204);
    await api.created(account, newProject(5));
    expectApiError(await api.create(account, newProject(6)), 403, PROJECT_CAP_MESSAGE);
    expect(await total(account)).toBe(3);
  });

  it('is per account: one account at the cap does not limit another', async () => {
    const full = await registerAccount(app);
    const other = await registerAccount(app);
    for (let index = 1; index <= 3; index++) await api.created(full, newProject(index));
    await api.created(other, newProject(1));
    expectApiError(await api.create(full, newProject(4)), 403, PROJECT_CAP_MESSAGE);
  });

  it('checks the request before the cap: an invalid body at the cap is still 400', async () => {
    const account = await registerAccount(app);
    for (let index = 1; index <= 3; index++) await api.created(account, newProject(index));
    expectApiError(await api.create(account, { ...newProject(4), templateId: 'nope' }), 400, "Unknown templateId 'nope'.");
  });

  it('updates are not creates: an account at the cap can still edit', async () => {
    const account = await registerAccount(app);
    const created: ProjectBody[] = [];
    for (let index = 1; index <= 3; index++) created.push(await api.created(account, newProject(index)));
    expect((await api.update(account, created[2]!.id, { name: 'Edited' })).statusCode).toBe(200);
  });

  it('does not apply to the pro plan', async () => {
    const account = await registerProAccount(app);
    for (let index = 1; index <= 6; index++) await api.created(account, newProject(index));
    expect(await total(account)).toBe(6);
  });

  it('holds under concurrency: ten simultaneous creates by one account leave exactly 3', async () => {
    const account = await registerAccount(app);
    const responses = await Promise.all(Array.from({ length: 10 }, (_, index) => api.create(account, newProject(index))));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 403, 403, 403, 403, 403, 403, 403]);
    for (const response of responses.filter((r) => r.statusCode === 403)) {
      expect(response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: PROJECT_CAP_MESSAGE });
    }
    expect(await total(account)).toBe(3);
  });

  it('holds for several accounts racing at once, each ending with exactly 3', async () => {
    const accounts = await Promise.all(Array.from({ length: 3 }, () => registerAccount(app)));
    const responses = await Promise.all(
      accounts.flatMap((account) => Array.from({ length: 6 }, (_, index) => api.create(account, newProject(index)))),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(9);
    expect(responses.filter((response) => response.statusCode === 403)).toHaveLength(9);
    for (const account of accounts) expect(await total(account)).toBe(3);
  });
});

/**
 * Several servers on one database. On PostgreSQL: real server processes, each with its own pool.
 * The embedded database cannot be shared between processes, so there two app instances share it.
 */
describe(`free-plan cap across several servers on one database (${engineName()})`, () => {
  type Send = (method: 'GET' | 'POST', path: string, token: string | null, body?: object) => Promise<{ status: number; body: string }>;
  let senders: Send[] = [];
  let stop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const url = databaseUrl();
    if (url) {
      const servers = await startServers(2, { databaseUrl: url });
      stop = () => stopServers(servers);
      senders = servers.map((server): Send => async (method, path, token, body) => {
        const response = await fetch(`${server.baseUrl}${path}`, {
          method,
          headers: { ...authorization(token), ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: response.status, body: await response.text() };
      });
      return;
    }
    const config = testConfig();
    const database = await openDatabase(config.database);
    const apps = [await buildApp(config, { database, logger: false }), await buildApp(config, { database, logger: false })];
    await Promise.all(apps.map((instance) => instance.ready()));
    stop = async () => {
      await Promise.all(apps.map((instance) => instance.close()));
      await database.close();
    };
    senders = apps.map((instance): Send => async (method, path, token, body) => {
      const response = await instance.inject({ method, url: path, headers: authorization(token), payload: body });
      return { status: response.statusCode, body: response.body };
    });
  }, 60_000);
  afterAll(async () => {
    await stop();
  });

  it('ten simultaneous creates split over two servers leave exactly 3', async () => {
    const [first, second] = senders as [Send, Send];
    const token = await registerThrough(first);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? first : second)('POST', '/projects', token, newProject(index))),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 201, 201, 403, 403, 403, 403, 403, 403, 403]);
    for (const response of responses.filter((r) => r.status === 403)) {
      expect(JSON.parse(response.body)).toEqual({ statusCode: 403, error: 'Forbidden', message: PROJECT_CAP_MESSAGE });
    }
    const listed = await second('GET', '/projects', token);
    expect(JSON.parse(listed.body).total).toBe(3);
  });

  const authorization = (token: string | null): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

  /** Registers a free account through the given server and returns its token. */
  async function registerThrough(send: Send): Promise<string> {
    const body = { email: uniqueEmail('cap'), password: 'correct horse battery', name: 'Cap' };
    const response = await send('POST', '/auth/register', null, body);
    expect(response.status, response.body).toBe(201);
    return (JSON.parse(response.body) as { token: string }).token;
  }
});
