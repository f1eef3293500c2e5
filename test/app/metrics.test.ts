// GET /metrics: Prometheus text only for the METRICS_TOKEN bearer, the same 404 as an unknown
// route otherwise; labels are route templates, never raw URLs or ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { bearerMatches } from '../../src/routes/metrics.js';
import { registerAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { imageFixture } from '../helpers/images.js';
import { uploadAsset } from '../assets/helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef';

describe(`GET /metrics (${engineName()})`, { timeout: 120_000 }, () => {
  let app: App;
  let closed: App;
  beforeAll(async () => {
    [app, closed] = await Promise.all([createTestApp({ METRICS_TOKEN: TOKEN, RATE_LIMIT_AUTH_PER_MIN: '2' }), createTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([app?.close(), closed?.close()]);
  });

  const scrape = (target: App, authorization?: string) =>
    target.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('is the 404 of an unknown route without the token, with a wrong one, and when none is configured', async () => {
    const unknown = { statusCode: 404, error: 'Not Found', message: 'Route GET /metrics not found.' };
    for (const [target, header] of [
      [app, undefined],
      [app, 'Bearer wrong-token-0123456789abcdef'],
      [app, `Basic ${TOKEN}`],
      [app, `Bearer ${TOKEN}x`],
      [closed, `Bearer ${TOKEN}`],
    ] as const) {
      const response = await scrape(target, header);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(unknown);
    }
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });

  it('counts requests by route template, rate-limit rejections, upload bytes; process metrics included', async () => {
    await app.inject({ method: 'GET', url: '/templates/mailer-box' });
    await app.inject({ method: 'GET', url: '/templates/no-such-template' });
    await app.inject({ method: 'GET', url: '/no/such/route/12345' });
    for (let i = 0; i < 3; i++) await app.inject({ method: 'POST', url: '/auth/login', payload: {}, remoteAddress: '203.0.113.50' });
    const account = await registerAccount(app);
    const png = imageFixture('tiny.png');
    await uploadAsset(app, account, png);

    const response = await scrape(app, `Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/templates/:id",status_code="200"} 1');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/templates/:id",status_code="404"} 1');
    // Cumulative buckets ending in +Inf, and a sum, as Prometheus reads a histogram.
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/templates/:id",status_code="200"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{le="30",method="GET",route="/templates/:id",status_code="200"} 1');
    expect(text).toMatch(/^http_request_duration_seconds_sum\{method="GET",route="\/templates\/:id",status_code="200"\} \d/m);
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"} 1');
    expect(text).toContain('rate_limit_rejections_total{route="/auth/login"} 1');
    expect(text).toContain(`upload_bytes_total ${png.length}`);
    expect(text).toMatch(/^bcrypt_queue_tasks\{state="running"\} \d+$/m);
    // Without REDIS_URL the rate limits are counted in the process: there is no store to report.
    expect(text).toContain('# TYPE rate_limit_store_connected gauge');
    expect(text).not.toContain('rate_limit_store_connected{');
    // The upload's analysis started one child, which is idle again; no print child was needed.
    for (const [state, count] of Object.entries({ busy: 0, idle: 1, starting: 0, waiting: 0 })) {
      expect(text).toContain(`render_children{pool="analysis",state="${state}"} ${count}`);
      expect(text).toContain(`render_children{pool="print",state="${state}"} 0`);
    }
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    // Bounded labels: no raw path, id or client value.
    expect(text).not.toContain('mailer-box');
    expect(text).not.toContain('12345');
    expect(text).not.toContain('203.0.113.50');
    if (engineName() === 'postgres') expect(text).toMatch(/^db_pool_connections\{state="total"\} \d+$/m);
  });

  it('is documented in OpenAPI with its own bearer scheme', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.paths['/metrics'].get.security).toEqual([{ metricsToken: [] }]);
    expect(document.components.securitySchemes.metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
