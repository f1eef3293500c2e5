import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { DOCS_PREFIX, OPENAPI_PATH, TAGS } from '../../src/plugins/openapi.js';
import { createTestApp, engineName } from '../helpers/app.js';

interface Operation {
  operationId?: string;
  description?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema?: Record<string, unknown>; encoding?: unknown }> };
  responses: Record<string, ResponseObject>;
}
interface ResponseObject {
  $ref?: string;
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: { $ref?: string }; example?: unknown; examples?: Record<string, ExampleObject> }>;
}
interface ExampleObject {
  $ref?: string;
  value?: unknown;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  security?: unknown;
  tags: Array<{ name: string; description?: string }>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
    responses: Record<string, ResponseObject>;
    examples: Record<string, { value: unknown }>;
  };
  paths: Record<string, Record<string, Operation>>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Every documented operation as "METHOD /path/:param". */
function documentedOperations(doc: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      operations.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, operation);
    }
  }
  return operations;
}

const isMetaRoute = (path: string) =>
  path === OPENAPI_PATH || path === DOCS_PREFIX || path.startsWith(`${DOCS_PREFIX}/`);

/**
 * Every route in the router, as "METHOD /path", read from app.printRoutes(): a source independent
 * of @fastify/swagger's own route collection. Any line that does not parse fails the test.
 */
function registeredRoutes(app: App): Set<string> {
  const routes = new Set<string>();
  const stack: string[] = [];
  const lines = app.printRoutes({ commonPrefix: false }).split('\n').filter((line) => line.trim() !== '');
  for (const line of lines) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) throw new Error(`Unexpected printRoutes line: ${JSON.stringify(line)}`);
    const [, indent = '', segment = '', methods = ''] = match;
    const depth = indent.length / 4;
    stack.length = depth;
    stack.push(segment);
    const fullPath = stack.join('');
    // '/x/' is the same route as '/x' (a route '/' registered under a prefix answers both).
    const path = fullPath.length > 1 ? fullPath.replace(/\/+$/, '') : fullPath;
    if (isMetaRoute(path)) continue;
    for (const method of methods.split(', ')) {
      if (method !== 'HEAD') routes.add(`${method} ${path}`);
    }
  }
  return routes;
}

// The contract's endpoint table (service-spec §4), plus the readiness probe of the decisions file.
const SPEC_ENDPOINTS = [
  'GET /health',
  'GET /health/ready',
  'POST /auth/register',
  'POST /auth/login',
  'GET /auth/me',
  'GET /templates',
  'GET /templates/:id',
  'GET /projects',
  'POST /projects',
  'GET /projects/:id',
  'PUT /projects/:id',
  'DELETE /projects/:id',
  'POST /assets',
  'GET /assets',
  'GET /files/:name',
  'POST /api-keys',
  'GET /api-keys',
  'DELETE /api-keys/:id',
  'GET /v1/templates',
  'GET /v1/templates/:id',
  // extensions.md §5
  'PUT /auth/password',
  'DELETE /auth/sessions',
  'DELETE /auth/me',
  'GET /admin/users',
  'GET /admin/users/:id',
  'PUT /admin/users/:id',
  'DELETE /admin/users/:id',
];

type Surface = 'public' | 'account' | 'v1';

/** Which credential a path needs (service-spec §5). A path matching none fails the test. */
function surfaceOf(path: string): Surface | undefined {
  if (path.startsWith('/v1/')) return 'v1';
  // An export's signed download link is its own credential.
  if (/^\/exports\/(\{id\}|:id)\/download$/.test(path)) return 'public';
  if (/^\/(exports|webhooks)(\/|$)/.test(path)) return 'account';
  if (/^\/(auth\/(me|password|sessions)|projects|assets|barcodes|fonts|api-keys|admin)(\/|$)/.test(path)) return 'account';
  if (path === '/' || /^\/(health|auth\/register|auth\/login|templates|files|viewer|shared)(\/|$)/.test(path)) return 'public';
  return undefined;
}

async function fetchDocument(app: App): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json<OpenApiDocument>();
}

