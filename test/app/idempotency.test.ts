// Idempotency-Key on every creating POST, through the real stack on the run's engine: a repeat
// answers 200 with the first answer (a webhook's secret and a developer key included) and creates
// nothing; six identical requests at once create one row; another request under the key is a 409;
// an error answer frees the key; a replay comes before the plan's cap; keys are per route and
// forgotten after 24 hours; uploads are the same request when their bytes, name and type are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, ownDatabase } from '../helpers/app.js';
import { imageFixture } from '../helpers/images.js';
import { filePart, multipartBody, type Part } from '../helpers/multipart.js';
import { expectApiError } from '../assets/helpers.js';
import { dejavu, fontPart } from '../fonts/font-files.js';
import { PROJECT_CAP_MESSAGE, registerProAccount } from '../projects/fixtures.js';

const CONFLICT = 'Idempotency-Key was used with another request.';
const NEW_PROJECT = { name: 'Tea box', templateId: 'mailer-box', widthMm: 120, heightMm: 80, depthMm: 40 };

let app: App;
let owner: TestAccount;
let own: Awaited<ReturnType<typeof ownDatabase>>;
let keySeq = 0;
const newKey = () => `key-${Date.now()}-${keySeq++}`;

beforeAll(async () => {
  own = await ownDatabase('pf_idempotency');
  app = await createTestApp({ ...own.env, WEBHOOK_ALLOW_PRIVATE: 'true' });
  owner = await registerProAccount(app);
});

afterAll(async () => {
  await app?.close();
  await own?.drop();
});

function post(url: string, payload: object | undefined, key: string | null, headers: Record<string, string> = owner.auth) {
  return app.inject({ method: 'POST', url, headers: { ...headers, ...(key === null ? {} : { 'idempotency-key': key }) }, payload });
}

function postParts(url: string, parts: Part[], key: string, headers: Record<string, string> = owner.auth) {
  const { body, contentType } = multipartBody(parts);
  return app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType, 'idempotency-key': key }, payload: body });
}

const projectCount = (userId: string) => app.db.prisma.project.count({ where: { userId } });

async function createProject(account = owner): Promise<string> {
  const response = await post('/projects', NEW_PROJECT, null, account.auth);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ project: { id: string } }>().project.id;
}

