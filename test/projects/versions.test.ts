// Version history: recorded with each change, listed, read, restored, pruned to the latest 50,
// deleted with the project; another account's project is a 404 like a missing one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { engineName } from '../helpers/app.js';
import { expectApiError, fullEditorState, ISO, NOT_FOUND, projectsApi, startProjectsSuite, type ProjectBody } from './fixtures.js';

const VERSION_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Version not found.' };
const CHANGED = 'The project was changed since you loaded it.';

interface VersionSummary {
  version: number;
  name: string;
  templateId: string;
  widthMm: number;
  heightMm: number;
  depthMm: number;
  createdAt: string;
}

describe(`project versions (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, api, account } = await startProjectsSuite());
  });
  afterAll(() => app?.close());

  const get = (url: string, who: TestAccount = account) => app.inject({ method: 'GET', url, headers: who.auth });
  const restore = (id: string, version: number | string, headers: Record<string, string> = {}, who: TestAccount = account) =>
    app.inject({ method: 'POST', url: `/projects/${id}/versions/${version}/restore`, headers: { ...who.auth, ...headers } });
  const list = async (id: string) => {
    const response = await get(`/projects/${id}/versions`);
    expect(response.statusCode).toBe(200);
    return response.json<{ versions: VersionSummary[]; total: number }>();
  };
  const current = async (id: string) => (await api.get(account, id)).json<{ project: ProjectBody }>().project;

  it('starts empty and records the replaced state with each change, newest first', async () => {
    const created = await api.created(account, { name: 'First', templateId: 'mailer-box', widthMm: 100 });
    expect(await list(created.id)).toEqual({ versions: [], total: 0 });

    const second = (await api.update(account, created.id, { name: 'Second', widthMm: 200 })).json<{ project: ProjectBody }>().project;
    await api.update(account, created.id, { templateId: 'rsc-box' });
    const { versions, total } = await list(created.id);
    expect(total).toBe(2);
    expect(versions.map((version) => version.version)).toEqual([2, 1]);
    expect(versions[1]).toEqual({
      version: 1,
      name: 'First',
      templateId: 'mailer-box',
      widthMm: 100,
      heightMm: created.heightMm,
      depthMm: created.depthMm,
      createdAt: created.updatedAt,
    });
    expect(versions[0]).toMatchObject({ version: 2, name: 'Second', widthMm: 200, templateId: 'mailer-box', createdAt: second.updatedAt });
    expect(versions[0]!.createdAt).toMatch(ISO);
    expect(Object.keys(versions[0]!)).not.toContain('artworkJson');
  });

  it('reads one version with its artworkJson exactly as it was stored', async () => {
    const sent = fullEditorState();
    const created = await api.created(account, { name: 'Doc', templateId: 'mailer-box', artworkJson: sent });
    await api.update(account, created.id, { artworkJson: { lighting: 'studio' } });
    const response = await get(`/projects/${created.id}/versions/1`);
    expect(response.statusCode).toBe(200);
    const { version } = response.json<{ version: VersionSummary & { artworkJson: unknown } }>();
    expect(version).toMatchObject({ version: 1, name: 'Doc', templateId: 'mailer-box' });
    expect(response.body).toContain(`"artworkJson":${JSON.stringify(sent)}`);
  });

  it('restores a version, recording the replaced state, with the ETag of the new version', async () => {
    const original = fullEditorState();
    const created = await api.created(account, { name: 'Good', templateId: 'mailer-box', widthMm: 150, artworkJson: original });
    await api.update(account, created.id, { name: 'Bad save', widthMm: 90, templateId: 'rsc-box', artworkJson: {} });

    const response = await restore(created.id, 1);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"3"');
    const restored = response.json<{ project: ProjectBody }>().project;
    expect(restored).toMatchObject({ id: created.id, name: 'Good', templateId: 'mailer-box', widthMm: 150 });
    expect(JSON.stringify(restored.artworkJson)).toBe(JSON.stringify(original));
    expect(await current(created.id)).toEqual(restored);

    const { versions } = await list(created.id);
    expect(versions.map((version) => [version.version, version.name])).toEqual([
      [2, 'Bad save'],
      [1, 'Good'],
    ]);
  });

  it('records nothing and keeps the version when the restored state is the current one', async () => {
    const created = await api.created(account, { name: 'Same', templateId: 'mailer-box' });
    await api.update(account, created.id, { name: 'Other' });
    await api.update(account, created.id, { name: 'Same' });
    const before = await current(created.id);
    const response = await restore(created.id, 1);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"3"');
    expect(await current(created.id)).toEqual(before);
    expect((await list(created.id)).total).toBe(2);
  });

  it('honours If-Match on restore: 412 and nothing changed when stale', async () => {
    const created = await api.created(account, { name: 'A', templateId: 'mailer-box' });
    await api.update(account, created.id, { name: 'B' });
    expectApiError(await restore(created.id, 1, { 'if-match': '"1"' }), 412, CHANGED);
    expect((await current(created.id)).name).toBe('B');
    expect((await list(created.id)).total).toBe(1);
    expectApiError(await restore(created.id, 1, { 'if-match': 'bad' }), 400);
    const matched = await restore(created.id, 1, { 'if-match': '"2"' });
    expect(matched.statusCode).toBe(200);
    expect(matched.json<{ project: ProjectBody }>().project.name).toBe('A');
  });

  it('answers 404 "Version not found." for a version that does not exist, on read and restore', async () => {
    const created = await api.created(account, { name: 'Few', templateId: 'mailer-box' });
    await api.update(account, created.id, { name: 'Few 2' });
    for (const version of [2, 3, 999, 2_147_483_647]) {
      expect((await get(`/projects/${created.id}/versions/${version}`)).json(), String(version)).toEqual(VERSION_NOT_FOUND);
      expect((await restore(created.id, version)).json(), String(version)).toEqual(VERSION_NOT_FOUND);
    }
    expect((await current(created.id)).name).toBe('Few 2');
  });

  it.each([
    ['a word', 'abc'],
    ['zero', '0'],
    ['a negative number', '-1'],
    ['a fraction', '1.5'],
    ['a number beyond the column', '2147483648'],
    ['a huge number', '99999999999999999999999'],
    // Other spellings of a number: Ajv would coerce each of them.
    ['hexadecimal', '0x1'],
    ['a leading zero', '01'],
    ['a plus sign', '+1'],
    ['a leading space', '%201'],
    ['a decimal point', '1.0'],
    ['an exponent', '1e1'],
  ])('answers 400 to %s as a version number', async (_label, version) => {
    const created = await api.created(account, { name: 'Params', templateId: 'mailer-box' });
    await api.update(account, created.id, { name: 'Params 2' });
    expectApiError(await get(`/projects/${created.id}/versions/${version}`), 400, /^params\/version /);
    expectApiError(await restore(created.id, version), 400, /^params\/version /);
    expect((await current(created.id)).name).toBe('Params 2');
    expect((await get(`/projects/${created.id}/versions/${version}`)).json().message).toBe(
      'params/version must be an integer from 1 to 2147483647 written in plain digits.',
    );
  });

  it('refuses a body on restore, which takes none, and restores nothing', async () => {
    const created = await api.created(account, { name: 'Body', templateId: 'mailer-box' });
    await api.update(account, created.id, { name: 'Body 2' });
    const refused = await app.inject({
      method: 'POST',
      url: `/projects/${created.id}/versions/1/restore`,
      headers: account.auth,
      payload: { name: 'ignored?' },
    });
    expectApiError(refused, 400, /^body /);
    expect((await current(created.id)).name).toBe('Body 2');
  });

  it("answers 404 \"Project not found.\" for another account's project, on every version route", async () => {
    const created = await api.created(account, { name: 'Mine', templateId: 'mailer-box' });
    await api.update(account, created.id, { name: 'Mine 2' });
    const other = await registerAccount(app);
    expect((await get(`/projects/${created.id}/versions`, other)).json()).toEqual(NOT_FOUND);
    expect((await get(`/projects/${created.id}/versions/1`, other)).json()).toEqual(NOT_FOUND);
    expect((await restore(created.id, 1, {}, other)).json()).toEqual(NOT_FOUND);
    expect((await get('/projects/doesnotexist0000000000000/versions', other)).json()).toEqual(NOT_FOUND);
    expect((await get('/projects/NOT-A-CUID/versions/1')).json()).toEqual(NOT_FOUND);
    expect((await current(created.id)).name).toBe('Mine 2');
  });

  it('requires a JWT', async () => {
    const created = await api.created(account, { name: 'Auth', templateId: 'mailer-box' });
    const response = await app.inject({ method: 'GET', url: `/projects/${created.id}/versions` });
    expectApiError(response, 401, 'Authentication required.');
  });

  it('keeps the latest 50: the 51st save prunes the oldest version', async () => {
    const created = await api.created(account, { name: 'Save 0', templateId: 'mailer-box' });
    for (let save = 1; save <= 50; save++) {
      expect((await api.update(account, created.id, { name: `Save ${save}` })).statusCode).toBe(200);
    }
    let history = await list(created.id);
    expect(history.total).toBe(50);
    expect(history.versions.at(-1)).toMatchObject({ version: 1, name: 'Save 0' });

    const saved = await api.update(account, created.id, { name: 'Save 51' });
    expect(saved.headers.etag).toBe('"52"');
    history = await list(created.id);
    expect(history.total).toBe(50);
    expect(history.versions[0]).toMatchObject({ version: 51, name: 'Save 50' });
    expect(history.versions.at(-1)).toMatchObject({ version: 2, name: 'Save 1' });
    expect((await get(`/projects/${created.id}/versions/1`)).json()).toEqual(VERSION_NOT_FOUND);
    expect((await get(`/projects/${created.id}/versions/2`)).statusCode).toBe(200);
  }, 120_000);

  it('does not count versions toward the free plan cap', async () => {
    const free = await registerAccount(app);
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) ids.push((await api.created(free, { name: `P${index}`, templateId: 'mailer-box' })).id);
    for (let save = 0; save < 3; save++) await api.update(free, ids[0]!, { name: `Edit ${save}` });
    expect((await api.list(free)).json<{ total: number }>().total).toBe(3);
    expect((await api.update(free, ids[1]!, { name: 'Still editable' })).statusCode).toBe(200);
  });

  it('deletes the versions with the project', async () => {
    const created = await api.created(account, { name: 'Doomed', templateId: 'mailer-box' });
    await api.update(account, created.id, { name: 'Doomed 2' });
    await api.update(account, created.id, { name: 'Doomed 3' });
    expect((await api.remove(account, created.id)).statusCode).toBe(204);
    expect((await get(`/projects/${created.id}/versions`)).json()).toEqual(NOT_FOUND);
    expect(await app.db.prisma.projectVersion.count({ where: { projectId: created.id } })).toBe(0);
  });

  it('a rejected PUT records no version', async () => {
    const created = await api.created(account, { name: 'Kept', templateId: 'mailer-box' });
    expectApiError(await api.update(account, created.id, { name: 'x'.repeat(201) }), 400);
    expectApiError(await api.update(account, created.id, { templateId: 'nope' }), 400);
    expect((await list(created.id)).total).toBe(0);
  });
});
