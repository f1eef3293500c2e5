// ETags on { project } answers, If-None-Match on GET, If-Match on PUT, DELETE and restore
// (RFC 9110 semantics: "*", lists, weak tags never match, malformed → 400).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { engineName } from '../helpers/app.js';
import { expectApiError, NOT_FOUND, projectsApi, startProjectsSuite, sleep, type ProjectBody } from './fixtures.js';

const CHANGED = 'The project was changed since you loaded it.';
const MALFORMED = 'If-Match must be "*" or a comma-separated list of quoted entity tags, e.g. "3".';

describe(`project ETags and preconditions (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;
  let account: TestAccount;

  beforeAll(async () => {
    ({ app, api, account } = await startProjectsSuite());
  });
  afterAll(() => app?.close());

  const send = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, headers: Record<string, string> = {}, payload?: object) =>
    app.inject({ method, url, headers: { ...account.auth, ...headers }, ...(payload ? { payload } : {}) });

  async function fresh(): Promise<{ project: ProjectBody; etag: string }> {
    const response = await api.create(account, { name: 'Tagged', templateId: 'mailer-box' });
    expect(response.statusCode).toBe(201);
    return { project: response.json<{ project: ProjectBody }>().project, etag: String(response.headers.etag) };
  }

  const stored = async (id: string) => {
    const response = await api.get(account, id);
    return { project: response.json<{ project: ProjectBody }>().project, etag: String(response.headers.etag) };
  };
  const versionCount = async (id: string) =>
    (await send('GET', `/projects/${id}/versions`)).json<{ total: number }>().total;

  describe('ETag', () => {
    it('is "1" on create, the same on GET, and strong', async () => {
      const { project, etag } = await fresh();
      expect(etag).toBe('"1"');
      const read = await api.get(account, project.id);
      expect(read.headers.etag).toBe('"1"');
      expect(read.headers['cache-control']).toBe('private, no-cache');
    });

    it('moves by one with each change, on PUT and in the following GET', async () => {
      const { project } = await fresh();
      const first = await api.update(account, project.id, { name: 'Changed once' });
      expect(first.headers.etag).toBe('"2"');
      const second = await api.update(account, project.id, { widthMm: 222 });
      expect(second.headers.etag).toBe('"3"');
      expect((await stored(project.id)).etag).toBe('"3"');
    });

    it('does not move on a no-op PUT, and neither does updatedAt nor the history', async () => {
      const { project } = await fresh();
      await sleep(5);
      for (const body of [{}, { name: project.name }, { widthMm: project.widthMm, artworkJson: project.artworkJson }]) {
        const response = await api.update(account, project.id, body);
        expect(response.statusCode).toBe(200);
        expect(response.headers.etag).toBe('"1"');
        expect(response.json<{ project: ProjectBody }>().project.updatedAt).toBe(project.updatedAt);
      }
      expect(await versionCount(project.id)).toBe(0);
    });

    it('is not part of the project body', async () => {
      const { project } = await fresh();
      expect(Object.keys(project)).not.toContain('version');
    });
  });

  describe('If-None-Match on GET /projects/:id', () => {
    it('answers 304 with the ETag and no body while current, 200 once changed', async () => {
      const { project, etag } = await fresh();
      const cached = await send('GET', `/projects/${project.id}`, { 'if-none-match': etag });
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe('');
      expect(cached.headers.etag).toBe(etag);
      await api.update(account, project.id, { name: 'Moved on' });
      const changed = await send('GET', `/projects/${project.id}`, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).toBe('"2"');
    });

    it('matches in a list, weakly (W/), and *', async () => {
      const { project } = await fresh();
      for (const value of ['"7", "1"', 'W/"1"', '*']) {
        expect((await send('GET', `/projects/${project.id}`, { 'if-none-match': value })).statusCode, value).toBe(304);
      }
      expect((await send('GET', `/projects/${project.id}`, { 'if-none-match': '"2"' })).statusCode).toBe(200);
    });

    it("is 404 for another account's project whatever the header", async () => {
      const { project } = await fresh();
      const other = await registerAccount(app);
      const response = await app.inject({
        method: 'GET',
        url: `/projects/${project.id}`,
        headers: { ...other.auth, 'if-none-match': '*' },
      });
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('If-Match on PUT', () => {
    it('writes when it names the current ETag', async () => {
      const { project, etag } = await fresh();
      const response = await send('PUT', `/projects/${project.id}`, { 'if-match': etag }, { name: 'Matched' });
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toBe('"2"');
      expect(response.json<{ project: ProjectBody }>().project.name).toBe('Matched');
    });

    it('answers 412 with the fixed message to a stale ETag and changes nothing', async () => {
      const { project, etag } = await fresh();
      await api.update(account, project.id, { name: 'Other tab' });
      const before = await stored(project.id);
      const response = await send('PUT', `/projects/${project.id}`, { 'if-match': etag }, { name: 'Stale tab' });
      expectApiError(response, 412, CHANGED);
      expect(response.json()).toEqual({ statusCode: 412, error: 'Precondition Failed', message: CHANGED });
      expect(await stored(project.id)).toEqual(before);
      expect(await versionCount(project.id)).toBe(1);
    });

    it('answers 412 to a stale ETag even when the body would change nothing', async () => {
      const { project } = await fresh();
      await api.update(account, project.id, { name: 'Other tab' });
      expectApiError(await send('PUT', `/projects/${project.id}`, { 'if-match': '"1"' }, {}), 412, CHANGED);
    });

    it('accepts a list naming the current ETag, with empty elements and a comma inside a tag', async () => {
      const { project } = await fresh();
      for (const [value, next] of [['"9", "1"', '"2"'], [' , "a,b" ,"2",', '"3"'], ['"3"', '"4"']] as const) {
        const response = await send('PUT', `/projects/${project.id}`, { 'if-match': value }, { name: `List ${next}` });
        expect(response.statusCode, value).toBe(200);
        expect(response.headers.etag).toBe(next);
      }
      expectApiError(await send('PUT', `/projects/${project.id}`, { 'if-match': '"1", "2", "3"' }, { name: 'x' }), 412, CHANGED);
    });

    it('accepts * for any current project', async () => {
      const { project } = await fresh();
      await api.update(account, project.id, { name: 'Moved' });
      const response = await send('PUT', `/projects/${project.id}`, { 'if-match': '*' }, { name: 'Star' });
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toBe('"3"');
    });

    it('never matches a weak tag (strong comparison)', async () => {
      const { project } = await fresh();
      expectApiError(await send('PUT', `/projects/${project.id}`, { 'if-match': 'W/"1"' }, { name: 'Weak' }), 412, CHANGED);
      expect((await stored(project.id)).project.name).toBe('Tagged');
    });

    it.each([
      ['an unquoted tag', '1'],
      ['an unterminated tag', '"1'],
      ['a lower-case weak prefix', 'w/"1"'],
      ['two tags without a comma', '"1" "2"'],
      ['* in a list', '*, "1"'],
      ['an empty value', ''],
      ['only commas', ' , ,'],
      ['text after a tag', '"1"x'],
    ])('answers 400 to %s and changes nothing', async (_label, value) => {
      const { project } = await fresh();
      const response = await send('PUT', `/projects/${project.id}`, { 'if-match': value }, { name: 'Malformed' });
      expectApiError(response, 400, MALFORMED);
      expect((await stored(project.id)).etag).toBe('"1"');
    });

    it('without If-Match, the last write wins', async () => {
      const { project } = await fresh();
      await api.update(account, project.id, { name: 'Tab A' });
      const response = await api.update(account, project.id, { name: 'Tab B' });
      expect(response.statusCode).toBe(200);
      expect((await stored(project.id)).project.name).toBe('Tab B');
    });

    it("answers 404, not 412, for another account's project", async () => {
      const { project } = await fresh();
      const other = await registerAccount(app);
      const response = await app.inject({
        method: 'PUT',
        url: `/projects/${project.id}`,
        headers: { ...other.auth, 'if-match': '"99"' },
        payload: { name: 'Intruder' },
      });
      expect(response.json()).toEqual(NOT_FOUND);
    });

    it('gives exactly one 200 to concurrent PUTs carrying the same If-Match', async () => {
      const { project, etag } = await fresh();
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, index) => send('PUT', `/projects/${project.id}`, { 'if-match': etag }, { name: `Racer ${index}` })),
      );
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 412, 412, 412, 412, 412]);
      const winner = responses.find((response) => response.statusCode === 200)!;
      expect((await stored(project.id)).project.name).toBe(winner.json<{ project: ProjectBody }>().project.name);
      expect(await versionCount(project.id)).toBe(1);
    });
  });

  describe('If-Match on DELETE', () => {
    it('deletes when it matches, 412 and nothing deleted when stale', async () => {
      const { project } = await fresh();
      await api.update(account, project.id, { name: 'Moved' });
      expectApiError(await send('DELETE', `/projects/${project.id}`, { 'if-match': '"1"' }), 412, CHANGED);
      expect((await api.get(account, project.id)).statusCode).toBe(200);
      expect((await send('DELETE', `/projects/${project.id}`, { 'if-match': '"2"' })).statusCode).toBe(204);
      expect((await api.get(account, project.id)).json()).toEqual(NOT_FOUND);
    });

    it('answers 400 to a malformed value, 404 to a missing project, and honours *', async () => {
      const { project } = await fresh();
      expectApiError(await send('DELETE', `/projects/${project.id}`, { 'if-match': 'nope' }), 400, MALFORMED);
      expect((await api.get(account, project.id)).statusCode).toBe(200);
      expect((await send('DELETE', `/projects/${project.id}`, { 'if-match': '*' })).statusCode).toBe(204);
      expect((await send('DELETE', `/projects/${project.id}`, { 'if-match': '*' })).json()).toEqual(NOT_FOUND);
    });
  });
});
