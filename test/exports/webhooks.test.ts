// Webhooks through the real stack and a real receiver on this machine: Standard Webhooks
// signatures checked with the reference library, retries after failures and timeouts (one
// webhook-id, fresh timestamps), the delivery log, the URL rules and the per-account cap.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, ownDatabase } from '../helpers/app.js';
import { expectApiError } from '../assets/helpers.js';
import { createProject } from '../print/harness.js';
import { MAILER, sleep, type ExportBody } from './helpers.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let app: App;
let owner: TestAccount;
let receiver: Server;
let base: string;
let own: Awaited<ReturnType<typeof ownDatabase>>;
const received: Received[] = [];
let failuresLeft = 2;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (request.url === '/hang') return; // never answers: the sender's timeout ends it
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        response.writeHead(500).end('not yet');
      } else {
        response.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  own = await ownDatabase('pf_webhooks');
  app = await createTestApp({
    ...own.env,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '1100,1100,1100,1100',
    WEBHOOK_TIMEOUT_MS: '300',
    WEBHOOK_POLL_MS: '50',
    METRICS_TOKEN: 'metrics-token-for-tests',
  });
  owner = await registerAccount(app);
});

afterAll(async () => {
  await app?.close();
  await own?.drop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

function createWebhook(account: TestAccount, payload: object, on = app) {
  return on.inject({ method: 'POST', url: '/webhooks', headers: account.auth, payload });
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}

describe('webhooks', () => {
  it('delivers a signed event, retried after two failures with one webhook-id and fresh signatures', async () => {
    const created = await createWebhook(owner, { url: `${base}/hook`, events: ['export.succeeded'] });
    expect(created.statusCode, created.body).toBe(201);
    const webhook = created.json<{ webhook: { id: string; url: string; events: string[]; secret: string; createdAt: string } }>().webhook;
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(webhook.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const hanging = (await createWebhook(owner, { url: `${base}/hang`, events: ['export.succeeded', 'export.failed'] })).json<{
      webhook: { id: string };
    }>().webhook;

    const listed = await app.inject({ method: 'GET', url: '/webhooks', headers: owner.auth });
    expect(listed.json<{ webhooks: object[] }>().webhooks).toEqual([
      { id: hanging.id, url: `${base}/hang`, events: ['export.succeeded', 'export.failed'], createdAt: expect.any(String) },
      { id: webhook.id, url: `${base}/hook`, events: ['export.succeeded'], createdAt: webhook.createdAt },
    ]);

    const projectId = await createProject(app, owner, 'mailer-box', {}, MAILER);
    const exported = await app.inject({
      method: 'POST',
      url: `/projects/${projectId}/exports`,
      headers: owner.auth,
      payload: { format: 'dieline-svg' },
    });
    const exportId = exported.json<{ export: ExportBody }>().export.id;

    const hook = await until(() => {
      const hits = received.filter((item) => item.path === '/hook');
      return hits.length >= 3 ? hits : undefined;
    });
    const verifier = new Webhook(webhook.secret);
    const ids = new Set(hook.map((item) => item.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^msg_/);
    const timestamps = hook.map((item) => Number(item.headers['webhook-timestamp']));
    expect(new Set(timestamps).size).toBe(3);
    expect(new Set(hook.map((item) => item.headers['webhook-signature'])).size).toBe(3);
    for (const item of hook) {
      const payload = verifier.verify(item.body, {
        'webhook-id': String(item.headers['webhook-id']),
        'webhook-timestamp': String(item.headers['webhook-timestamp']),
        'webhook-signature': String(item.headers['webhook-signature']),
      }) as { type: string; timestamp: string; data: { export: ExportBody } };
      expect(payload.type).toBe('export.succeeded');
      expect(payload.data.export).toMatchObject({ id: exportId, status: 'succeeded', format: 'dieline-svg' });
      expect(payload.data.export.downloadUrl).toContain(`/exports/${exportId}/download?`);
    }
    // A tampered body does not verify.
    expect(() =>
      verifier.verify(hook[0]!.body.replace('succeeded', 'failed'), {
        'webhook-id': String(hook[0]!.headers['webhook-id']),
        'webhook-timestamp': String(hook[0]!.headers['webhook-timestamp']),
        'webhook-signature': String(hook[0]!.headers['webhook-signature']),
      }),
    ).toThrow();

    const deliveries = await until(async () => {
      const response = await app.inject({ method: 'GET', url: `/webhooks/${webhook.id}/deliveries`, headers: owner.auth });
      const rows = response.json<{ deliveries: Array<Record<string, unknown>> }>().deliveries;
      return rows.length === 3 ? rows : undefined;
    });
    expect(deliveries.map((row) => [row.attempt, row.status, row.responseStatus, row.event, row.exportId])).toEqual([
      [3, 'succeeded', 204, 'export.succeeded', exportId],
      [2, 'failed', 500, 'export.succeeded', exportId],
      [1, 'failed', 500, 'export.succeeded', exportId],
    ]);

    // The receiver that never answers: the attempt ends at the timeout, with no status.
    const timedOut = await until(async () => {
      const response = await app.inject({ method: 'GET', url: `/webhooks/${hanging.id}/deliveries`, headers: owner.auth });
      return response.json<{ deliveries: Array<Record<string, unknown>> }>().deliveries[0];
    });
    expect(timedOut).toMatchObject({ status: 'failed', responseStatus: null });

    // /metrics counts the render by format and outcome, the deliveries by outcome, and the queue depth.
    const metricsHeaders = { authorization: 'Bearer metrics-token-for-tests' };
    const metrics = (await app.inject({ method: 'GET', url: '/metrics', headers: metricsHeaders })).body;
    expect(metrics).toMatch(/^export_job_duration_seconds_count\{format="dieline-svg",outcome="succeeded"\} 1$/m);
    expect(metrics).toMatch(/^webhook_deliveries_total\{outcome="failed"\} 2$/m);
    expect(metrics).toMatch(/^webhook_deliveries_total\{outcome="succeeded"\} 1$/m);
    expect(metrics).toMatch(/^webhook_deliveries_total\{outcome="timeout"\} [1-9]/m);
    expect(metrics).toMatch(/^export_queue_depth 0$/m);

    // Removed: no more deliveries, and it is gone for its owner.
    expect((await app.inject({ method: 'DELETE', url: `/webhooks/${hanging.id}`, headers: owner.auth })).statusCode).toBe(204);
    expectApiError(
      await app.inject({ method: 'GET', url: `/webhooks/${hanging.id}/deliveries`, headers: owner.auth }),
      404,
      'Webhook not found.',
    );
    const stranger = await registerAccount(app);
    expectApiError(
      await app.inject({ method: 'DELETE', url: `/webhooks/${webhook.id}`, headers: stranger.auth }),
      404,
      'Webhook not found.',
    );
  });

  it('announces an export whose process died before recording its webhook messages, once', async () => {
    const account = await registerAccount(app);
    const projectId = await createProject(app, account, 'mailer-box', {}, MAILER);
    const exported = await app.inject({
      method: 'POST',
      url: `/projects/${projectId}/exports`,
      headers: account.auth,
      payload: { format: 'dieline-svg' },
    });
    const exportId = exported.json<{ export: ExportBody }>().export.id;
    await until(async () => ((await app.db.prisma.export.findUniqueOrThrow({ where: { id: exportId } })).announcedAt ? true : undefined));
    const webhook = (await createWebhook(account, { url: `${base}/late`, events: ['export.succeeded'] })).json<{
      webhook: { id: string; secret: string };
    }>().webhook;
    // As a process that died between finishing the export and recording its messages leaves it.
    await app.db.prisma.export.update({ where: { id: exportId }, data: { announcedAt: null, finishedAt: new Date(Date.now() - 60_000) } });
    expect(await app.services.exports.announceMissed()).toBe(1);
    const late = await until(() => received.find((item) => item.path === '/late'));
    expect(late.headers['webhook-id']).toBe(`msg_${exportId}_${webhook.id}`);
    expect(new Webhook(webhook.secret).verify(late.body, late.headers as Record<string, string>)).toMatchObject({
      data: { export: { id: exportId } },
    });
    // Announcing it again records nothing new.
    await app.db.prisma.export.update({ where: { id: exportId }, data: { announcedAt: null } });
    expect(await app.services.exports.announceMissed()).toBe(1);
    await sleep(500);
    expect(received.filter((item) => item.path === '/late')).toHaveLength(1);
    expect(await app.db.prisma.webhookMessage.count({ where: { exportId } })).toBe(1);
  });

  it('allows ten webhooks per account', async () => {
    const account = await registerAccount(app);
    for (let i = 0; i < 10; i += 1) {
      expect((await createWebhook(account, { url: `${base}/n${i}`, events: ['export.failed'] })).statusCode).toBe(201);
    }
    expectApiError(await createWebhook(account, { url: `${base}/n10`, events: ['export.failed'] }), 409, 'Webhook limit reached.');
    expectApiError(await createWebhook(account, { url: `${base}/x`, events: [] }), 400);
    expectApiError(await createWebhook(account, { url: `${base}/x`, events: ['export.started'] }), 400);
  });
});

describe('webhook URL rules', () => {
  let strict: App;
  let production: App;
  beforeAll(async () => {
    strict = await createTestApp(own.env);
    production = await createTestApp({ ...own.env, NODE_ENV: 'production' });
  });
  afterAll(async () => {
    await strict?.close();
    await production?.close();
  });

  it('refuses URLs that are not public http(s) addresses', async () => {
    const account = await registerAccount(strict);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fd00:ec2::254]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'ftp://8.8.8.8/hook',
      'not a url',
      'https://user:pass@8.8.8.8/hook',
    ]) {
      expectApiError(
        await createWebhook(account, { url, events: ['export.succeeded'] }, strict),
        400,
        'Webhook URL must be a public http(s) address.',
      );
    }
    expect(
      (await strict.inject({ method: 'GET', url: '/webhooks', headers: account.auth })).json<{ webhooks: unknown[] }>().webhooks,
    ).toEqual([]);
    // A public address literal is accepted (no request is made at creation).
    expect((await createWebhook(account, { url: 'http://8.8.8.8/hook', events: ['export.succeeded'] }, strict)).statusCode).toBe(201);
  });

  it('requires https in production', async () => {
    const account = await registerAccount(production);
    expectApiError(
      await createWebhook(account, { url: 'http://8.8.8.8/hook', events: ['export.succeeded'] }, production),
      400,
      'Webhook URL must be a public http(s) address.',
    );
    expect((await createWebhook(account, { url: 'https://8.8.8.8/hook', events: ['export.succeeded'] }, production)).statusCode).toBe(201);
  });
});
