// Two servers on one database, for guarantees that must hold on every process: on PostgreSQL two
// real server processes; on the embedded engine (one process per database by nature) two app
// instances on one shared database.
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase } from '../../src/db/database.js';
import { databaseUrl, embeddedTestDatabase, testConfig } from './app.js';
import { startServers, stopServers, type ServerProcess } from './server-process.js';

export interface Reply {
  status: number;
  body: unknown;
}

export interface Surface {
  send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers?: Record<string, string>, body?: unknown): Promise<Reply>;
}

export function httpSurface(server: ServerProcess): Surface {
  return {
    async send(method, path, headers = {}, body) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : JSON.parse(text) };
    },
  };
}

export function injectSurface(app: App): Surface {
  return {
    async send(method, path, headers = {}, body) {
      const response = await app.inject({ method, url: path, headers, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: response.statusCode, body: response.body === '' ? null : response.json() };
    },
  };
}

export const twoServersSetup = () =>
  databaseUrl() ? 'two server processes on one PostgreSQL database' : 'two app instances on one embedded database';

/** Starts the two servers; `stop` shuts both down and closes what they share. */
export async function startTwoServers(): Promise<{ a: Surface; b: Surface; stop: () => Promise<void> }> {
  const url = databaseUrl();
  if (url) {
    const servers = await startServers(2, { databaseUrl: url });
    const [a, b] = servers.map(httpSurface) as [Surface, Surface];
    return { a, b, stop: () => stopServers(servers) };
  }
  const database = await openDatabase(embeddedTestDatabase());
  const apps = [await buildApp(testConfig(), { database, logger: false }), await buildApp(testConfig(), { database, logger: false })];
  const [a, b] = apps.map(injectSurface) as [Surface, Surface];
  return {
    a,
    b,
    stop: async () => {
      await Promise.all(apps.map((app) => app.close()));
      await database.close();
    },
  };
}

/**
 * For a describe block: starts the two servers before its tests and stops them after. The
 * surfaces returned can be used once the block's tests run.
 */
export function withTwoServers(): { a: Surface; b: Surface } {
  let started: Awaited<ReturnType<typeof startTwoServers>> | undefined;
  const surface = (pick: 'a' | 'b'): Surface => ({
    send(...args) {
      if (!started) throw new Error('The two servers have not started.');
      return started[pick].send(...args);
    },
  });
  beforeAll(async () => {
    started = await startTwoServers();
  }, 90_000);
  afterAll(async () => {
    await started?.stop();
  });
  return { a: surface('a'), b: surface('b') };
}
