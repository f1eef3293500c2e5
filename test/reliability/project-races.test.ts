// Project writes racing across several server processes on one database, over real HTTP: two PUTs
// with the same If-Match (exactly one wins), and duplicates at the free-plan cap. PostgreSQL run:
// two real server processes. Embedded run (one process per database by nature): two app instances
// on one shared database, each listening on its own port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase } from '../../src/db/database.js';
import { databaseUrl, engineName, testConfig, uniqueEmail } from '../helpers/app.js';
import { startServers, stopServers } from '../helpers/server-process.js';

const CHANGED = { statusCode: 412, error: 'Precondition Failed', message: 'The project was changed since you loaded it.' };
const CAP = { statusCode: 403, error: 'Forbidden', message: 'The free plan includes up to 3 projects. Upgrade to create more.' };

interface Answer {
  status: number;
  etag: string | null;
  body: Record<string, unknown>;
}

async function call(
  base: string,
  method: string,
  url: string,
  token: string | null,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function register(base: string): Promise<string> {
  const answer = await call(base, 'POST', '/auth/register', null, {
    email: uniqueEmail('race'),
    password: 'correct horse battery',
    name: 'Race',
  });
  expect(answer.status).toBe(201);
  return answer.body.token as string;
}

describe(`project writes racing across processes (${engineName()})`, () => {
  let bases: [string, string];
  let stop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const url = databaseUrl();
    if (url) {
      const servers = await startServers(2, { databaseUrl: url });
      stop = () => stopServers(servers);
      bases = [servers[0]!.baseUrl, servers[1]!.baseUrl];
      return;
    }
    const config = testConfig();
    const database = await openDatabase(config.database);
    const apps: App[] = [await buildApp(config, { database, logger: false }), await buildApp(config, { database, logger: false })];
    for (const app of apps) await app.listen({ port: 0, host: '127.0.0.1' });
    stop = async () => {
      await Promise.all(apps.map((app) => app.close()));
      await database.close();
    };
    const baseOf = (app: App) => {
      const address = app.server.address();
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    };
    bases = [baseOf(apps[0]!), baseOf(apps[1]!)];
  }, 90_000);
  afterAll(async () => {
    await stop();
  });

  it('gives exactly one 200 and one 412 to two PUTs with the same If-Match on the two processes', async () => {
    const token = await register(bases[0]);
    const created = await call(bases[0], 'POST', '/projects', token, { name: 'Shared', templateId: 'mailer-box' });
    expect(created.status).toBe(201);
    const id = (created.body.project as { id: string }).id;
    let etag = created.etag!;
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        bases.map((base, index) =>
          call(base, 'PUT', `/projects/${id}`, token, { name: `Round ${round} tab ${index}` }, { 'if-match': etag }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort(), `round ${round}`).toEqual([200, 412]);
      const winner = answers.find((answer) => answer.status === 200)!;
      expect(answers.find((answer) => answer.status === 412)!.body).toEqual(CHANGED);
      expect(winner.etag).toBe(`"${round + 2}"`);
      const stored = await call(bases[1], 'GET', `/projects/${id}`, token);
      expect(stored.body.project).toEqual(winner.body.project);
      etag = winner.etag!;
    }
    const versions = await call(bases[0], 'GET', `/projects/${id}/versions`, token);
    expect(versions.body.total).toBe(5);
  });

  it('holds the free-plan cap when ten duplicates are spread over both', async () => {
    const token = await register(bases[1]);
    const source = await call(bases[1], 'POST', '/projects', token, { name: 'Source', templateId: 'mailer-box' });
    const id = (source.body.project as { id: string }).id;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => call(bases[index % 2]!, 'POST', `/projects/${id}/duplicate`, token)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 403, 403, 403, 403, 403, 403, 403, 403]);
    for (const answer of answers.filter((candidate) => candidate.status === 403)) expect(answer.body).toEqual(CAP);
    for (const base of bases) expect((await call(base, 'GET', '/projects', token)).body.total).toBe(3);
  });
});
