import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/database.js';
import { createTestApp, engineName, testConfig } from '../helpers/app.js';

describe(`health (${engineName()})`, () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('answers liveness and readiness', async () => {
    const app = await createTestApp();
    closers.push(() => app.close());
    const live = await app.inject({ method: 'GET', url: '/health' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    expect((await app.inject({ method: 'GET', url: '/health?x=1' })).statusCode).toBe(400);
  });

  it('stays live but not ready when the database is gone', async () => {
    const config = testConfig();
    const database = await openDatabase(config.database);
    const app = await buildApp(config, { database, logger: false });
    closers.push(() => app.close());
    await app.ready();
    await database.close();
    const live = await app.inject({ method: 'GET', url: '/health' });
    expect(live.statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'Database is unavailable.' });
    expect(ready.headers['retry-after']).toBe('5');
  });
});