describe('Idempotency-Key on creating POSTs', () => {
  it('answers a repeated project creation 200 with the first answer and its ETag, creating nothing', async () => {
    const key = newKey();
    const before = await projectCount(owner.id);
    const first = await post('/projects', NEW_PROJECT, key);
    expect(first.statusCode, first.body).toBe(201);
    // Keys in another order, same values: the same request.
    const again = await post('/projects', { depthMm: 40, heightMm: 80, widthMm: 120, templateId: 'mailer-box', name: 'Tea box' }, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await projectCount(owner.id)).toBe(before + 1);

    expectApiError(await post('/projects', { ...NEW_PROJECT, name: 'Other' }, key), 409, CONFLICT);
    expect(await projectCount(owner.id)).toBe(before + 1);
  });

  it('creates one project for six identical requests at once; every answer names it', async () => {
    const key = newKey();
    const before = await projectCount(owner.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/projects', NEW_PROJECT, key)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses, answers.map((answer) => answer.body).join('\n')).toEqual([200, 200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((answer) => answer.json<{ project: { id: string } }>().project.id));
    expect(ids.size).toBe(1);
    expect(await projectCount(owner.id)).toBe(before + 1);
  });

  it('duplicates once for six identical requests at once, also without a body', async () => {
    const source = await createProject();
    const key = newKey();
    const before = await projectCount(owner.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(`/projects/${source}/duplicate`, undefined, key)));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(5);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(await projectCount(owner.id)).toBe(before + 1);
    // {} is the same request as no body; another project is another request.
    expect((await post(`/projects/${source}/duplicate`, {}, key)).statusCode).toBe(200);
    const other = await createProject();
    expectApiError(await post(`/projects/${other}/duplicate`, undefined, key), 409, CONFLICT);
  });

  it('frees the key after an error answer', async () => {
    const key = newKey();
    expectApiError(await post('/projects/missing-project-id/duplicate', {}, key), 404, 'Project not found.');
    const source = await createProject();
    expect((await post(`/projects/${source}/duplicate`, {}, key)).statusCode).toBe(201);
  });

  it('refuses a key that is not 1–255 visible ASCII characters', async () => {
    const message = 'Idempotency-Key must be 1 to 255 visible ASCII characters.';
    expectApiError(await post('/projects', NEW_PROJECT, 'tab\there'), 400, message);
    expectApiError(await post('/projects', NEW_PROJECT, 'x'.repeat(256)), 400);
  });

  it("answers a repeat 200 even when the plan's cap is reached now", async () => {
    const account = await registerAccount(app);
    const key = newKey();
    expect((await post('/projects', NEW_PROJECT, key, account.auth)).statusCode).toBe(201);
    await createProject(account);
    await createProject(account);
    expectApiError(await post('/projects', NEW_PROJECT, newKey(), account.auth), 403, PROJECT_CAP_MESSAGE);
    const again = await post('/projects', NEW_PROJECT, key, account.auth);
    expect(again.statusCode, again.body).toBe(200);
    expect(await projectCount(account.id)).toBe(3);
  });

  it("answers a repeated export 200 even while the account's queue is full", async () => {
    const account = await registerProAccount(app);
    const projectId = await createProject(account);
    const key = newKey();
    const url = `/projects/${projectId}/exports`;
    const first = await post(url, { format: 'dieline-svg' }, key, account.auth);
    expect(first.statusCode, first.body).toBe(202);
    // Fifty exports held by a live worker elsewhere fill the account's queue.
    const leaseUntil = new Date(Date.now() + 60 * 60 * 1000);
    await app.db.prisma.export.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({
        id: `held${Date.now()}x${i}`,
        userId: account.id,
        projectId,
        projectVersion: 1,
        format: 'dieline-svg',
        options: {},
        status: 'running',
        leaseUntil,
      })),
    });
    expect((await post(url, { format: 'dieline-svg' }, newKey(), account.auth)).statusCode).toBe(429);
    const again = await post(url, { format: 'dieline-svg' }, key, account.auth);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ export: { id: string } }>().export.id).toBe(first.json<{ export: { id: string } }>().export.id);
    await app.db.prisma.export.deleteMany({ where: { userId: account.id, leaseUntil } });
  });

  it("keeps a key per route and per account", async () => {
    const key = newKey();
    expect((await post('/projects', NEW_PROJECT, key)).statusCode).toBe(201);
    expect((await post('/barcodes', { type: 'ean13', data: '590123412345' }, key)).statusCode).toBe(201);
    const other = await registerAccount(app);
    expect((await post('/projects', { ...NEW_PROJECT, name: 'Theirs' }, key, other.auth)).statusCode).toBe(201);
  });

  it("replays a webhook with its secret and a developer key with its key, once each", async () => {
    const key = newKey();
    const hook = { url: 'http://127.0.0.1:9/hooks', events: ['export.succeeded'] };
    const first = await post('/webhooks', hook, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await post('/webhooks', hook, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ webhook: { secret: string } }>().webhook.secret).toMatch(/^whsec_/);
    expect(again.json()).toEqual(first.json());
    expect(await app.db.prisma.webhook.count({ where: { userId: owner.id } })).toBe(1);

    const issueKey = newKey();
    const issued = await post('/api-keys', undefined, issueKey);
    expect(issued.statusCode, issued.body).toBe(201);
    const reissued = await post('/api-keys', undefined, issueKey);
    expect(reissued.statusCode, reissued.body).toBe(200);
    expect(reissued.json()).toEqual(issued.json());
    expect(await app.db.prisma.apiKey.count({ where: { userId: owner.id } })).toBe(1);

    // The /v1 twins, with that key.
    const apiKey = { 'x-api-key': issued.json<{ apiKey: { key: string } }>().apiKey.key };
    const v1Key = newKey();
    const v1Hook = { ...hook, url: 'http://127.0.0.1:9/v1-hooks' };
    const v1First = await post('/v1/webhooks', v1Hook, v1Key, apiKey);
    expect(v1First.statusCode, v1First.body).toBe(201);
    const v1Again = await post('/v1/webhooks', v1Hook, v1Key, apiKey);
    expect(v1Again.statusCode, v1Again.body).toBe(200);
    expect(v1Again.json()).toEqual(v1First.json());
    const project = await post('/v1/projects', NEW_PROJECT, v1Key, apiKey);
    expect(project.statusCode, project.body).toBe(201);
    const projectAgain = await post('/v1/projects', NEW_PROJECT, v1Key, apiKey);
    expect(projectAgain.statusCode, projectAgain.body).toBe(200);
    expect(projectAgain.json()).toEqual(project.json());
  });

  it('replays shares and barcodes', async () => {
    const projectId = await createProject();
    const key = newKey();
    const share = await post(`/projects/${projectId}/shares`, { expiresInDays: 7 }, key);
    expect(share.statusCode, share.body).toBe(201);
    const shareAgain = await post(`/projects/${projectId}/shares`, { expiresInDays: 7 }, key);
    expect(shareAgain.statusCode, shareAgain.body).toBe(200);
    expect(shareAgain.json()).toEqual(share.json());
    expect(await app.db.prisma.projectShare.count({ where: { projectId } })).toBe(1);
    expectApiError(await post(`/projects/${projectId}/shares`, { expiresInDays: 8 }, key), 409, CONFLICT);

    const barcode = { type: 'qrcode', data: 'https://example.com/idempotent' };
    const assetsBefore = await app.db.prisma.asset.count({ where: { userId: owner.id } });
    const made = await post('/barcodes', barcode, key);
    expect(made.statusCode, made.body).toBe(201);
    const madeAgain = await post('/barcodes', barcode, key);
    expect(madeAgain.statusCode, madeAgain.body).toBe(200);
    expect(madeAgain.json()).toEqual(made.json());
    expect(await app.db.prisma.asset.count({ where: { userId: owner.id } })).toBe(assetsBefore + 1);
  });

  it('takes an upload as the same request when its bytes, file name and type are', async () => {
    const png = imageFixture('tiny.png');
    const key = newKey();
    const before = await app.db.prisma.asset.count({ where: { userId: owner.id } });
    const answers = await Promise.all(Array.from({ length: 6 }, () => postParts('/assets', [filePart(png)], key)));
    expect(answers.map((answer) => answer.statusCode).sort(), answers[0]!.body).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(await app.db.prisma.asset.count({ where: { userId: owner.id } })).toBe(before + 1);

    expectApiError(await postParts('/assets', [filePart(png, { filename: 'other.png' })], key), 409, CONFLICT);
    expectApiError(await postParts('/assets', [filePart(imageFixture('tiny.jpg'), { contentType: 'image/jpeg' })], key), 409, CONFLICT);
    expect(await app.db.prisma.asset.count({ where: { userId: owner.id } })).toBe(before + 1);

    const font = dejavu('DejaVuSans.ttf');
    const fontKey = newKey();
    const uploaded = await postParts('/fonts', [fontPart(font)], fontKey);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const uploadedAgain = await postParts('/fonts', [fontPart(font)], fontKey);
    expect(uploadedAgain.statusCode, uploadedAgain.body).toBe(200);
    expect(uploadedAgain.json()).toEqual(uploaded.json());
    expect(await app.db.prisma.font.count({ where: { userId: owner.id } })).toBe(1);
    expectApiError(await postParts('/fonts', [fontPart(dejavu('DejaVuSerif.ttf'))], fontKey), 409, CONFLICT);
  });

  it('forgets a key 24 hours after its first request', async () => {
    const key = newKey();
    expect((await post('/projects', NEW_PROJECT, key)).statusCode).toBe(201);
    await app.db.prisma.idempotentRequest.updateMany({
      where: { userId: owner.id, key },
      data: { createdAt: new Date(Date.now() - 24 * 60 * 60 * 1000 - 1000) },
    });
    // Another request under the forgotten key is a new one.
    expect((await post('/projects', { ...NEW_PROJECT, name: 'Next day' }, key)).statusCode).toBe(201);

    const stale = newKey();
    expect((await post('/projects', NEW_PROJECT, stale)).statusCode).toBe(201);
    await app.db.prisma.idempotentRequest.updateMany({
      where: { userId: owner.id, key: stale },
      data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    expect(await app.services.idempotency.removeForgotten()).toBe(1);
    expect(await app.db.prisma.idempotentRequest.count({ where: { key: stale } })).toBe(0);
  });

  it('documents the header, the 200 replay and the 409 on every creating POST', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> }>>;
    }>();
    const creating = [
      '/projects',
      '/projects/{id}/duplicate',
      '/projects/{id}/shares',
      '/projects/{id}/exports',
      '/assets',
      '/fonts',
      '/barcodes',
      '/webhooks',
      '/api-keys',
      '/v1/projects',
      '/v1/projects/{id}/duplicate',
      '/v1/projects/{id}/exports',
      '/v1/assets',
      '/v1/fonts',
      '/v1/barcodes',
      '/v1/webhooks',
    ];
    for (const path of creating) {
      const operation = document.paths[path]?.post;
      expect(operation, path).toBeDefined();
      expect(operation!.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'), path).toBe(true);
      expect(Object.keys(operation!.responses), path).toEqual(expect.arrayContaining(['200', '409']));
    }
  });
});
