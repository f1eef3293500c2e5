// What a key-only integration builds on, through the real stack and a real receiver: webhooks
// under /v1 with a signed test event and redelivery under the same webhook-id, the deliveries
// list's message id and next attempt, project events, the preflight under /v1, and a failed
// export that carries its findings and names the key's route.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, ownDatabase } from '../helpers/app.js';
import { expectApiError } from '../assets/helpers.js';
import { issueKey } from '../api-keys/keys.js';
import { MAILER, pollInjected, sleep, type ExportBody } from './helpers.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Delivery {
  id: string;
  messageId: string;
  event: string;
  exportId: string | null;
  attempt: number;
  status: string;
  responseStatus: number | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

let app: App;
let receiver: Server;
let base: string;
let own: Awaited<ReturnType<typeof ownDatabase>>;
const received: Received[] = [];
/** Paths that answer 500 (every attempt fails) until removed. */
const failing = new Set<string>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(failing.has(request.url ?? '') ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  own = await ownDatabase('pf_platform');
  app = await createTestApp({ ...own.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: '60000,60000', WEBHOOK_POLL_MS: '50' });
});

afterAll(async () => {
  await app?.close();
  await own?.drop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}

async function keyed(account: TestAccount) {
  const key = (await issueKey(app, account)).key;
  return { 'x-api-key': key };
}

const hits = (path: string) => received.filter((item) => item.path === path);

function verified(secret: string, item: Received) {
  return new Webhook(secret).verify(item.body, {
    'webhook-id': String(item.headers['webhook-id']),
    'webhook-timestamp': String(item.headers['webhook-timestamp']),
    'webhook-signature': String(item.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
}

async function deliveriesOf(headers: Record<string, string>, webhookId: string, query = ''): Promise<Delivery[]> {
  const response = await app.inject({ method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries${query}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ deliveries: Delivery[] }>().deliveries;
}

describe(`webhooks and preflight for a developer key (${engineName()})`, () => {
  it('creates a webhook with a key, sends a signed webhook.test, and redelivers it under the same webhook-id', async () => {
    const owner = await registerAccount(app);
    const headers = await keyed(owner);
    // Without the key the /v1 webhooks are closed.
    expectApiError(await app.inject({ method: 'GET', url: '/v1/webhooks' }), 401, 'Missing x-api-key header.');

    const created = await app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers,
      payload: { url: `${base}/test-hook`, events: ['project.updated'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const webhook = created.json<{ webhook: { id: string; secret: string } }>().webhook;
    const listed = await app.inject({ method: 'GET', url: '/v1/webhooks', headers });
    expect(listed.json<{ webhooks: Array<{ id: string }> }>().webhooks.map((row) => row.id)).toEqual([webhook.id]);
    // The editor's list shows the same webhook: one account.
    const editorList = await app.inject({ method: 'GET', url: '/webhooks', headers: owner.auth });
    expect(editorList.json<{ webhooks: Array<{ id: string }> }>().webhooks[0]!.id).toBe(webhook.id);

    const test = await app.inject({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test`, headers });
    expect(test.statusCode, test.body).toBe(202);
    const message = test.json<{ message: { id: string; event: string; exportId: null; nextAttemptAt: string } }>().message;
    expect(message).toMatchObject({ event: 'webhook.test', exportId: null });
    const first = await until(() => hits('/test-hook')[0]);
    expect(first.headers['webhook-id']).toBe(message.id);
    const payload = verified(webhook.secret, first);
    expect(payload.type).toBe('webhook.test');
    expect(payload.data).toEqual({ webhook: { id: webhook.id } });

    const [delivery] = await until(async () => {
      const rows = await deliveriesOf(headers, webhook.id);
      return rows.length === 1 ? rows : undefined;
    });
    expect(delivery).toEqual({
      id: expect.any(String),
      messageId: message.id,
      event: 'webhook.test',
      exportId: null,
      attempt: 1,
      status: 'succeeded',
      responseStatus: 204,
      nextAttemptAt: null,
      createdAt: expect.any(String),
    });

    const redelivered = await app.inject({
      method: 'POST',
      url: `/v1/webhooks/${webhook.id}/deliveries/${delivery!.id}/redeliver`,
      headers,
    });
    expect(redelivered.statusCode, redelivered.body).toBe(202);
    expect(redelivered.json<{ message: { id: string } }>().message.id).toBe(message.id);
    const again = await until(() => hits('/test-hook')[1]);
    expect(again.headers['webhook-id']).toBe(message.id);
    expect(verified(webhook.secret, again).data).toEqual({ webhook: { id: webhook.id } });
    const rows = await until(async () => {
      const found = await deliveriesOf(headers, webhook.id);
      return found.length === 2 ? found : undefined;
    });
    expect(rows.map((row) => [row.messageId, row.attempt, row.status])).toEqual([
      [message.id, 2, 'succeeded'],
      [message.id, 1, 'succeeded'],
    ]);
    // The JWT twin of redeliver answers alike.
    const twin = await app.inject({
      method: 'POST',
      url: `/webhooks/${webhook.id}/deliveries/${delivery!.id}/redeliver`,
      headers: owner.auth,
    });
    expect(twin.statusCode, twin.body).toBe(202);

    // Paging: one row a page, the cursor leads to the next; a cursor of another list is refused.
    const page = await app.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries?limit=1`, headers });
    const firstPage = page.json<{ deliveries: Delivery[]; nextCursor: string | null }>();
    expect(firstPage.deliveries).toHaveLength(1);
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    const next = await app.inject({
      method: 'GET',
      url: `/v1/webhooks/${webhook.id}/deliveries?limit=1&cursor=${firstPage.nextCursor}`,
      headers,
    });
    expect(next.json<{ deliveries: Delivery[] }>().deliveries[0]!.id).not.toBe(firstPage.deliveries[0]!.id);
    expectApiError(
      await app.inject({ method: 'GET', url: `/v1/webhooks?limit=1&cursor=${firstPage.nextCursor}`, headers }),
      400,
      'Invalid cursor.',
    );
    expectApiError(await app.inject({ method: 'GET', url: `/v1/webhooks?limit=0`, headers }), 400);
    expectApiError(await app.inject({ method: 'GET', url: `/v1/webhooks?limit=101`, headers }), 400);
  });

  it('another account cannot redeliver; a deleted webhook has no test event', async () => {
    const owner = await registerAccount(app);
    const stranger = await registerAccount(app);
    const headers = await keyed(owner);
    const strangerHeaders = await keyed(stranger);
    const webhook = (
      await app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url: `${base}/owned`, events: ['export.failed'] } })
    ).json<{
      webhook: { id: string };
    }>().webhook;
    expect((await app.inject({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test`, headers })).statusCode).toBe(202);
    const [delivery] = await until(async () => {
      const rows = await deliveriesOf(headers, webhook.id);
      return rows.length === 1 ? rows : undefined;
    });
    const before = hits('/owned').length;
    expectApiError(
      await app.inject({
        method: 'POST',
        url: `/v1/webhooks/${webhook.id}/deliveries/${delivery!.id}/redeliver`,
        headers: strangerHeaders,
      }),
      404,
      'Webhook not found.',
    );
    expectApiError(
      await app.inject({ method: 'POST', url: `/v1/webhooks/${webhook.id}/deliveries/nosuchdelivery/redeliver`, headers }),
      404,
      'Delivery not found.',
    );
    expectApiError(
      await app.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, headers: strangerHeaders }),
      404,
      'Webhook not found.',
    );

    expect((await app.inject({ method: 'DELETE', url: `/v1/webhooks/${webhook.id}`, headers })).statusCode).toBe(204);
    expectApiError(await app.inject({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test`, headers }), 404, 'Webhook not found.');
    expectApiError(
      await app.inject({ method: 'POST', url: `/webhooks/${webhook.id}/test`, headers: owner.auth }),
      404,
      'Webhook not found.',
    );
    await sleep(300);
    expect(hits('/owned')).toHaveLength(before);
  });

  it('a pending retry shows when it is due on the message’s newest row', async () => {
    const owner = await registerAccount(app);
    const headers = await keyed(owner);
    failing.add('/failing');
    const webhook = (
      await app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url: `${base}/failing`, events: ['export.failed'] } })
    ).json<{
      webhook: { id: string };
    }>().webhook;
    await app.inject({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test`, headers });
    const [row] = await until(async () => {
      const rows = await deliveriesOf(headers, webhook.id);
      return rows.length === 1 ? rows : undefined;
    });
    expect(row).toMatchObject({ attempt: 1, status: 'failed', responseStatus: 500 });
    // The second attempt is due a minute after the first (WEBHOOK_RETRY_DELAYS_MS).
    const due = Date.parse(row!.nextAttemptAt!) - Date.parse(row!.createdAt);
    expect(due).toBeGreaterThanOrEqual(59_000);
    expect(due).toBeLessThanOrEqual(61_000);
  });

  it('project.updated (also on restore) and project.deleted reach the subscribed webhook', async () => {
    const owner = await registerAccount(app);
    const headers = await keyed(owner);
    const webhook = (
      await app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers,
        payload: { url: `${base}/projects`, events: ['project.updated', 'project.deleted'] },
      })
    ).json<{ webhook: { id: string; secret: string } }>().webhook;
    const created = await app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers,
      payload: { name: 'Events', templateId: 'mailer-box', ...MAILER },
    });
    const project = created.json<{ project: { id: string } }>().project;
    const renamed = await app.inject({ method: 'PUT', url: `/v1/projects/${project.id}`, headers, payload: { name: 'Renamed' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = renamed.json<{ project: { updatedAt: string } }>().project;
    // Every change records a version: created 1, renamed 2, restored 3 (the ETag names it too).
    expect(renamed.headers.etag).toBe('"2"');
    // No change: no event.
    const unchanged = await app.inject({ method: 'PUT', url: `/v1/projects/${project.id}`, headers, payload: { name: 'Renamed' } });
    expect(unchanged.statusCode).toBe(200);
    const restored = await app.inject({ method: 'POST', url: `/v1/projects/${project.id}/versions/1/restore`, headers });
    expect(restored.statusCode, restored.body).toBe(200);
    const restoredProject = restored.json<{ project: { updatedAt: string } }>().project;
    expect((await app.inject({ method: 'DELETE', url: `/v1/projects/${project.id}`, headers })).statusCode).toBe(204);

    const events = await until(() => {
      const got = hits('/projects');
      return got.length >= 3 ? got : undefined;
    });
    await sleep(200);
    const payloads = hits('/projects')
      .map((item) => verified(webhook.secret, item))
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(payloads.map((item) => [item.type, item.data])).toEqual([
      [
        'project.updated',
        { project: { id: project.id, name: 'Renamed', templateId: 'mailer-box', version: 2, updatedAt: after.updatedAt } },
      ],
      [
        'project.updated',
        { project: { id: project.id, name: 'Events', templateId: 'mailer-box', version: 3, updatedAt: restoredProject.updatedAt } },
      ],
      ['project.deleted', { project: { id: project.id } }],
    ]);
    expect(new Set(events.map((item) => item.headers['webhook-id'])).size).toBe(3);
  });

  it('a print refused for preflight errors fails with its findings and names the /v1 preflight; ' +
    'the preflight answers under /v1', async () => {
    const owner = await registerAccount(app);
    const headers = await keyed(owner);
    const design = {
      artworks: [{ id: 'a1', panelId: 'nope', imageUrl: '/files/missing.png', offsetX: 0, offsetY: 0, scale: 1, rotationDeg: 0 }],
    };
    const created = await app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers,
      payload: { name: 'Broken', templateId: 'mailer-box', ...MAILER, artworkJson: design },
    });
    expect(created.statusCode, created.body).toBe(201);
    const projectId = created.json<{ project: { id: string } }>().project.id;

    const preflight = await app.inject({ method: 'GET', url: `/v1/projects/${projectId}/preflight`, headers });
    expect(preflight.statusCode, preflight.body).toBe(200);
    const report = preflight.json<{ preflight: { ready: boolean; findings: Array<{ severity: string; code: string }> } }>().preflight;
    expect(report.ready).toBe(false);
    expectApiError(await app.inject({ method: 'GET', url: `/v1/projects/${projectId}/preflight` }), 401, 'Missing x-api-key header.');

    // An unknown format names every allowed one; an unknown option names the field.
    expectApiError(
      await app.inject({ method: 'POST', url: `/v1/projects/${projectId}/exports`, headers, payload: { format: 'pdf' } }),
      400,
      'body/format must be one of: print-pdf, preview-png, model-glb, dieline-svg, dieline-pdf, dieline-dxf, dieline-cf2.',
    );
    expectApiError(
      await app.inject({
        method: 'POST',
        url: `/v1/projects/${projectId}/exports`,
        headers,
        payload: { format: 'print-pdf', options: { x: 1 } },
      }),
      400,
      "body/options has an unknown field 'x'.",
    );
    const exported = await app.inject({
      method: 'POST',
      url: `/v1/projects/${projectId}/exports`,
      headers,
      payload: { format: 'print-pdf' },
    });
    expect(exported.statusCode, exported.body).toBe(202);
    const id = exported.json<{ export: ExportBody }>().export.id;
    const failed = await pollInjected(app, `/v1/exports/${id}`, headers);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: `The project has preflight errors; see GET /v1/projects/${projectId}/preflight.`,
      findings: report.findings.filter((finding) => finding.severity === 'error'),
    });
    expect(failed.error!.findings!.map((finding) => finding.code)).toContain('PANEL_NOT_FOUND');
    expect(failed.attempts).toBe(1);

    // The editor's export of the same project names the editor's route.
    const jwtExport = await app.inject({
      method: 'POST',
      url: `/projects/${projectId}/exports`,
      headers: owner.auth,
      payload: { format: 'print-pdf' },
    });
    const jwtFailed = await pollInjected(app, `/exports/${jwtExport.json<{ export: ExportBody }>().export.id}`, owner.auth);
    expect(jwtFailed.error!.message).toBe(`The project has preflight errors; see GET /projects/${projectId}/preflight.`);
  });
});
