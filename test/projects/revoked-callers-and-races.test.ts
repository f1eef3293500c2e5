// The editor's hot project routes: a token of a deleted or signed-out account gets the guard's 401
// on every one of them, before any other refusal (plugins/authentication.ts); and changes decided
// on a version another write has moved must neither be lost nor skip a recorded version
// (repositories/projects.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { projectsApi, registerProAccount, type ProjectBody } from './fixtures.js';

const INVALID_TOKEN = { statusCode: 401, error: 'Unauthorized', message: 'Invalid or expired token.' };

describe(`project routes for revoked callers and racing writes (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;

  beforeAll(async () => {
    app = await createTestApp();
    api = projectsApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Every hot route, with a well-formed request and with one each route would refuse for itself. */
  function requests(account: TestAccount, projectId: string) {
    const headers = account.auth;
    return {
      'GET /projects': { method: 'GET' as const, url: '/projects', headers },
      'POST /projects': { method: 'POST' as const, url: '/projects', headers, payload: { name: 'New', templateId: 'mailer-box' } },
      'GET /projects/:id': { method: 'GET' as const, url: `/projects/${projectId}`, headers },
      'PUT /projects/:id': { method: 'PUT' as const, url: `/projects/${projectId}`, headers, payload: { name: 'Renamed' } },
      'DELETE /projects/:id': { method: 'DELETE' as const, url: `/projects/${projectId}`, headers },
      'POST /projects (bad body)': { method: 'POST' as const, url: '/projects', headers, payload: { name: '', templateId: 'no-such' } },
      'POST /projects (unknown template)': {
        method: 'POST' as const,
        url: '/projects',
        headers,
        payload: { name: 'X', templateId: 'no-such' },
      },
      'PUT /projects/:id (bad body)': { method: 'PUT' as const, url: `/projects/${projectId}`, headers, payload: { widthMm: 'wide' } },
      'GET /projects/:id (impossible id)': { method: 'GET' as const, url: '/projects/NOT-AN-ID', headers },
      'GET /projects/:id (unknown id)': { method: 'GET' as const, url: '/projects/zzzzzzzzzzzzzzzzzzzzzzzz', headers },
      'DELETE /projects/:id (unknown id)': { method: 'DELETE' as const, url: '/projects/zzzzzzzzzzzzzzzzzzzzzzzz', headers },
      'PUT /projects/:id (malformed JSON)': {
        method: 'PUT' as const,
        url: `/projects/${projectId}`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{"name":',
      },
    };
  }

  async function expectEveryRouteRefuses(account: TestAccount, projectId: string) {
    for (const [label, request] of Object.entries(requests(account, projectId))) {
      const response = await app.inject(request);
      expect(response.json(), label).toEqual(INVALID_TOKEN);
    }
  }

  it('answers 401 on every route, before any other refusal, once the account signed out everywhere', async () => {
    const account = await registerAccount(app);
    const project = await api.created(account, { name: 'Kept', templateId: 'mailer-box' });
    expect((await app.inject({ method: 'DELETE', url: '/auth/sessions', headers: account.auth })).statusCode).toBe(204);
    await expectEveryRouteRefuses(account, project.id);
    // Nothing was written on the revoked token's behalf.
    const fresh = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: account.email, password: account.password } });
    const auth = { authorization: `Bearer ${fresh.json<{ token: string }>().token}` };
    const listed = await app.inject({ method: 'GET', url: '/projects', headers: auth });
    expect(listed.json<{ projects: ProjectBody[] }>().projects).toEqual([project]);
  });

  it('answers 401 on every route once the account is deleted', async () => {
    const account = await registerAccount(app);
    const project = await api.created(account, { name: 'Gone', templateId: 'mailer-box' });
    expect(
      (await app.inject({ method: 'DELETE', url: '/auth/me', headers: account.auth, payload: { password: account.password } })).statusCode,
    ).toBe(204);
    await expectEveryRouteRefuses(account, project.id);
  });

  it("still gives a valid caller each route's own refusal", async () => {
    const account = await registerAccount(app);
    const project = await api.created(account, { name: 'Mine', templateId: 'mailer-box' });
    const answers = Object.fromEntries(
      await Promise.all(
        Object.entries(requests(account, project.id)).map(async ([label, request]) => [label, (await app.inject(request)).statusCode]),
      ),
    );
    expect(answers['POST /projects (bad body)']).toBe(400);
    expect(answers['POST /projects (unknown template)']).toBe(400);
    expect(answers['PUT /projects/:id (bad body)']).toBe(400);
    expect(answers['PUT /projects/:id (malformed JSON)']).toBe(400);
    expect(answers['GET /projects/:id (impossible id)']).toBe(404);
    expect(answers['GET /projects/:id (unknown id)']).toBe(404);
    expect(answers['DELETE /projects/:id (unknown id)']).toBe(404);
  });

  it("does not let one account reach another's project", async () => {
    const owner = await registerAccount(app);
    const other = await registerAccount(app);
    const project = await api.created(owner, { name: 'Private', templateId: 'mailer-box' });
    expect((await api.get(other, project.id)).statusCode).toBe(404);
    expect((await api.update(other, project.id, { name: 'Taken' })).statusCode).toBe(404);
    expect((await api.remove(other, project.id)).statusCode).toBe(404);
    expect((await api.list(other)).json()).toEqual({ projects: [], total: 0 });
    expect((await api.get(owner, project.id)).json()).toEqual({ project });
  });

  it('loses no change when many writes to one project race: every one is written, each recording the one before', async () => {
    const account = await registerProAccount(app);
    const project = await api.created(account, { name: 'Raced', templateId: 'mailer-box' });
    const names = Array.from({ length: 12 }, (_, index) => `Writer ${index}`);
    const answers = await Promise.all(names.map((name) => api.update(account, project.id, { name })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(names.map(() => 200));
    // Each answer is a distinct version, 2 to 13, carrying its own write.
    const written = answers.map((answer) => ({ etag: answer.headers.etag, name: answer.json<{ project: ProjectBody }>().project.name }));
    expect(new Set(written.map((entry) => entry.etag)).size).toBe(names.length);
    const history = await app.inject({ method: 'GET', url: `/projects/${project.id}/versions`, headers: account.auth });
    const versions = history.json<{ versions: Array<{ version: number; name: string }> }>().versions;
    expect(versions.map((entry) => entry.version)).toEqual(Array.from({ length: names.length }, (_, index) => names.length - index));
    // Version n holds what the write that produced n wrote (version 1: the original).
    const byVersion = new Map(written.map((entry) => [Number(entry.etag!.replaceAll('"', '')), entry.name]));
    byVersion.set(1, 'Raced');
    for (const entry of versions) expect(entry.name, `version ${entry.version}`).toBe(byVersion.get(entry.version));
    const current = await api.get(account, project.id);
    expect(current.headers.etag).toBe(`"${names.length + 1}"`);
    expect(current.json<{ project: ProjectBody }>().project.name).toBe(byVersion.get(names.length + 1));
  });

  it('checks If-Match against the version a racing write left: one 200, the rest 412', async () => {
    const account = await registerProAccount(app);
    const project = await api.created(account, { name: 'Guarded', templateId: 'mailer-box' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        app.inject({
          method: 'PUT',
          url: `/projects/${project.id}`,
          headers: { ...account.auth, 'if-match': '"1"' },
          payload: { name: `Try ${index}` },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const history = await app.inject({ method: 'GET', url: `/projects/${project.id}/versions`, headers: account.auth });
    expect(history.json<{ versions: unknown[] }>().versions).toHaveLength(1);
  });
});
