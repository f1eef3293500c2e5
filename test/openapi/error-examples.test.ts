// Every error example of the OpenAPI document is an answer the app gives: the test walks the
// document and, for each route-specific example (operationId + status), sends its recipe through
// the app and compares the answer exactly; each shared response's examples are produced once. An
// example without a recipe, a recipe without an example, or a different answer fails.
import { setTimeout as sleep } from 'node:timers/promises';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { API_KEY_LIMIT } from '../../src/services/api-keys.js';
import { WEBHOOKS_PER_ACCOUNT } from '../../src/services/webhooks.js';
import { MISSING_TEMPLATE_ID, RATE_LIMIT_EXAMPLE } from '../../src/schemas/error-examples.js';
import { registerAdmin } from '../accounts/helpers.js';
import { issueKey } from '../api-keys/keys.js';
import { MAILER } from '../exports/helpers.js';
import { collectionOf, dejavu, fontPart } from '../fonts/font-files.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, databaseUrl, engineName, testConfig } from '../helpers/app.js';
import { filePart, multipartBody, type Part } from '../helpers/multipart.js';
import { createMigratedScratchDatabase, type ScratchDatabase } from '../helpers/postgres-admin.js';
import { connect, listenLocally, parseResponse } from '../helpers/raw-http.js';
import { artwork, createProject, twoToneJpeg, uploadJpeg } from '../print/harness.js';
import { turbulenceBomb } from '../../fixtures/svg-bombs.js';

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { example?: unknown; examples?: Record<string, { $ref?: string; value?: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, ResponseObject> }>>;
  components: { responses: Record<string, ResponseObject>; examples: Record<string, { value: unknown }> };
}
interface Answer {
  statusCode: number;
  body: unknown;
}

// The start of a PNG: enough for the upload to read on until the size limit.
const PNG_HEAD = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
// A well-formed id (cuid2) that names nothing.
const MISSING = 'tz4a98xxat96iws9zmbrgj3a';

interface Context {
  app: App;
  owner: TestAccount;
  key: { 'x-api-key': string };
  /** On the free plan at its project cap, with every webhook and key it may have. */
  full: TestAccount;
  fullKey: { 'x-api-key': string };
  admin: TestAccount;
  projectId: string;
  fullProjectId: string;
  webhookId: string;
}

const multipart = (parts: Part[]) => {
  const { body, contentType } = multipartBody(parts);
  return { payload: body, headers: { 'content-type': contentType } };
};
const svgBomb = () =>
  Buffer.from(turbulenceBomb().toString('utf8').replace('width="10000" height="10000"', 'width="1000" height="1000"'));

const PRO = { plan: 'pro' };
const DEMOTE = { role: 'user' };
const FOURTH = { name: 'Fourth', templateId: 'mailer-box' };

type Recipe = (ctx: Context) => Promise<InjectOptions> | InjectOptions;

const get = (url: string, headers: Record<string, string> = {}): InjectOptions => ({ method: 'GET', url, headers });

/** The two surfaces of one operation: the account route with a token, its /v1 twin with a key. */
function twins(jwt: string, v1: string, recipe: (base: string, credential: (ctx: Context) => Record<string, string>) => Recipe) {
  return {
    [jwt]: recipe('', (ctx) => ctx.owner.auth),
    [v1]: recipe('/v1', (ctx) => ctx.key),
  };
}

function upload(base: string, parts: Part[] | 'text', credential: (ctx: Context) => Record<string, string>): Recipe {
  return (ctx) => {
    if (parts === 'text') return { method: 'POST', url: base, headers: { ...credential(ctx), 'content-type': 'text/plain' }, payload: 'x' };
    const body = multipart(parts);
    return { method: 'POST', url: base, payload: body.payload, headers: { ...credential(ctx), ...body.headers } };
  };
}

