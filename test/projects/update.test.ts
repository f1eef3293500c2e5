import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { expectApiError, fullEditorState, projectsApi, registerProAccount, sleep, type ProjectBody } from './fixtures.js';

describe(`PUT /projects/:id and ordering (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;
  let account: TestAccount;

  beforeAll(async () => {
    app = await createTestApp();
    api = projectsApi(app);
    account = await registerProAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function update(project: ProjectBody, payload: unknown): Promise<ProjectBody> {
    const response = await api.update(account, project.id, payload);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ project: ProjectBody }>();
    expect(Object.keys(body)).toEqual(['project']);
    expect((await api.get(account, project.id)).json()).toEqual(body);
    return body.project;
  }

  const fresh = async (payload: object = {}) => {
    const project = await api.created(account, { name: 'Original', templateId: 'mailer-box', ...payload });
    // updatedAt has millisecond precision: make a later change land on a later millisecond.
    await sleep(5);
    return project;
  };

  describe('partial update', () => {
    it('changes only the name, and moves updatedAt', async () => {
      const project = await fresh({ artworkJson: fullEditorState() });
      const updated = await update(project, { name: '  Renamed  ' });
      expect(updated).toEqual({ ...project, name: 'Renamed', updatedAt: updated.updatedAt });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(project.updatedAt));
      expect(updated.createdAt).toBe(project.createdAt);
    });

    it.each(['widthMm', 'heightMm', 'depthMm'] as const)('changes only %s', async (dimension) => {
      const project = await fresh();
      const updated = await update(project, { [dimension]: 42.5 });
      expect(updated).toEqual({ ...project, [dimension]: 42.5, updatedAt: updated.updatedAt });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(project.updatedAt));
    });

    it('changes the templateId to another catalog id, leaving dimensions and artworkJson as they were', async () => {
      const project = await fresh();
      const updated = await update(project, { templateId: 'rsc-box' });
      expect(updated).toEqual({ ...project, templateId: 'rsc-box', updatedAt: updated.updatedAt });
      expect(updated.artworkJson.templateId).toBe('mailer-box');
    });

    it('checks a changed templateId against the catalog and changes nothing on failure', async () => {
      const project = await fresh();
      const response = await api.update(account, project.id, { templateId: 'rsc-boxx', name: 'Should not stick' });
      expectApiError(response, 400, "Unknown templateId 'rsc-boxx'.");
      expect((await api.get(account, project.id)).json()).toEqual({ project });
    });

    it('replaces artworkJson verbatim without re-resolving the dimensions from it', async () => {
      const project = await fresh();
      const sent = fullEditorState();
      const response = await api.update(account, project.id, { artworkJson: sent });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`"artworkJson":${JSON.stringify(sent)}`);
      const updated = response.json<{ project: ProjectBody }>().project;
      expect(updated.widthMm).toBe(project.widthMm);
      expect(updated.heightMm).toBe(project.heightMm);
      expect(updated.depthMm).toBe(project.depthMm);
      expect(JSON.stringify(updated.artworkJson)).toBe(JSON.stringify(sent));
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(project.updatedAt));
    });

    it('replaces artworkJson as a whole: fields left out are gone', async () => {
      const project = await fresh({ artworkJson: fullEditorState() });
      const updated = await update(project, { artworkJson: { lighting: 'outdoor' } });
      expect(updated.artworkJson).toEqual({ lighting: 'outdoor' });
    });

    it('sets several fields at once', async () => {
      const project = await fresh();
      const updated = await update(project, {
        name: 'All',
        templateId: 'rsc-box',
        widthMm: 1,
        heightMm: 2,
        depthMm: 3000,
        artworkJson: {},
      });
      expect(updated).toEqual({
        ...project,
        name: 'All',
        templateId: 'rsc-box',
        widthMm: 1,
        heightMm: 2,
        depthMm: 3000,
        artworkJson: {},
        updatedAt: updated.updatedAt,
      });
    });
  });

  describe('updatedAt moves only when something changed', () => {
    it('an empty body changes nothing', async () => {
      const project = await fresh();
      expect(await update(project, {})).toEqual(project);
    });

    it('identical values change nothing, the trimmed name included', async () => {
      const project = await fresh({ artworkJson: fullEditorState() });
      const same = await update(project, {
        name: '  Original ',
        templateId: project.templateId,
        widthMm: project.widthMm,
        heightMm: project.heightMm,
        depthMm: project.depthMm,
        artworkJson: fullEditorState(),
      });
      expect(same).toEqual(project);
    });

    it('the same document with its keys in another order is a change (it is stored verbatim)', async () => {
      const original = fullEditorState();
      const project = await fresh({ artworkJson: original });
      const reordered = Object.fromEntries(Object.entries(original).reverse());
      expect(reordered).toEqual(original);
      const updated = await update(project, { artworkJson: reordered });
      expect(JSON.stringify(updated.artworkJson)).toBe(JSON.stringify(reordered));
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(project.updatedAt));
    });

    it('one changed field among identical ones moves it', async () => {
      const project = await fresh();
      const updated = await update(project, { name: 'Original', widthMm: project.widthMm + 1 });
      expect(updated.widthMm).toBe(project.widthMm + 1);
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(project.updatedAt));
    });
  });

  describe('rejected updates change nothing', () => {
    it.each([
      ['an empty name', { name: ' ' }],
      ['a dimension out of bounds', { widthMm: 3000.001 }],
      ['a valid field next to an invalid one', { name: 'Fine', heightMm: 0 }],
      ['an unknown field', { name: 'Fine', owner: 'me' }],
      ['an invalid artworkJson', { artworkJson: { finish: 'chrome' } }],
      ['null for a field', { templateId: null }],
    ])('%s', async (_label, payload) => {
      const project = await fresh();
      expectApiError(await api.update(account, project.id, payload), 400);
      expect((await api.get(account, project.id)).json()).toEqual({ project });
    });
  });

  describe('GET /projects order', () => {
    const ids = (projects: ProjectBody[]) => projects.map((project) => project.id);

    function expectSorted(projects: ProjectBody[]) {
      const sorted = [...projects].sort(
        (a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
      );
      expect(ids(projects)).toEqual(ids(sorted));
    }

    it('is updatedAt descending, and an update moves a project to the front', async () => {
      const owner = await registerProAccount(app);
      const created: ProjectBody[] = [];
      for (const name of ['first', 'second', 'third']) {
        created.push(await api.created(owner, { name, templateId: 'mailer-box' }));
        await sleep(5);
      }
      const [first, second, third] = created as [ProjectBody, ProjectBody, ProjectBody];

      const before = (await api.list(owner)).json<{ projects: ProjectBody[]; total: number }>();
      expect(ids(before.projects)).toEqual([third.id, second.id, first.id]);
      expect(before.total).toBe(3);

      const touched = await api.update(owner, first.id, { name: 'first, edited' });
      expect(touched.statusCode).toBe(200);
      const after = (await api.list(owner)).json<{ projects: ProjectBody[]; total: number }>();
      expect(ids(after.projects)).toEqual([first.id, third.id, second.id]);
      expectSorted(after.projects);

      await sleep(5);
      await api.update(owner, second.id, {});
      const unchanged = (await api.list(owner)).json<{ projects: ProjectBody[] }>();
      expect(ids(unchanged.projects)).toEqual([first.id, third.id, second.id]);
    });

    it('breaks updatedAt ties by id descending', async () => {
      const owner = await registerProAccount(app);
      const created = await Promise.all(
        Array.from({ length: 4 }, (_, index) => api.created(owner, { name: `p${index}`, templateId: 'rsc-box' })),
      );
      const stamp = new Date('2026-01-01T00:00:00.000Z');
      await app.db.prisma.project.updateMany({ where: { userId: owner.id }, data: { updatedAt: stamp } });
      const listed = (await api.list(owner)).json<{ projects: ProjectBody[] }>().projects;
      expect(ids(listed)).toEqual(ids(created).sort().reverse());
      expect(listed.every((project) => project.updatedAt === stamp.toISOString())).toBe(true);
    });
  });
});
