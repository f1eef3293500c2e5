// A third party with only a developer key, through the generated TypeScript client against a
// listening server: creates a design, uploads an image, exports a print PDF, downloads it and
// receives the signed webhook; /v1 projects keep every rule of the editor's (cap, versions,
// duplicate), assets are the key owner's, and the key's rate limit covers them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { asFormData, createPackagingClient } from '../../clients/typescript/index.js';
import { registerAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, ownDatabase } from '../helpers/app.js';
import { MAILER, pdfPageSizes, pollExport, sleep } from './helpers.js';

let app: App;
let base: string;
let receiver: Server;
let own: Awaited<ReturnType<typeof ownDatabase>>;
const bodies: Array<{ headers: Record<string, string>; body: string }> = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  own = await ownDatabase('pf_exports_v1');
  app = await createTestApp({ ...own.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50' });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await own?.drop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe(`/v1 designs and exports with a developer key (${engineName()})`, () => {
  it('key → project → upload → print PDF export → download, with a signed webhook', async () => {
    const owner = await registerAccount(app);
    const account = createPackagingClient(base, { token: owner.token });
    const hook = await account.POST('/webhooks', {
      body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`, events: ['export.succeeded'] },
    });
    expect(hook.response.status).toBe(201);
    const secret = hook.data!.webhook.secret;
    const key = (await account.POST('/api-keys')).data!.apiKey.key;
    const developer = createPackagingClient(base, { apiKey: key });

    const created = await developer.POST('/v1/projects', { body: { name: 'Partner mailer', templateId: 'mailer-box', ...MAILER } });
    expect(created.response.status).toBe(201);
    const project = created.data!.project;
    expect(project.userId).toBe(owner.id);

    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#d02040' } }).jpeg().toBuffer();
    const uploaded = await developer.POST('/v1/assets', {
      body: { file: new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }) },
      bodySerializer: asFormData('photo.jpg'),
    });
    expect(uploaded.response.status).toBe(201);
    const asset = uploaded.data!.asset;
    expect((await developer.GET('/v1/assets')).data!.assets.map((item) => item.id)).toEqual([asset.id]);
    // The editor sees the same asset: one account.
    expect((await account.GET('/assets/{id}', { params: { path: { id: asset.id } } })).data!.asset.id).toBe(asset.id);

    const designed = await developer.PUT('/v1/projects/{id}', {
      params: { path: { id: project.id } },
      body: {
        artworkJson: {
          ...project.artworkJson,
          background: { kind: 'color', value: '#ffffff' },
          artworks: [
            { id: 'photo', panelId: 'front', imageUrl: `/files/${asset.name}`, offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 0 },
          ],
        },
      },
    });
    expect(designed.response.status).toBe(200);
    expect(designed.response.headers.get('etag')).toBe('"2"');

    const exported = await developer.POST('/v1/projects/{id}/exports', {
      params: { path: { id: project.id }, header: { 'idempotency-key': 'partner-order-1' } },
      body: { format: 'print-pdf', options: { colorSpace: 'cmyk' } },
    });
    expect(exported.response.status).toBe(202);
    const queued = exported.data!.export;
    expect(exported.response.headers.get('location')).toBe(`/v1/exports/${queued.id}`);
    expect(queued.projectVersion).toBe(2);

    const done = await pollExport(
      async () => (await developer.GET('/v1/exports/{id}', { params: { path: { id: queued.id } } })).data!.export,
    );
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    const file = await fetch(`${base}${done.downloadUrl}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await file.arrayBuffer());
    expect(pdfPageSizes(pdf)).toHaveLength(1);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const listed = await developer.GET('/v1/exports', { params: { query: { projectId: project.id } } });
    expect(listed.data!.exports.map((item) => item.id)).toEqual([queued.id]);
    // The editor sees the export too; another account's key does not.
    expect((await account.GET('/exports/{id}', { params: { path: { id: queued.id } } })).data!.export.status).toBe('succeeded');
    const strangerAccount = createPackagingClient(base, { token: (await registerAccount(app)).token });
    const strangerKey = (await strangerAccount.POST('/api-keys')).data!.apiKey.key;
    const stranger = createPackagingClient(base, { apiKey: strangerKey });
    expect((await stranger.GET('/v1/exports/{id}', { params: { path: { id: queued.id } } })).error).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Export not found.',
    });
    expect((await stranger.GET('/v1/projects/{id}', { params: { path: { id: project.id } } })).response.status).toBe(404);

    for (let waited = 0; bodies.length === 0 && waited < 10_000; waited += 50) await sleep(50);
    expect(bodies).toHaveLength(1);
    const event = new Webhook(secret).verify(bodies[0]!.body, bodies[0]!.headers) as { type: string; data: { export: { id: string } } };
    expect(event).toMatchObject({ type: 'export.succeeded', data: { export: { id: queued.id } } });
  });

  it('keeps the editor rules on /v1: plan cap, versions, duplicate, asset delete', async () => {
    const owner = await registerAccount(app);
    const key = (await createPackagingClient(base, { token: owner.token }).POST('/api-keys')).data!.apiKey.key;
    const developer = createPackagingClient(base, { apiKey: key });
    const first = (await developer.POST('/v1/projects', { body: { name: 'One', templateId: 'mailer-box' } })).data!.project;
    await developer.PUT('/v1/projects/{id}', { params: { path: { id: first.id } }, body: { name: 'One, renamed' } });
    const versions = await developer.GET('/v1/projects/{id}/versions', { params: { path: { id: first.id } } });
    expect(versions.data!.versions.map((item) => item.version)).toEqual([1]);
    const copy = await developer.POST('/v1/projects/{id}/duplicate', { params: { path: { id: first.id } }, body: {} });
    expect(copy.data!.project.name).toBe('One, renamed (copy)');
    expect((await developer.POST('/v1/projects', { body: { name: 'Three', templateId: 'mailer-box' } })).response.status).toBe(201);
    const capped = await developer.POST('/v1/projects', { body: { name: 'Four', templateId: 'mailer-box' } });
    expect(capped.error).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'The free plan includes up to 3 projects. Upgrade to create more.',
    });
    expect((await developer.GET('/v1/projects')).data!.total).toBe(3);

    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).png().toBuffer();
    const asset = (
      await developer.POST('/v1/assets', {
        body: { file: new Blob([new Uint8Array(png)], { type: 'image/png' }) },
        bodySerializer: asFormData('x.png'),
      })
    ).data!.asset;
    expect((await developer.DELETE('/v1/assets/{id}', { params: { path: { id: asset.id } } })).response.status).toBe(204);
    expect((await developer.GET('/v1/assets/{id}', { params: { path: { id: asset.id } } })).response.status).toBe(404);
    expect((await createPackagingClient(base).GET('/v1/projects')).error).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Missing x-api-key header.',
    });
  });
});

describe('/v1 designs under the key rate limit', () => {
  it('counts /v1/projects and /v1/exports against the key', async () => {
    const limited = await createTestApp({ ...own.env, RATE_LIMIT_V1_PER_MIN: '3' });
    try {
      const owner = await registerAccount(limited);
      const issued = await limited.inject({ method: 'POST', url: '/api-keys', headers: owner.auth });
      const headers = { 'x-api-key': issued.json<{ apiKey: { key: string } }>().apiKey.key };
      const statuses = [];
      for (const url of ['/v1/projects', '/v1/exports', '/v1/assets', '/v1/projects']) {
        statuses.push((await limited.inject({ method: 'GET', url, headers })).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