/** `${operationId} ${status}` → the request that gets that example's answer. */
const RECIPES: Record<string, Recipe> = {
  'listMetrics 404': () => get('/metrics'),
  'register 409': (ctx) => ({
    method: 'POST',
    url: '/auth/register',
    payload: { email: ctx.owner.email, password: 'another password', name: 'A' },
  }),
  'logIn 401': (ctx) => ({ method: 'POST', url: '/auth/login', payload: { email: ctx.owner.email, password: 'not the password' } }),
  'deleteAuthMe 403': (ctx) => ({ method: 'DELETE', url: '/auth/me', headers: ctx.owner.auth, payload: { password: 'not the password' } }),
  'deleteAuthMe 409': (ctx) => ({ method: 'DELETE', url: '/auth/me', headers: ctx.admin.auth, payload: { password: ctx.admin.password } }),
  'updateAuthPassword 400': (ctx) => ({
    method: 'PUT',
    url: '/auth/password',
    headers: ctx.owner.auth,
    payload: { currentPassword: ctx.owner.password, newPassword: ctx.owner.password },
  }),
  'updateAuthPassword 403': (ctx) => ({
    method: 'PUT',
    url: '/auth/password',
    headers: ctx.owner.auth,
    payload: { currentPassword: 'not the password', newPassword: 'a new password' },
  }),
  'getTemplate 404': () => get(`/templates/${MISSING_TEMPLATE_ID}`),
  'getTemplateDieline 404': () => get(`/templates/${MISSING_TEMPLATE_ID}/dieline`),
  'getTemplateModel 404': () => get(`/templates/${MISSING_TEMPLATE_ID}/model`),
  'getV1Template 404': (ctx) => get(`/v1/templates/${MISSING_TEMPLATE_ID}`, ctx.key),
  'getV1TemplateDieline 404': (ctx) => get(`/v1/templates/${MISSING_TEMPLATE_ID}/dieline`, ctx.key),
  'getV1TemplateModel 404': (ctx) => get(`/v1/templates/${MISSING_TEMPLATE_ID}/model`, ctx.key),

  ...twins('createProject 400', 'createV1Project 400', (base, credential) => (ctx) => ({
    method: 'POST',
    url: `${base}/projects`,
    headers: credential(ctx),
    payload: { name: 'Unknown', templateId: MISSING_TEMPLATE_ID },
  })),
  'createProject 403': (ctx) => ({ method: 'POST', url: '/projects', headers: ctx.full.auth, payload: FOURTH }),
  'createV1Project 403': (ctx) => ({ method: 'POST', url: '/v1/projects', headers: ctx.fullKey, payload: FOURTH }),
  'postProjectDuplicate 403': (ctx) => ({ method: 'POST', url: `/projects/${ctx.fullProjectId}/duplicate`, headers: ctx.full.auth }),
  'postV1ProjectDuplicate 403': (ctx) => ({ method: 'POST', url: `/v1/projects/${ctx.fullProjectId}/duplicate`, headers: ctx.fullKey }),
  ...twins('getProject 404', 'getV1Project 404', (base, credential) => (ctx) => get(`${base}/projects/${MISSING}`, credential(ctx))),
  ...twins('updateProject 404', 'updateV1Project 404', (base, credential) => (ctx) => ({
    method: 'PUT',
    url: `${base}/projects/${MISSING}`,
    headers: credential(ctx),
    payload: { name: 'Renamed' },
  })),
  ...twins('updateProject 412', 'updateV1Project 412', (base, credential) => (ctx) => ({
    method: 'PUT',
    url: `${base}/projects/${ctx.projectId}`,
    headers: { ...credential(ctx), 'if-match': '"999"' },
    payload: { name: 'Renamed' },
  })),
  ...twins('deleteProject 404', 'deleteV1Project 404', (base, credential) => (ctx) => ({
    method: 'DELETE',
    url: `${base}/projects/${MISSING}`,
    headers: credential(ctx),
  })),
  ...twins('deleteProject 412', 'deleteV1Project 412', (base, credential) => (ctx) => ({
    method: 'DELETE',
    url: `${base}/projects/${ctx.projectId}`,
    headers: { ...credential(ctx), 'if-match': '"999"' },
  })),
  ...twins('postProjectDuplicate 404', 'postV1ProjectDuplicate 404', (base, credential) => (ctx) => ({
    method: 'POST',
    url: `${base}/projects/${MISSING}/duplicate`,
    headers: credential(ctx),
  })),
  ...twins('listProjectVersions 404', 'listV1ProjectVersions 404', (base, credential) => (ctx) =>
    get(`${base}/projects/${MISSING}/versions`, credential(ctx)),
  ),
  ...twins('getProjectVersion 404', 'getV1ProjectVersion 404', (base, credential) => (ctx) =>
    get(`${base}/projects/${ctx.projectId}/versions/999`, credential(ctx)),
  ),
  ...twins('postProjectVersionRestore 404', 'postV1ProjectVersionRestore 404', (base, credential) => (ctx) => ({
    method: 'POST',
    url: `${base}/projects/${ctx.projectId}/versions/999/restore`,
    headers: credential(ctx),
  })),
  ...twins('postProjectVersionRestore 412', 'postV1ProjectVersionRestore 412', (base, credential) => async (ctx) => {
    // The project's first version is in its history once it has a second.
    const url = `/projects/${ctx.projectId}`;
    const updated = await ctx.app.inject({ method: 'PUT', url, headers: ctx.owner.auth, payload: { name: 'Next' } });
    expect(updated.statusCode, updated.body).toBe(200);
    return { method: 'POST', url: `${base}${url}/versions/1/restore`, headers: { ...credential(ctx), 'if-match': '"999"' } };
  }),
  ...twins('getProjectDieline 404', 'getV1ProjectDieline 404', (base, credential) => (ctx) =>
    get(`${base}/projects/${MISSING}/dieline`, credential(ctx)),
  ),
  ...twins('getProjectPreflight 404', 'getV1ProjectPreflight 404', (base, credential) => (ctx) =>
    get(`${base}/projects/${MISSING}/preflight`, credential(ctx)),
  ),
  ...twins('createProjectExport 404', 'createV1ProjectExport 404', (base, credential) => (ctx) => ({
    method: 'POST',
    url: `${base}/projects/${MISSING}/exports`,
    headers: credential(ctx),
    payload: { format: 'dieline-svg' },
  })),
  ...twins('createProjectExport 409', 'createV1ProjectExport 409', (base, credential) => async (ctx) => {
    const key = `examples${base.replace('/', '-')}`;
    const first = await ctx.app.inject({
      method: 'POST',
      url: `${base}/projects/${ctx.projectId}/exports`,
      headers: { ...credential(ctx), 'idempotency-key': key },
      payload: { format: 'dieline-svg' },
    });
    expect(first.statusCode, first.body).toBe(202);
    return {
      method: 'POST',
      url: `${base}/projects/${ctx.projectId}/exports`,
      headers: { ...credential(ctx), 'idempotency-key': key },
      payload: { format: 'dieline-pdf' },
    };
  }),
  ...twins('getExport 404', 'getV1Export 404', (base, credential) => (ctx) => get(`${base}/exports/${MISSING}`, credential(ctx))),
  ...twins('getAsset 404', 'getV1Asset 404', (base, credential) => (ctx) => get(`${base}/assets/${MISSING}`, credential(ctx))),
  ...twins('deleteAsset 404', 'deleteV1Asset 404', (base, credential) => (ctx) => ({
    method: 'DELETE',
    url: `${base}/assets/${MISSING}`,
    headers: credential(ctx),
  })),
  ...twins('uploadAsset 413', 'v1UploadAsset 413', (base, credential) =>
    upload(`${base}/assets`, [filePart(Buffer.concat([PNG_HEAD, Buffer.alloc(25 * 1024 * 1024)]))], credential),
  ),
  ...twins('uploadAsset 415', 'v1UploadAsset 415', (base, credential) => upload(`${base}/assets`, 'text', credential)),
  ...twins('uploadAsset 422', 'v1UploadAsset 422', (base, credential) =>
    upload(`${base}/assets`, [filePart(svgBomb(), { filename: 'bomb.svg', contentType: 'image/svg+xml' })], credential),
  ),
  ...twins('uploadFont 413', 'v1UploadFont 413', (base, credential) =>
    upload(`${base}/fonts`, [fontPart(Buffer.alloc(20 * 1024 * 1024 + 1))], credential),
  ),
  ...twins('uploadFont 415', 'v1UploadFont 415', (base, credential) => upload(`${base}/fonts`, 'text', credential)),
  ...twins('uploadFont 422', 'v1UploadFont 422', (base, credential) =>
    upload(`${base}/fonts`, [fontPart(collectionOf(dejavu('DejaVuSans.ttf')))], credential),
  ),
  ...twins('deleteFont 404', 'v1DeleteFont 404', (base, credential) => (ctx) => ({
    method: 'DELETE',
    url: `${base}/fonts/${MISSING}`,
    headers: credential(ctx),
  })),
  'createWebhook 409': (ctx) => ({
    method: 'POST',
    url: '/webhooks',
    headers: ctx.full.auth,
    payload: { url: 'http://127.0.0.1:9/over', events: ['export.succeeded'] },
  }),
  'createV1Webhook 409': (ctx) => ({
    method: 'POST',
    url: '/v1/webhooks',
    headers: ctx.fullKey,
    payload: { url: 'http://127.0.0.1:9/over', events: ['export.succeeded'] },
  }),
  ...twins('deleteWebhook 404', 'deleteV1Webhook 404', (base, credential) => (ctx) => ({
    method: 'DELETE',
    url: `${base}/webhooks/${MISSING}`,
    headers: credential(ctx),
  })),
  ...twins('listWebhookDeliveries 404', 'listV1WebhookDeliveries 404', (base, credential) => (ctx) =>
    get(`${base}/webhooks/${MISSING}/deliveries`, credential(ctx)),
  ),
  ...twins('postWebhookTest 404', 'postV1WebhookTest 404', (base, credential) => (ctx) => ({
    method: 'POST',
    url: `${base}/webhooks/${MISSING}/test`,
    headers: credential(ctx),
  })),
  ...twins('postWebhookDeliveryRedeliver 404', 'postV1WebhookDeliveryRedeliver 404', (base, credential) => (ctx) => ({
    method: 'POST',
    url: `${base}/webhooks/${ctx.webhookId}/deliveries/${MISSING}/redeliver`,
    headers: credential(ctx),
  })),
  'issueApiKey 409': (ctx) => ({ method: 'POST', url: '/api-keys', headers: ctx.full.auth }),
  'revokeApiKey 404': (ctx) => ({ method: 'DELETE', url: `/api-keys/${MISSING}`, headers: ctx.owner.auth }),

  'getProjectPrint 404': (ctx) => get(`/projects/${MISSING}/print`, ctx.owner.auth),
  'getProjectPrint 409': async (ctx) => {
    const imageUrl = await uploadJpeg(ctx.app, ctx.owner, await twoToneJpeg(2400, 1600));
    const broken = await createProject(ctx.app, ctx.owner, 'mailer-box', { artworks: [artwork('art-1', 'tuck-top', imageUrl)] }, MAILER);
    return get(`/projects/${broken}/print`, ctx.owner.auth);
  },
  'getProjectPreview 404': (ctx) => get(`/projects/${MISSING}/preview`, ctx.owner.auth),
  'getProjectModel 404': (ctx) => get(`/projects/${MISSING}/model`, ctx.owner.auth),
  'getProjectMockup 404': (ctx) => get(`/projects/${MISSING}/mockup`, ctx.owner.auth),
  'getProjectLayout 404': (ctx) => get(`/projects/${MISSING}/layout`, ctx.owner.auth),
  'getProjectLayout 422': async (ctx) => {
    const big = await createProject(ctx.app, ctx.owner, 'rsc-box', {}, { widthMm: 400, heightMm: 300, depthMm: 300 });
    return get(`/projects/${big}/layout?sheetWidthMm=500&sheetHeightMm=500`, ctx.owner.auth);
  },
  'createShare 404': (ctx) => ({ method: 'POST', url: `/projects/${MISSING}/shares`, headers: ctx.owner.auth }),
  'listShares 404': (ctx) => get(`/projects/${MISSING}/shares`, ctx.owner.auth),
  'revokeShare 404': (ctx) => ({ method: 'DELETE', url: `/projects/${ctx.projectId}/shares/${MISSING}`, headers: ctx.owner.auth }),
  'getSharedModel 404': () => get(`/shared/${'a'.repeat(43)}/model`),
  'getFile 404': () => get(`/files/${MISSING}.png`),
  'headFile 404': () => ({ method: 'HEAD', url: `/files/${MISSING}.png` }),

  'listAdminUsers 403': (ctx) => get('/admin/users', ctx.owner.auth),
  'getAdminUser 403': (ctx) => get(`/admin/users/${ctx.owner.id}`, ctx.owner.auth),
  'getAdminUser 404': (ctx) => get(`/admin/users/${MISSING}`, ctx.admin.auth),
  'updateAdminUser 403': (ctx) => ({ method: 'PUT', url: `/admin/users/${ctx.owner.id}`, headers: ctx.owner.auth, payload: PRO }),
  'updateAdminUser 404': (ctx) => ({ method: 'PUT', url: `/admin/users/${MISSING}`, headers: ctx.admin.auth, payload: PRO }),
  'updateAdminUser 409': (ctx) => ({ method: 'PUT', url: `/admin/users/${ctx.admin.id}`, headers: ctx.admin.auth, payload: DEMOTE }),
  'deleteAdminUser 403': (ctx) => ({ method: 'DELETE', url: `/admin/users/${ctx.owner.id}`, headers: ctx.owner.auth }),
  'deleteAdminUser 404': (ctx) => ({ method: 'DELETE', url: `/admin/users/${MISSING}`, headers: ctx.admin.auth }),
  'deleteAdminUser 409': (ctx) => ({ method: 'DELETE', url: `/admin/users/${ctx.admin.id}`, headers: ctx.admin.auth }),

  'getExportDownload 404': () => get(`/exports/${MISSING}/download?expires=4102444800&signature=${'A'.repeat(43)}`),
  'getExportDownload 410': async (ctx) =>
    get(await ctx.app.services.downloadLinks.urlFor({ id: MISSING, expiresAt: new Date(Date.now() - 1000) })),
};

