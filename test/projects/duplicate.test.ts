// POST /projects/:id/duplicate: a copy of the current state (not the history), under the plan's cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { engineName } from '../helpers/app.js';
import {
  expectApiError,
  fullEditorState,
  NOT_FOUND,
  PROJECT_CAP_MESSAGE,
  projectsApi,
  startProjectsSuite,
  type ProjectBody,
} from './fixtures.js';

describe(`duplicating a project (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, api, account } = await startProjectsSuite());
  });
  afterAll(() => app?.close());

  const duplicate = (id: string, payload?: unknown, who: TestAccount = account) =>
    app.inject({
      method: 'POST',
      url: `/projects/${id}/duplicate`,
      headers: who.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const total = async (who: TestAccount) => (await api.list(who)).json<{ total: number }>().total;

  it('copies the current state under a new id, named "<name> (copy)", with ETag "1" and no history', async () => {
    const sent = fullEditorState();
    const source = await api.created(account, { name: 'Original', templateId: 'mailer-box', widthMm: 310, artworkJson: sent });
    await api.update(account, source.id, { name: 'Spring mailer', heightMm: 44 });

    const response = await duplicate(source.id);
    expect(response.statusCode).toBe(201);
    expect(response.headers.etag).toBe('"1"');
    const copy = response.json<{ project: ProjectBody }>().project;
    expect(copy.id).not.toBe(source.id);
    expect(copy).toMatchObject({
      name: 'Spring mailer (copy)',
      templateId: 'mailer-box',
      widthMm: 310,
      heightMm: 44,
      depthMm: source.depthMm,
    });
    expect(response.body).toContain(`"artworkJson":${JSON.stringify(sent)}`);
    expect(copy.createdAt).toBe(copy.updatedAt);

    const versions = await app.inject({ method: 'GET', url: `/projects/${copy.id}/versions`, headers: account.auth });
    expect(versions.json()).toEqual({ versions: [], total: 0 });
    expect((await api.get(account, copy.id)).json<{ project: ProjectBody }>().project).toEqual(copy);
    // The source is untouched.
    expect((await api.get(account, source.id)).headers.etag).toBe('"2"');
  });

  it('takes a name from the body, trimmed; an empty JSON object means the default', async () => {
    const source = await api.created(account, { name: 'Base', templateId: 'rsc-box' });
    const named = await duplicate(source.id, { name: '  Kraft variant  ' });
    expect(named.statusCode).toBe(201);
    expect(named.json<{ project: ProjectBody }>().project.name).toBe('Kraft variant');
    const defaulted = await duplicate(source.id, {});
    expect(defaulted.json<{ project: ProjectBody }>().project.name).toBe('Base (copy)');
  });

  it('cuts the default name to 200 characters (code points), never leaving a trailing space', async () => {
    const long = await api.created(account, { name: 'n'.repeat(200), templateId: 'mailer-box' });
    expect((await duplicate(long.id)).json<{ project: ProjectBody }>().project.name).toBe('n'.repeat(200));
    const near = await api.created(account, { name: 'm'.repeat(196), templateId: 'mailer-box' });
    expect((await duplicate(near.id)).json<{ project: ProjectBody }>().project.name).toBe(`${'m'.repeat(196)} (co`);
    const spaced = await api.created(account, { name: 'k'.repeat(199), templateId: 'mailer-box' });
    expect((await duplicate(spaced.id)).json<{ project: ProjectBody }>().project.name).toBe('k'.repeat(199));
    const emoji = await api.created(account, { name: '😀'.repeat(195), templateId: 'mailer-box' });
    expect((await duplicate(emoji.id)).json<{ project: ProjectBody }>().project.name).toBe(`${'😀'.repeat(195)} (cop`);
  });

  it.each([
    ['an unknown field', { name: 'x', versions: true }, "body has an unknown field 'versions'."],
    ['a 201-character name', { name: 'x'.repeat(201) }, 'name must be 1 to 200 characters long after trimming.'],
    ['a blank name', { name: '   ' }, 'name must be 1 to 200 characters long after trimming.'],
    ['a name that is not a string', { name: 5 }, 'body/name must be string.'],
    ['a body that is not an object', [], 'body must be object.'],
  ])('answers 400 to %s and creates nothing', async (_label, payload, message) => {
    const source = await api.created(account, { name: 'Src', templateId: 'mailer-box' });
    const before = await total(account);
    expectApiError(await duplicate(source.id, payload), 400, message);
    expect(await total(account)).toBe(before);
  });

  it("answers 404 for a missing project or another account's, creating nothing", async () => {
    const source = await api.created(account, { name: 'Private', templateId: 'mailer-box' });
    const other = await registerAccount(app);
    expect((await duplicate(source.id, undefined, other)).json()).toEqual(NOT_FOUND);
    expect((await duplicate('doesnotexist0000000000000')).json()).toEqual(NOT_FOUND);
    expect((await duplicate('NOT A CUID')).json()).toEqual(NOT_FOUND);
    expect(await total(other)).toBe(0);
  });

  it('applies the free plan cap: 403 with the fixed message at 3 projects', async () => {
    const free = await registerAccount(app);
    const source = await api.created(free, { name: 'One', templateId: 'mailer-box' });
    expect((await duplicate(source.id, undefined, free)).statusCode).toBe(201);
    expect((await duplicate(source.id, undefined, free)).statusCode).toBe(201);
    const refused = await duplicate(source.id, undefined, free);
    expect(refused.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: PROJECT_CAP_MESSAGE });
    expect(await total(free)).toBe(3);
  });

  it('holds the cap under concurrency: ten simultaneous duplicates leave exactly 3 projects', async () => {
    const free = await registerAccount(app);
    const source = await api.created(free, { name: 'Racing', templateId: 'mailer-box' });
    const responses = await Promise.all(Array.from({ length: 10 }, () => duplicate(source.id, undefined, free)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 201, 403, 403, 403, 403, 403, 403, 403, 403]);
    expect(await total(free)).toBe(3);
  });

  it('holds the cap with creates and duplicates racing together', async () => {
    const free = await registerAccount(app);
    const source = await api.created(free, { name: 'Mixed', templateId: 'mailer-box' });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0 ? duplicate(source.id, undefined, free) : api.create(free, { name: `New ${index}`, templateId: 'mailer-box' }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(2);
    expect(await total(free)).toBe(3);
  });
});
