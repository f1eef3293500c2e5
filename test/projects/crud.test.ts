import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { expectApiError, ISO, NOT_FOUND, projectsApi, type ProjectBody } from './fixtures.js';

describe(`/projects basics (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;
  let owner: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    app = await createTestApp();
    api = projectsApi(app);
    owner = await registerAccount(app);
    other = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('authentication', () => {
    const routes = [
      ['GET', '/projects'],
      ['POST', '/projects'],
      ['GET', '/projects/abc123'],
      ['PUT', '/projects/abc123'],
      ['DELETE', '/projects/abc123'],
    ] as const;

    it.each(routes)('%s %s without a token is 401', async (method, url) => {
      const response = await app.inject({ method, url, payload: method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined });
      expectApiError(response, 401);
    });

    it.each(routes)('%s %s with a bad token is 401', async (method, url) => {
      const response = await app.inject({ method, url, headers: { authorization: 'Bearer a.b.c' } });
      expectApiError(response, 401);
    });

    it('HEAD /projects without a token is 401 too', async () => {
      const response = await app.inject({ method: 'HEAD', url: '/projects' });
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe('');
    });

    it('checks the token before the body: an invalid body without a token is 401, not 400', async () => {
      const response = await app.inject({ method: 'POST', url: '/projects', payload: { bogus: true } });
      expectApiError(response, 401);
    });

    it('a developer key does not open /projects', async () => {
      const response = await app.inject({ method: 'GET', url: '/projects', headers: { 'x-api-key': `pf_${'0'.repeat(48)}` } });
      expectApiError(response, 401);
    });
  });

  describe('POST /projects', () => {
    it('creates a project owned by the caller: 201 { project } with every field', async () => {
      const before = Date.now();
      const response = await api.create(owner, { name: 'Spring mailer', templateId: 'mailer-box' });
      expect(response.statusCode).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = response.json<{ project: ProjectBody }>();
      expect(Object.keys(body)).toEqual(['project']);
      const project = body.project;
      expect(Object.keys(project)).toEqual([
        'id',
        'userId',
        'name',
        'templateId',
        'widthMm',
        'heightMm',
        'depthMm',
        'artworkJson',
        'createdAt',
        'updatedAt',
      ]);
      expect(project.id).toMatch(/^[a-z0-9]{24}$/);
      expect(project.userId).toBe(owner.id);
      expect(project.name).toBe('Spring mailer');
      expect(project.templateId).toBe('mailer-box');
      expect(project.createdAt).toMatch(ISO);
      expect(project.updatedAt).toBe(project.createdAt);
      expect(Date.parse(project.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
      expect(Date.parse(project.createdAt)).toBeLessThanOrEqual(Date.now() + 5_000);
    });

    it('ignores no field silently: id, userId, createdAt and updatedAt cannot be assigned', async () => {
      for (const field of ['id', 'userId', 'createdAt', 'updatedAt']) {
        const response = await api.create(other, { name: 'x', templateId: 'mailer-box', [field]: 'abc' });
        expectApiError(response, 400, `body has an unknown field '${field}'.`);
      }
      const list = await api.list(other);
      expect(list.json()).toEqual({ projects: [], total: 0 });
    });

    it('rejects a query string', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/projects?x=1',
        headers: owner.auth,
        payload: { name: 'x', templateId: 'mailer-box' },
      });
      expectApiError(response, 400);
    });
  });

  describe('GET /projects/:id', () => {
    it('returns the project exactly as created', async () => {
      const created = await api.created(owner, { name: 'Readable', templateId: 'rsc-box' });
      const response = await api.get(owner, created.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ project: created });
    });

    it.each([
      ['an unknown cuid', 'zzzzzzzzzzzzzzzzzzzzzzzz'],
      ['an id with punctuation', 'not-a-cuid!'],
      ['an upper-case id', 'ABCDEF'],
      ['a NUL byte', '%00'],
      ['an id of 100 characters', 'a'.repeat(100)],
      ['a quote', "x'%20OR%201=1"],
    ])('answers %s with 404 "Project not found."', async (_label, id) => {
      const response = await api.get(owner, id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('GET /projects', () => {
    it('lists only the caller\'s projects with total', async () => {
      const mine = await registerAccount(app);
      const theirs = await registerAccount(app);
      const a = await api.created(mine, { name: 'Mine A', templateId: 'mailer-box' });
      const b = await api.created(mine, { name: 'Mine B', templateId: 'rsc-box' });
      await api.created(theirs, { name: 'Theirs', templateId: 'mailer-box' });

      const response = await api.list(mine);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ projects: ProjectBody[]; total: number }>();
      expect(Object.keys(body)).toEqual(['projects', 'total']);
      expect(body.total).toBe(2);
      expect(body.projects.map((project) => project.id).sort()).toEqual([a.id, b.id].sort());
      expect(body.projects.every((project) => project.userId === mine.id)).toBe(true);
      expect(body.projects.find((project) => project.id === a.id)).toEqual(a);
    });

    it('an account without projects gets an empty list', async () => {
      const fresh = await registerAccount(app);
      const response = await api.list(fresh);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ projects: [], total: 0 });
    });

    it('rejects unknown query parameters', async () => {
      const response = await app.inject({ method: 'GET', url: '/projects?page=2', headers: owner.auth });
      expectApiError(response, 400, "querystring has an unknown field 'page'.");
    });
  });

  describe("another account's project is indistinguishable from a missing one", () => {
    let victim: TestAccount;
    let project: ProjectBody;

    beforeAll(async () => {
      victim = await registerAccount(app);
      project = await api.created(victim, { name: 'Secret', templateId: 'mailer-box', widthMm: 111 });
    });

    it('GET is 404 with the same body as an unknown id', async () => {
      const foreign = await api.get(other, project.id);
      const unknown = await api.get(other, 'zzzzzzzzzzzzzzzzzzzzzzzz');
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(NOT_FOUND);
      expect(foreign.body).toBe(unknown.body);
    });

    it('PUT is 404 and changes nothing', async () => {
      const response = await api.update(other, project.id, { name: 'Stolen', widthMm: 999 });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
      expect((await api.get(victim, project.id)).json()).toEqual({ project });
    });

    it('DELETE is 404 and deletes nothing', async () => {
      const response = await api.remove(other, project.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
      expect((await api.get(victim, project.id)).json()).toEqual({ project });
      expect((await api.list(victim)).json<{ total: number }>().total).toBe(1);
    });

    it("the intruder's list does not show it", async () => {
      const list = await api.list(other);
      expect(list.json<{ projects: ProjectBody[] }>().projects.map((p) => p.id)).not.toContain(project.id);
    });
  });

  describe('DELETE /projects/:id', () => {
    it('answers 204 with an empty body, then the project is gone', async () => {
      const account = await registerAccount(app);
      const project = await api.created(account, { name: 'Short-lived', templateId: 'mailer-box' });

      const response = await api.remove(account, project.id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers['content-type']).toBeUndefined();
      expect(response.headers['content-length']).toBeUndefined();

      expect((await api.get(account, project.id)).json()).toEqual(NOT_FOUND);
      expect((await api.update(account, project.id, { name: 'again' })).json()).toEqual(NOT_FOUND);
      const again = await api.remove(account, project.id);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(NOT_FOUND);
      expect((await api.list(account)).json()).toEqual({ projects: [], total: 0 });
    });

    it('a malformed id is 404, not 400', async () => {
      const response = await api.remove(owner, 'bad%20id');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });
});