/** components/examples name → the request that gets that shared answer (through the app the test builds). */
const SHARED_RECIPES: Record<string, (ctx: Context) => Promise<Answer>> = {
  BadRequestSchema: (ctx) =>
    answer(ctx.app, { method: 'POST', url: '/projects', headers: ctx.owner.auth, payload: { templateId: 'mailer-box' } }),
  UnauthorizedMissing: (ctx) => answer(ctx.app, get('/projects')),
  UnauthorizedInvalid: (ctx) => answer(ctx.app, get('/projects', { authorization: 'Bearer not-a-token' })),
  ApiKeyUnauthorizedMissing: (ctx) => answer(ctx.app, get('/v1/projects')),
  ApiKeyUnauthorizedInvalid: (ctx) => answer(ctx.app, get('/v1/projects', { 'x-api-key': `pf_${'0'.repeat(48)}` })),
  PayloadTooLargeBody: (ctx) =>
    answer(ctx.app, {
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024) }),
    }),
  IdempotencyConflictConflict: async (ctx) => {
    const post = (name: string): InjectOptions => ({
      method: 'POST',
      url: '/projects',
      headers: { ...ctx.admin.auth, 'idempotency-key': 'examples-shared' },
      payload: { name, templateId: 'mailer-box' },
    });
    expect((await ctx.app.inject(post('First'))).statusCode).toBe(201);
    return answer(ctx.app, post('Second'));
  },
  UnsupportedMediaTypeType: (ctx) =>
    answer(ctx.app, { method: 'POST', url: '/auth/login', headers: { 'content-type': 'text/plain' }, payload: 'x' }),
  TooManyRequestsLimit: async () => {
    const limited = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: String(RATE_LIMIT_EXAMPLE.max) });
    try {
      const login = { method: 'POST' as const, url: '/auth/login', payload: { email: 'nobody@example.com', password: 'not the password' } };
      for (let i = 0; i < RATE_LIMIT_EXAMPLE.max; i++) expect((await limited.inject(login)).statusCode).toBe(401);
      return await answer(limited, login);
    } finally {
      await limited.close();
    }
  },
  ServiceUnavailableClosing: async () => {
    const closing = await createTestApp();
    const { socket, response } = await connect(await listenLocally(closing));
    // A request still arriving keeps the connection open while the app starts closing; the next
    // one, pipelined behind it, arrives after.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'password1' });
    const head = `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    socket.write(`${head}${body.slice(0, 5)}`);
    await sleep(100);
    const closed = closing.close();
    await sleep(100);
    socket.write(`${body.slice(5)}GET /templates HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const rest = (await response).body.toString('latin1');
    await closed;
    const second = parseResponse(Buffer.from(rest.slice(rest.indexOf('HTTP/1.1 ')), 'latin1'));
    return { statusCode: second.statusCode, body: JSON.parse(second.body.toString('utf8')) };
  },
  UnexpectedErrorInternal: async () => {
    const failing = await buildApp(testConfig(), { logger: false });
    failing.get('/boom', async () => {
      throw new Error('a cause the client never reads');
    });
    await failing.ready();
    try {
      return await answer(failing, get('/boom'));
    } finally {
      await failing.close();
    }
  },
};