describe(`OpenAPI document (${engineName()})`, () => {
  let app: App;
  let doc: OpenApiDocument;
  let operations: Map<string, Operation>;

  /** A shared response in place of its reference. */
  const resolve = (response: ResponseObject | undefined) =>
    response?.$ref ? doc.components.responses[response.$ref.replace('#/components/responses/', '')] : response;
  const exampleValue = (example: { $ref?: string; value?: unknown }) =>
    example.$ref ? doc.components.examples[example.$ref.replace('#/components/examples/', '')]?.value : example.value;

  beforeAll(async () => {
    app = await createTestApp();
    doc = await fetchDocument(app);
    operations = documentedOperations(doc);
  });
  afterAll(async () => {
    await app.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('carries the service title, the package version and a description', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(doc.info.title).toBe('Packaging Template and Project Service');
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.info.description).toContain('ApiError');
  });

  it('documents exactly the registered routes', () => {
    const registered = registeredRoutes(app);
    expect(registered.size).toBeGreaterThan(10);
    // HEAD is left out on both sides: the router cannot tell Fastify's automatic HEAD routes from
    // declared ones, and a declared HEAD (GET /files/:name) is documented next to its GET.
    const documented = [...operations.keys()].filter((key) => !key.startsWith('HEAD '));
    expect(documented.sort()).toEqual([...registered].sort());
  });

  it('documents every endpoint of the contract', () => {
    expect([...operations.keys()]).toEqual(expect.arrayContaining(SPEC_ENDPOINTS));
  });

  it('hides its own meta routes', () => {
    for (const key of operations.keys()) {
      expect(isMetaRoute(key.split(' ')[1] ?? ''), key).toBe(false);
    }
  });

  it('declares bearerAuth on account routes, apiKey on /v1 routes and nothing on public routes', () => {
    expect(doc.security).toBeUndefined();
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      metricsToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    for (const [key, operation] of operations) {
      // Operators' scrape endpoint: its own token, no client surface.
      if (key === 'GET /metrics') {
        expect(operation.security, key).toEqual([{ metricsToken: [] }]);
        continue;
      }
      const surface = surfaceOf(key.split(' ')[1] ?? '');
      expect(surface, `${key} is on no known surface`).toBeDefined();
      if (surface === 'account') expect(operation.security, key).toEqual([{ bearerAuth: [] }]);
      if (surface === 'v1') expect(operation.security, key).toEqual([{ apiKey: [] }]);
      // Explicit everywhere: [] says "no credential", which generators and linters rely on.
      if (surface === 'public') expect(operation.security, key).toEqual([]);
    }
  });

  it('gives every operation a summary, a described tag, a success response and ApiError 4xx responses', () => {
    const tagNames = doc.tags.map((tag) => tag.name);
    expect(tagNames).toEqual(TAGS.map((tag) => tag.name));
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    for (const [key, operation] of operations) {
      expect(operation.summary, key).toMatch(/\S/);
      expect(operation.summary, key).not.toContain('\n');
      expect(operation.tags?.length, key).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(tagNames, key).toContain(tag);
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((status) => /^[23]\d\d$/.test(status)), `${key} has no 2xx or 3xx`).toBe(true);
      const clientErrors = statuses.filter((status) => /^4\d\d$/.test(status));
      expect(clientErrors.length, `${key} has no 4xx`).toBeGreaterThan(0);
      for (const status of statuses.filter((status) => /^[45]\d\d$|^default$/.test(status))) {
        const json = resolve(operation.responses[status])?.content?.['application/json'];
        expect(json?.schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/ApiError' });
        const examples = json?.example ? [json.example] : Object.values(json?.examples ?? {}).map((example) => exampleValue(example));
        expect(examples.length, `${key} ${status}`).toBeGreaterThan(0);
        for (const example of examples) {
          expect(example, `${key} ${status}`).toMatchObject({ statusCode: status === 'default' ? 500 : Number(status) });
        }
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description, `${key} ${status}`).not.toBe('Default Response');
      }
    }
  });

  it('names every operation with a unique camelCase operationId and describes it', () => {
    const ids = [...operations.values()].map((operation) => operation.operationId);
    for (const [key, operation] of operations) {
      expect(operation.operationId, key).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(operation.description, key).toMatch(/\S/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.get('GET /projects')?.operationId).toBe('listProjects');
    expect(operations.get('GET /projects/:id')?.operationId).toBe('getProject');
    expect(operations.get('POST /projects')?.operationId).toBe('createProject');
    expect(operations.get('GET /v1/templates/:id')?.operationId).toBe('getV1Template');
    expect(operations.get('HEAD /files/:name')?.operationId).toBe('headFile');
  });

  it('documents a default ApiError, x-request-id on every answer and the rate-limit headers where a 429 is possible', () => {
    for (const [key, operation] of operations) {
      expect(operation.responses.default, key).toBeDefined();
      for (const [status, documented] of Object.entries(operation.responses)) {
        const response = resolve(documented);
        expect(response?.headers?.['x-request-id'], `${key} ${status}`).toEqual({ $ref: '#/components/headers/XRequestId' });
        const limited = '429' in operation.responses;
        // A shared response (components/responses) documents the rate-limit headers as sent where a 429 is.
        expect(response?.headers?.['x-ratelimit-remaining'] !== undefined, `${key} ${status}`).toBe(limited || !!documented.$ref);
        expect(response?.headers?.['retry-after'] !== undefined, `${key} ${status}`).toBe(status === '429' || status === '503');
      }
    }
    expect(Object.keys(operations.get('POST /auth/login')?.responses ?? {})).toContain('429');
    expect(Object.keys(operations.get('GET /v1/templates')?.responses ?? {})).toContain('429');
  });

  it('states the rules the service enforces as schema keywords', () => {
    const body = (key: string) =>
      operations.get(key)?.requestBody?.content['application/json']?.schema as { properties: Record<string, Record<string, unknown>> };
    expect(body('POST /auth/register').properties).toMatchObject({
      email: { format: 'email', maxLength: 254 },
      password: { minLength: 8, maxLength: 72 },
      name: { minLength: 1, maxLength: 100 },
    });
    expect(body('POST /projects').properties.name).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(body('POST /projects').properties.artworkJson).toEqual({ $ref: '#/components/schemas/EditorState' });
    expect(JSON.stringify(doc)).not.toContain('x-document');
    const project = doc.components.schemas.Project as { properties: Record<string, Record<string, unknown>> };
    expect(project.properties.artworkJson).toMatchObject({ $ref: '#/components/schemas/EditorState' });
    const list = operations.get('GET /templates') as unknown as { parameters: Array<{ name: string; schema: { enum?: string[] } }> };
    expect(list.parameters.find((parameter) => parameter.name === 'category')?.schema.enum).toHaveLength(10);
  });

  it('documents POST /api-keys as taking no body', () => {
    const issue = operations.get('POST /api-keys') as unknown as { requestBody?: { required?: boolean } };
    expect(issue.requestBody?.required).toBe(false);
  });

  it('sends a person who opens / to the documentation, and keeps the API JSON elsewhere', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/docs');
    const missing = await app.inject({ method: 'GET', url: '/nowhere' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('requires a key on every /v1 operation and documents its 401', () => {
    const v1 = [...operations].filter(([key]) => key.includes(' /v1/'));
    expect(v1.length).toBeGreaterThan(0);
    for (const [key, operation] of v1) expect(Object.keys(operation.responses), key).toContain('401');
  });

  it('lists the shared schemas under components/schemas by their $id', () => {
    for (const name of ['ApiError', 'Template', 'Category', 'User']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    const names = Object.keys(doc.components.schemas);
    expect(names.filter((name) => /^def-\d+$/.test(name))).toEqual([]);
    expect(JSON.stringify(doc)).not.toMatch(/#\/components\/schemas\/def-\d+/);
  });

  it('documents the request schemas the routes validate with', () => {
    const register = operations.get('POST /auth/register');
    const schema = register?.requestBody?.content['application/json']?.schema;
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['email', 'password', 'name'],
    });
    const list = operations.get('GET /templates') as unknown as { parameters: Array<{ name: string; in: string }> };
    expect(list.parameters.map((parameter) => `${parameter.in}:${parameter.name}`).sort()).toEqual([
      'query:category',
      'query:q',
    ]);
  });

  it('documents the upload as multipart/form-data with a binary file part', () => {
    const upload = operations.get('POST /assets');
    const media = upload?.requestBody?.content['multipart/form-data'];
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(media?.schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    expect(Object.keys(upload?.responses ?? {})).toEqual(expect.arrayContaining(['201', '400', '401', '413', '415']));
  });

  it('documents the file download as image bytes', () => {
    const download = operations.get('GET /files/:name');
    expect(download?.responses['200']?.content).toEqual({ 'image/*': { schema: { type: 'string', format: 'binary' } } });
    expect(Object.keys(download?.responses ?? {})).toContain('404');
    const head = operations.get('HEAD /files/:name');
    expect(head?.responses['200']).toBeDefined();
    expect(head?.responses['200']?.content).toBeUndefined();
  });

  it('points servers at the root when PUBLIC_BASE_URL is unset', () => {
    expect(doc.servers?.map((server) => server.url)).toEqual(['/']);
  });

  it('serves Swagger UI at /docs with working assets', async () => {
    for (const url of [DOCS_PREFIX, `${DOCS_PREFIX}/`]) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const assets = [...page.body.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1] ?? '');
      expect(assets.length).toBeGreaterThanOrEqual(5);
      for (const asset of assets) {
        const resolved = new URL(asset, `http://localhost${url}`).pathname;
        const response = await app.inject({ method: 'GET', url: resolved });
        expect(response.statusCode, `${url} → ${resolved}`).toBe(200);
      }
    }
    const json = await app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json` });
    expect(json.json()).toEqual(doc);
  });
});

describe(`OpenAPI document behind a proxy prefix (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ PUBLIC_BASE_URL: 'https://example.com/api' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('redirects / to the documentation under the prefix', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/api/docs');
  });

  it('points servers at PUBLIC_BASE_URL and keeps the paths unprefixed', async () => {
    const doc = await fetchDocument(app);
    expect(doc.servers?.map((server) => server.url)).toEqual(['https://example.com/api']);
    expect(Object.keys(doc.paths)).toContain('/health');
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/api/'))).toEqual([]);
  });

  it('links the Swagger UI assets under the external prefix', async () => {
    const page = await app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(page.statusCode).toBe(200);
    const assets = [...page.body.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/api\/docs\/static\//);
      // Through the proxy, /api is stripped again before the route is matched.
      const response = await app.inject({ method: 'GET', url: asset.replace(/^\/api/, '') });
      expect(response.statusCode, asset).toBe(200);
    }
  });
});
