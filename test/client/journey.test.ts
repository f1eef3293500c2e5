// The whole journey of a third-party developer, through the generated TypeScript client, against
// a server listening on a real socket (its answers checked against the document as well).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { asFormData, createPackagingClient } from '../../clients/typescript/index.js';
import { CLIENT_DIR, generateClientTypes } from '../../scripts/generate-client.js';
import { createTestApp, engineName, uniqueEmail } from '../helpers/app.js';

const PNG = readFileSync(new URL('../fixtures/tiny.png', import.meta.url));

describe(`the TypeScript client (${engineName()})`, () => {
  let app: App;
  let base: string;
  beforeAll(async () => {
    app = await createTestApp();
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('is generated from the document the server serves (run `npm run client:generate` when this fails)', async () => {
    const committed = readFileSync(new URL('openapi.json', CLIENT_DIR), 'utf8');
    const served = JSON.parse(JSON.stringify(app.swagger())) as unknown;
    expect(JSON.parse(committed)).toEqual(served);
    expect(readFileSync(new URL('schema.d.ts', CLIENT_DIR), 'utf8')).toBe(await generateClientTypes(served));
  });

  it('runs register → project → upload → dieline → key → /v1 → revoke', async () => {
    const email = uniqueEmail('client');
    const password = 'correct horse battery';
    const anonymous = createPackagingClient(base);

    const registered = await anonymous.POST('/auth/register', { body: { email, password, name: 'Ada' } });
    expect(registered.response.status).toBe(201);
    const again = await anonymous.POST('/auth/register', { body: { email, password, name: 'Ada' } });
    expect(again.error).toMatchObject({ statusCode: 409, error: 'Conflict' });
    const login = await anonymous.POST('/auth/login', { body: { email, password } });
    const token = login.data?.token ?? '';
    expect(token).not.toBe('');

    const account = createPackagingClient(base, { token });
    const me = await account.GET('/auth/me');
    expect(me.data?.user.email).toBe(email);

    const created = await account.POST('/projects', { body: { name: 'Spring mailer', templateId: 'mailer-box' } });
    expect(created.response.status).toBe(201);
    const project = created.data!.project;
    expect(project.artworkJson.templateId).toBe('mailer-box');

    const uploaded = await account.POST('/assets', {
      body: { file: new Blob([PNG], { type: 'image/png' }) },
      bodySerializer: asFormData('label.png'),
    });
    expect(uploaded.response.status).toBe(201);
    const asset = uploaded.data!.asset;
    expect(asset.mimeType).toBe('image/png');

    const file = await anonymous.GET('/files/{name}', { params: { path: { name: asset.name } }, parseAs: 'blob' });
    expect(Buffer.from(await file.data!.arrayBuffer())).toEqual(PNG);

    const dieline = await account.GET('/projects/{id}/dieline', { params: { path: { id: project.id } } });
    // One operation, three media types (json, svg, pdf): the JSON one is the default.
    expect(dieline.data).toMatchObject({ dieline: { templateId: 'mailer-box' } });
    const svg = await account.GET('/projects/{id}/dieline', {
      params: { path: { id: project.id }, query: { format: 'svg' } },
      parseAs: 'text',
    });
    expect(svg.data).toMatch(/^<\?xml|^<svg/);

    const issued = await account.POST('/api-keys');
    expect(issued.response.status).toBe(201);
    const apiKey = issued.data!.apiKey;

    const developer = createPackagingClient(base, { apiKey: apiKey.key });
    const template = await developer.GET('/v1/templates/{id}', { params: { path: { id: 'mailer-box' } } });
    expect(template.data?.template.id).toBe('mailer-box');
    const pdf = await developer.GET('/v1/templates/{id}/dieline', {
      params: { path: { id: 'mailer-box' }, query: { format: 'pdf' } },
      parseAs: 'blob',
    });
    expect(pdf.data?.type).toBe('application/pdf');

    const revoked = await account.DELETE('/api-keys/{id}', { params: { path: { id: apiKey.id } } });
    expect(revoked.response.status).toBe(204);
    const refused = await developer.GET('/v1/templates');
    expect(refused.error).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid API key.' });
  });
});