async function answer(app: App, options: InjectOptions): Promise<Answer> {
  const response = await app.inject(options);
  return { statusCode: response.statusCode, body: options.method === 'HEAD' ? undefined : response.json() };
}

function differs(name: string, expected: Answer, got: Answer): string | undefined {
  const [want, have] = [JSON.stringify(expected), JSON.stringify(got)];
  return want === have ? undefined : `${name}: expected ${want}, got ${have}`;
}

async function fill(ctx: Context, url: string, count: number, payload: (i: number) => object | undefined, headers: Record<string, string>) {
  for (let i = 0; i < count; i++) {
    const body = payload(i);
    const response = await ctx.app.inject({ method: 'POST', url, headers, ...(body ? { payload: body } : {}) });
    expect(response.statusCode, response.body).toBe(201);
  }
}

describe(`OpenAPI error examples (${engineName()})`, () => {
  let scratch: ScratchDatabase | undefined;
  let ctx: Context;
  let doc: Document;

  beforeAll(async () => {
    // Its own database, where the one administrator this test makes is the last one.
    const url = databaseUrl();
    scratch = url ? await createMigratedScratchDatabase(url, 'pf_examples') : undefined;
    const env = { MOCKUP_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
    const app = await createTestApp(env);
    const owner = await registerAccount(app);
    const full = await registerAccount(app);
    const admin = await registerAdmin(app);
    const key = { 'x-api-key': (await issueKey(app, owner)).key };
    const fullKey = { 'x-api-key': (await issueKey(app, full)).key };
    const projectId = await createProject(app, owner, 'mailer-box', {}, MAILER);
    const fullProjectId = await createProject(app, full, 'mailer-box', {}, MAILER);
    const webhook = await app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: owner.auth,
      payload: { url: 'http://127.0.0.1:9/hook', events: ['export.succeeded'] },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const webhookId = webhook.json<{ webhook: { id: string } }>().webhook.id;
    ctx = { app, owner, key, full, fullKey, admin, projectId, fullProjectId, webhookId };
    await fill(ctx, '/projects', 2, (i) => ({ name: `Filler ${i}`, templateId: 'mailer-box' }), full.auth);
    await fill(ctx, '/api-keys', API_KEY_LIMIT - 1, () => undefined, full.auth);
    await fill(ctx, '/webhooks', WEBHOOKS_PER_ACCOUNT, (i) => ({ url: `http://127.0.0.1:9/n${i}`, events: ['export.failed'] }), full.auth);
    doc = app.swagger() as unknown as Document;
  });
  afterAll(async () => {
    await ctx?.app.close();
    await scratch?.drop();
  });

  it('produces every route-specific example with its recipe, and has no recipe without an example', async () => {
    const problems: string[] = [];
    const used = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const json = response.content?.['application/json'];
          if (response.$ref || !/^[45]\d\d$|^default$/.test(status) || !json) continue;
          const own = json.example ?? Object.values(json.examples ?? {}).find((example) => !example.$ref)?.value;
          const name = `${operation.operationId} ${status}`;
          const recipe = RECIPES[name];
          if (!recipe) {
            problems.push(`${name} (${method.toUpperCase()} ${path}): no recipe`);
            continue;
          }
          used.add(name);
          const got = await answer(ctx.app, await recipe(ctx));
          const expected = method === 'head' ? { statusCode: Number(status), body: undefined } : { statusCode: Number(status), body: own };
          const difference = differs(name, expected, got);
          if (difference) problems.push(difference);
        }
      }
    }
    for (const name of Object.keys(RECIPES)) if (!used.has(name)) problems.push(`${name}: a recipe for no example`);
    expect(problems).toEqual([]);
  });

  it('produces each shared answer once', async () => {
    const problems: string[] = [];
    const referenced = new Set<string>();
    for (const response of Object.values(doc.components.responses)) {
      for (const example of Object.values(response.content?.['application/json']?.examples ?? {})) {
        referenced.add(example.$ref?.replace('#/components/examples/', '') ?? '');
      }
    }
    expect([...referenced].sort()).toEqual(Object.keys(doc.components.examples).sort());
    for (const [name, example] of Object.entries(doc.components.examples)) {
      const recipe = SHARED_RECIPES[name];
      if (!recipe) {
        problems.push(`${name}: no recipe`);
        continue;
      }
      const got = await recipe(ctx);
      const expected = { statusCode: (example.value as { statusCode: number }).statusCode, body: example.value };
      const difference = differs(name, expected, got);
      if (difference) problems.push(difference);
    }
    for (const name of Object.keys(SHARED_RECIPES)) {
      if (!(name in doc.components.examples)) problems.push(`${name}: a recipe for no example`);
    }
    expect(problems).toEqual([]);
  }, 90_000);
});
