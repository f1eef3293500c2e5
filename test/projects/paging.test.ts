// Paging when asked on the account lists, under /v1 and for the editor: pages in order with
// nextCursor, total counting everything, the old answer without limit, and a cursor that is
// malformed, from another list or from another account refused with 400 "Invalid cursor.".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, ownDatabase } from '../helpers/app.js';
import { expectApiError } from '../assets/helpers.js';
import { issueKey } from '../api-keys/keys.js';

let app: App;
let own: Awaited<ReturnType<typeof ownDatabase>>;

beforeAll(async () => {
  own = await ownDatabase('pf_paging');
  app = await createTestApp(own.env);
});

afterAll(async () => {
  await app?.close();
  await own?.drop();
});

interface Page {
  projects?: Array<{ id: string }>;
  apiKeys?: Array<{ id: string }>;
  total?: number;
  nextCursor?: string | null;
}

async function get(url: string, headers: Record<string, string>): Promise<Page> {
  const response = await app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>();
}

async function walk(url: string, field: 'projects' | 'apiKeys', headers: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null | undefined;
  do {
    const page = await get(`${url}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers);
    expect(page[field]!.length).toBeLessThanOrEqual(2);
    ids.push(...page[field]!.map((item) => item.id));
    cursor = page.nextCursor;
    expect(cursor === null || typeof cursor === 'string').toBe(true);
  } while (cursor);
  return ids;
}

describe(`paging the account lists (${engineName()})`, () => {
  let owner: TestAccount;
  let headers: Record<string, string>;

  it('pages projects under /v1 and for the editor; without limit the answer is as before', async () => {
    owner = await registerAccount(app);
    headers = { 'x-api-key': (await issueKey(app, owner)).key };
    for (const name of ['One', 'Two', 'Three']) {
      const created = await app.inject({ method: 'POST', url: '/v1/projects', headers, payload: { name, templateId: 'mailer-box' } });
      expect(created.statusCode, created.body).toBe(201);
    }
    const whole = await get('/v1/projects', headers);
    expect(whole.total).toBe(3);
    expect(whole).not.toHaveProperty('nextCursor');
    const all = whole.projects!.map((project) => project.id);
    expect(await walk('/v1/projects', 'projects', headers)).toEqual(all);
    expect(await walk('/projects', 'projects', owner.auth)).toEqual(all);
    const first = await get('/v1/projects?limit=2', headers);
    expect(first.total).toBe(3);
    expect(first.projects).toHaveLength(2);
    const last = await get(`/v1/projects?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`, headers);
    expect(last.projects).toHaveLength(1);
    expect(last.nextCursor).toBeNull();
  });

  it('pages the developer keys with total counting all', async () => {
    await issueKey(app, owner);
    await issueKey(app, owner);
    const whole = await get('/api-keys', owner.auth);
    expect(whole.total).toBe(3);
    expect(await walk('/api-keys', 'apiKeys', owner.auth)).toEqual(whole.apiKeys!.map((key) => key.id));
  });

  it('refuses a malformed cursor, another list’s and another account’s with 400 "Invalid cursor."; limit 0 and 101 are 400', async () => {
    const projectsCursor = (await get('/v1/projects?limit=1', headers)).nextCursor!;
    const stranger = await registerAccount(app);
    const strangerHeaders = { 'x-api-key': (await issueKey(app, stranger)).key };
    for (const [url, as] of [
      ['/v1/projects?limit=1&cursor=not-a-cursor', headers],
      [`/v1/assets?limit=1&cursor=${encodeURIComponent(projectsCursor)}`, headers],
      [`/v1/exports?limit=1&cursor=${encodeURIComponent(projectsCursor)}`, headers],
      [`/v1/webhooks?limit=1&cursor=${encodeURIComponent(projectsCursor)}`, headers],
      [`/v1/projects?limit=1&cursor=${encodeURIComponent(projectsCursor)}`, strangerHeaders],
    ] as const) {
      expectApiError(await app.inject({ method: 'GET', url, headers: as }), 400, 'Invalid cursor.');
    }
    for (const limit of ['0', '101']) {
      for (const url of ['/v1/projects', '/v1/assets', '/v1/exports', '/v1/webhooks', '/projects', '/api-keys']) {
        const response = await app.inject({
          method: 'GET',
          url: `${url}?limit=${limit}`,
          headers: url.startsWith('/v1') ? headers : owner.auth,
        });
        expect(response.statusCode, `${url}?limit=${limit}`).toBe(400);
      }
    }
  });
});
