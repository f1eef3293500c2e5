// Rate-limit budgets shared through real Redis: several app instances spend one budget; two
// namespaces never mix; a Redis that dies or freezes never holds a request (fail open, counted),
// and the limits resume when it is back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { SHARED_REDIS_URL, startPrivateRedis, uniqueNamespace, type PrivateRedis } from '../helpers/redis.js';

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const metricValue = async (app: App, name: string) => {
  const metric = await app.metrics.registry.getSingleMetric(name)?.get();
  return metric?.values.reduce((sum, value) => sum + value.value, 0) ?? 0;
};

/** rate_limit_store_connected: 1 while the store is connected, 0 while checks fail open. */
const storeConnected = (app: App) => metricValue(app, 'rate_limit_store_connected');

async function waitForStore(app: App, connected: 0 | 1): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await storeConnected(app)) !== connected) {
    if (Date.now() > deadline) throw new Error(`rate_limit_store_connected did not become ${connected}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The longest command timeout where counting is tested: the embedded engine runs in the test's
 * own process and can hold its event loop for seconds on a loaded machine, and a reply that comes
 * after the timeout fails open. Counting is tested from the moment the store is connected: an app
 * whose connection took longer than its start-up wait serves (uncounted) until it is.
 */
async function instance(env: Record<string, string>): Promise<App> {
  const app = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '5', REDIS_TIMEOUT_MS: '5000', ...env });
  apps.push(app);
  await waitForStore(app, 1);
  return app;
}

/** A login that fails validation: cheap, and still spends the caller's budget (onRequest). */
const login = (app: App, remoteAddress = '203.0.113.7') =>
  app.inject({ method: 'POST', url: '/auth/login', payload: {}, remoteAddress });

async function timedLogin(app: App): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await login(app);
  return { status: response.statusCode, ms: performance.now() - started };
}

describe(`shared rate limits on Redis (${engineName()})`, { timeout: 120_000 }, () => {
  it('two instances spend one budget: limit 5, the sixth request through either is 429', async () => {
    const namespace = uniqueNamespace();
    const [a, b] = await Promise.all([
      instance({ REDIS_URL: SHARED_REDIS_URL, RATE_LIMIT_NAMESPACE: namespace }),
      instance({ REDIS_URL: SHARED_REDIS_URL, RATE_LIMIT_NAMESPACE: namespace }),
    ]);
    // A connection attempt that timed out while the apps started counts as a store error too;
    // what is asserted is that none of the counted checks below failed.
    const errorsBefore = await Promise.all([a, b].map((app) => metricValue(app, 'rate_limit_store_errors_total')));
    const statuses = [];
    for (const app of [a, b, a, b, a]) statuses.push((await login(app)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    const sixthA = await login(a);
    const sixthB = await login(b);
    expect(sixthA.statusCode).toBe(429);
    expect(sixthB.statusCode).toBe(429);
    expect(sixthB.json().message).toMatch(/^Rate limit exceeded: at most 5 requests per minute\./);
    expect(Number(sixthB.headers['retry-after'])).toBeGreaterThan(0);
    // Another client address has its own budget.
    expect((await login(b, '203.0.113.8')).statusCode).toBe(400);
    expect(await metricValue(a, 'rate_limit_rejections_total')).toBe(1);
    const errorsAfter = await Promise.all([a, b].map((app) => metricValue(app, 'rate_limit_store_errors_total')));
    expect(errorsAfter).toEqual(errorsBefore);
  });

  it('keys are namespaced: two deployments on one Redis do not share budgets', async () => {
    const [a, b] = await Promise.all([
      instance({ REDIS_URL: SHARED_REDIS_URL, RATE_LIMIT_NAMESPACE: uniqueNamespace() }),
      instance({ REDIS_URL: SHARED_REDIS_URL, RATE_LIMIT_NAMESPACE: uniqueNamespace() }),
    ]);
    for (let i = 0; i < 5; i++) expect((await login(a)).statusCode).toBe(400);
    expect((await login(a)).statusCode).toBe(429);
    expect((await login(b)).statusCode).toBe(400);
  });

  describe('a Redis of its own, stopped and started', () => {
    let redis: PrivateRedis;
    beforeAll(async () => {
      redis = await startPrivateRedis();
    });
    afterAll(async () => {
      redis.thaw();
      await redis.kill();
    });

    it('down: no request waits (fail open), failures are counted; back: limits resume', async () => {
      const app = await instance({ REDIS_URL: redis.url, RATE_LIMIT_NAMESPACE: uniqueNamespace(), REDIS_TIMEOUT_MS: '80' });
      for (let i = 0; i < 5; i++) expect((await login(app)).statusCode).toBe(400);
      expect((await login(app)).statusCode).toBe(429);

      await redis.kill();
      const whileDown = [];
      for (let i = 0; i < 10; i++) whileDown.push(await timedLogin(app));
      expect(whileDown.map((r) => r.status)).toEqual(Array(10).fill(400));
      // The command timeout is 80 ms and a dead connection fails at once; the bound leaves room
      // for a loaded test machine, far below ioredis's default 30-40 s hang.
      expect(Math.max(...whileDown.map((r) => r.ms))).toBeLessThan(1_000);
      expect(await metricValue(app, 'rate_limit_store_errors_total')).toBeGreaterThanOrEqual(10);
      await waitForStore(app, 0);

      await redis.start();
      // Reconnects by itself (at most 2 s between attempts); the budget is fresh (no persistence).
      const deadline = Date.now() + 10_000;
      while (app.config.redis && (await login(app)).statusCode !== 429) {
        if (Date.now() > deadline) throw new Error('limits did not resume after Redis came back');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await login(app)).statusCode).toBe(429);
      expect(await storeConnected(app)).toBe(1);
    });

    it('frozen (connected, silent): each request waits at most the command timeout', async () => {
      const app = await instance({ REDIS_URL: redis.url, RATE_LIMIT_NAMESPACE: uniqueNamespace(), REDIS_TIMEOUT_MS: '80' });
      expect((await login(app)).statusCode).toBe(400);
      redis.freeze();
      try {
        const whileFrozen = [];
        for (let i = 0; i < 5; i++) whileFrozen.push(await timedLogin(app));
        expect(whileFrozen.map((r) => r.status)).toEqual(Array(5).fill(400));
        expect(Math.max(...whileFrozen.map((r) => r.ms))).toBeLessThan(1_000);
        expect(await metricValue(app, 'rate_limit_store_errors_total')).toBeGreaterThanOrEqual(5);
      } finally {
        redis.thaw();
      }
    });
  });
});
