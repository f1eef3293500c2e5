// Hostile input against every route the app has (read from the app itself, so a route added later
// is fuzzed too): random and crafted bodies, query strings, path parameters, content types and
// credentials. The service never answers 5xx, never crashes, and every answer is either a success
// or exactly an ApiError { statusCode, error, message } matching the HTTP status.
import { createHmac } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, TEST_JWT_SECRET } from '../helpers/app.js';
import { imageFixture } from '../helpers/images.js';
import { multipartBody } from '../helpers/multipart.js';
import { connect, requestHead } from '../helpers/raw-http.js';

// A fixed seed keeps CI reproducible; FUZZ_SEED=<n> replays or explores another sequence, and
// FUZZ_SEED=random draws a new one (fast-check prints it with any failure).
const FUZZ_SEED =
  process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20261122);

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];

interface Route {
  method: Method;
  /** With :params and * as registered, e.g. /projects/:id. */
  path: string;
}

/** Every (method, path) the app serves, read from printRoutes' tree (commonPrefix: false). */
function routesOf(app: App): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    const path = stack.join('').replace(/\/{2,}/g, '/');
    for (const method of (match[3] ?? '').split(',').map((value) => value.trim())) {
      if ((METHODS as readonly string[]).includes(method)) routes.push({ method: method as Method, path });
    }
  }
  return routes;
}

// ---- building blocks -------------------------------------------------------------------------

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function jwt(header: object, payload: unknown, secret: string | null = TEST_JWT_SECRET): string {
  const head = `${b64url(header)}.${b64url(payload)}`;
  return secret === null ? `${head}.` : `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const FIELD_KEYS = [
  'name', 'templateId', 'widthMm', 'heightMm', 'depthMm', 'artworkJson', 'email', 'password', 'dimensions', 'material', 'thicknessMm',
  'finish', 'background', 'kind', 'value', 'lighting', 'artworks', 'id', 'userId', 'plan', 'q', 'category', 'toString', 'hasOwnProperty',
  '',
];

const hostileKey = fc.oneof(fc.constantFrom(...PROTO_KEYS, ...FIELD_KEYS), fc.string({ maxLength: 12 }));

/** JSON number literals, including ones JavaScript cannot hold and ones JSON forbids. */
const numberText = fc.oneof(
  fc.constantFrom(
    '1e309', '-1e309', '-0', '0', '1e-400', '123456789012345678901234567890', '3000', '3000.0000001', '0.9999999', '1', '2.5',
  ),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '0x10', '1_000', '01', '.5', '+1', '1e', '--1'),
  fc.double().map((value) => (Number.isFinite(value) ? JSON.stringify(value) : String(value))),
  fc.integer().map(String),
);

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '', ' ', '\u0000', 'a\u0000b', 'mailer-box', 'rsc-box', '<script>alert(1)</script>', "' OR 1=1 --", '../../etc/passwd', '..%2f..%2f',
    '%00', 'é'.repeat(40), '😀'.repeat(60), '\u202e', '\t\n\r',
  ),
  fc.integer({ min: 200, max: 1_200_000 }).map((length) => 'x'.repeat(length)),
);

/** JSON string literals, including escapes JSON allows but UTF-8 cannot carry (lone surrogates). */
const stringText = fc.oneof(
  hostileString.map((value) => JSON.stringify(value)),
  fc.constantFrom('"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"\\x41"', '"unterminated', "'single'"),
);

const leafText = fc.oneof(numberText, stringText, fc.constantFrom('true', 'false', 'null', 'undefined', ''));

const { jsonText } = fc.letrec<{ jsonText: string; arrayText: string; objectText: string }>((tie) => ({
  jsonText: fc.oneof({ depthSize: 'small' }, leafText, tie('arrayText'), tie('objectText')),
  arrayText: fc.array(tie('jsonText'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  objectText: fc
    .array(fc.tuple(hostileKey, tie('jsonText')), { maxLength: 5 })
    .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
}));

const deepText = fc.oneof(
  fc.integer({ min: 50, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 50, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.integer({ min: 50, max: 5_000 }).map((depth) => {
    const nested = `${'{"dimensions":'.repeat(depth)}{}${'}'.repeat(depth)}`;
    return `{"name":"n","templateId":"mailer-box","artworkJson":${nested}}`;
  }),
);

const VALID_STATE = {
  templateId: 'mailer-box',
  dimensions: { widthMm: 100, heightMm: 50, depthMm: 30 },
  material: 'cardboard',
  thicknessMm: 0.5,
  finish: 'matte',
  background: { kind: 'color', value: '#ffffff' },
  lighting: 'studio',
  artworks: [{ id: 'a1', panelId: 'front', imageUrl: 'https://example.com/a.png', offsetX: 0, offsetY: 0, scale: 1, rotationDeg: 0 }],
};

/** Valid bodies for the routes that take JSON: mutating one field at a time gets past the outer checks. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /auth/register': { email: 'fuzz@example.com', password: 'correct horse battery', name: 'Fuzz' },
  'POST /auth/login': { email: 'fuzz@example.com', password: 'correct horse battery' },
  'POST /projects': { name: 'Fuzzed', templateId: 'mailer-box', widthMm: 100, heightMm: 50, depthMm: 30, artworkJson: VALID_STATE },
  'PUT /projects/:id': { name: 'Fuzzed', templateId: 'rsc-box', widthMm: 10, artworkJson: VALID_STATE },
};

/** value as JSON text, with the value at `path` replaced by `replacement` (raw JSON text). */
function withReplaced(value: unknown, path: string[], replacement: string, extraKey: string | null): string {
  if (path.length === 0) return replacement;
  if (Array.isArray(value)) {
    const index = Number(path[0]) % Math.max(value.length, 1);
    const items = value.map((item, i) => (i === index ? withReplaced(item, path.slice(1), replacement, extraKey) : JSON.stringify(item)));
    return `[${items.join(',')}]`;
  }
  const record = (value ?? {}) as Record<string, unknown>;
  const entries = Object.entries(record).map(([key, item]) =>
    key === path[0]
      ? `${JSON.stringify(key)}:${withReplaced(item, path.slice(1), replacement, extraKey)}`
      : `${JSON.stringify(key)}:${JSON.stringify(item)}`,
  );
  if (!(path[0] in record)) entries.push(`${JSON.stringify(path[0])}:${withReplaced(undefined, path.slice(1), replacement, extraKey)}`);
  if (extraKey !== null) entries.push(`${JSON.stringify(extraKey)}:${replacement}`);
  return `{${entries.join(',')}}`;
}

function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const children = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  return [prefix, ...children.flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
}

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json\t',
  ' application/json',
  'application/json ;',
  'application/jsonx',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'image/png',
  'application/json, text/plain',
  '',
  '*/*',
  ';;;',
];

// ---- the request arbitrary ---------------------------------------------------------------------

interface Credentials {
  account: TestAccount;
  revokedKey: string;
  liveKey: string;
  projectId: string;
  fileName: string;
}

function authorizationArb(credentials: Credentials) {
  const { account } = credentials;
  const now = Math.floor(Date.now() / 1000);
  // Mostly the valid token, so requests get past the guard to the body and parameter checks.
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: fc.constant(account.auth.authorization) },
    fc.constantFrom(
      '',
      'Bearer',
      'Bearer ',
      'bearer ' + account.token,
      'Bearer  ' + account.token,
      `Bearer ${account.token} `,
      `Bearer ${account.token}, Bearer ${account.token}`,
      'Basic dXNlcjpwYXNz',
      `Bearer ${jwt({ alg: 'none', typ: 'JWT' }, { sub: account.id, iat: now, exp: now + 60 }, null)}`,
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { sub: account.id, iat: now, exp: now + 60 }, 'wrong-secret-wrong-secret-wrong-secret')}`,
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { sub: account.id, iat: now - 100, exp: now - 10 })}`,
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, [account.id])}`,
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { sub: { $ne: null }, exp: now + 60 })}`,
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, { sub: 'x'.repeat(5000), exp: now + 60 })}`,
      `Bearer ${jwt({ alg: 'HS256', typ: 'JWT', jku: 'http://127.0.0.1:1/jwks', kid: '../../x' }, { sub: account.id, exp: now + 60 })}`,
      `Bearer ${jwt({ alg: 'RS256', typ: 'JWT' }, { sub: account.id, exp: now + 60 })}`,
      `Bearer ${'a'.repeat(64 * 1024)}`,
      `Bearer ${'a.'.repeat(10_000)}a`,
    ),
    fc.string({ unit: 'binary', maxLength: 80 }).map((value) => `Bearer ${value}`),
  );
}

function apiKeyArb(credentials: Credentials) {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: fc.constant(credentials.liveKey) },
    fc.constantFrom(
      credentials.revokedKey,
      '',
      ' ',
      `pf_${'A'.repeat(48)}`,
      `${credentials.liveKey}, ${credentials.liveKey}`,
      ` ${credentials.liveKey}\t`,
      `pf_${'0'.repeat(47)}`,
      'pf_' + 'f'.repeat(64 * 1024),
      credentials.account.token,
    ),
    fc.string({ unit: 'binary', maxLength: 60 }),
  );
}

function paramArb(credentials: Credentials) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(credentials.projectId, credentials.fileName, 'mailer-box', 'rsc-box') },
    fc.string({ maxLength: 30 }).map(encodeURIComponent),
    fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent),
    // Pre-encoded as a client might send them: traversal, NUL, broken percent-encoding.
    fc.constantFrom(
      '%ff', '%', '%%', '%E0%A4%A', '%00', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '..', '.', '%2F', '__proto__', 'constructor', 'a%20b',
      'x'.repeat(5000), `${credentials.fileName}%00.png`, `..%5c..%5cwindows`,
    ),
  );
}

function queryArb() {
  const value = fc.oneof(hostileString.filter((text) => text.length < 5000), fc.constantFrom('mailer-boxes', 'box', ''));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant('') },
    fc
      .array(fc.tuple(fc.oneof(hostileKey, fc.constantFrom('a[b]', '__proto__[x]', 'q[]', 'constructor[prototype][x]')), value), {
        maxLength: 4,
      })
      .map((pairs) => `?${pairs.map(([key, item]) => `${encodeURIComponent(key)}=${encodeURIComponent(item)}`).join('&')}`),
    fc.constantFrom(
      '?', '?&&&', '?=', '?q', '?q=%ff', '?q=%', '?q=a&q=b', '?category=mailer-boxes&category=tubes', `?q=${'a'.repeat(300)}`,
      '?q=%E0%A4%A', '?__proto__=x', '?constructor=y',
    ),
  );
}

interface BodyChoice {
  contentType: string | undefined;
  payload: string | Buffer | undefined;
}

function bodyArb(route: Route): fc.Arbitrary<BodyChoice> {
  const key = `${route.method} ${route.path}`;
  const valid = VALID_BODIES[key];
  const contentType = fc.oneof(
    { weight: 3, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom(...JSON_TYPES) },
  );
  const choices: Array<fc.Arbitrary<BodyChoice>> = [
    fc.constant({ contentType: undefined, payload: undefined }),
    fc.record({ contentType, payload: jsonText }),
    fc.record({ contentType, payload: deepText }),
    fc.record({ contentType, payload: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) }),
    // Invalid UTF-8 inside an otherwise valid JSON string.
    fc.record({
      contentType,
      payload: fc.constant(
        Buffer.concat([
          Buffer.from('{"name":"'),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
          Buffer.from('","templateId":"mailer-box"}'),
        ]),
      ),
    }),
  ];
  if (valid !== undefined) {
    const paths = pathsOf(valid).filter((path) => path.length > 0);
    const mutated = fc
      .tuple(fc.constantFrom(...paths), fc.oneof(jsonText, deepText), fc.option(fc.constantFrom(...PROTO_KEYS, 'extra'), { nil: null }))
      .map(([path, replacement, extra]) => withReplaced(valid, path, replacement, extra));
    // Weighted up: one bad field in an otherwise valid body reaches the deepest checks.
    choices.push(...Array.from({ length: 4 }, () => fc.record({ contentType, payload: mutated })));
    choices.push(fc.record({ contentType: fc.constant('application/json'), payload: fc.constant(JSON.stringify(valid)) }));
  }
  return fc.oneof(...choices);
}

const hostileMultipart = fc
  .record({
    name: fc.constantFrom('file', '__proto__', 'constructor', 'prototype', '', 'file[]', 'x'.repeat(300)),
    filename: fc.option(fc.constantFrom('a.png', '../../etc/passwd', '..\\..\\x.png', '', '\u0000.png', 'é.png', 'x'.repeat(400)), {
      nil: undefined,
    }),
    contentType: fc.option(fc.constantFrom('image/png', 'image/svg+xml', 'text/html', 'application/octet-stream', 'image/', ''), {
      nil: undefined,
    }),
    data: fc.oneof(
      fc.constant(imageFixture('tiny.png')),
      fc.constant(imageFixture('scripted.svg')),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    ),
    extraParts: fc.nat(8),
    truncate: fc.boolean(),
    boundary: fc.constantFrom('b', 'x'.repeat(70), 'x'.repeat(300), '----pf-fuzz', 'a b', '"quoted"'),
  })
  .map(({ extraParts, truncate, boundary, ...part }) => {
    const parts = [part, ...Array.from({ length: extraParts }, (_, i) => ({ name: `f${i}`, data: 'v' }))];
    const built = multipartBody(parts, boundary);
    return {
      contentType: built.contentType,
      payload: truncate ? built.body.subarray(0, Math.floor(built.body.length / 2)) : built.body,
    } satisfies BodyChoice;
  });

function requestArb(routes: Route[], credentials: Credentials): fc.Arbitrary<InjectOptions & { route: Route }> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        params: fc.array(paramArb(credentials), { minLength: 3, maxLength: 3 }),
        tail: fc.oneof(
          fc.constantFrom('', 'index.html', '../../../../etc/passwd', '%2e%2e/%2e%2e/package.json', 'static/../../x'),
          fc.string({ maxLength: 20 }).map(encodeURIComponent),
        ),
        query: queryArb(),
        authorization: authorizationArb(credentials),
        apiKey: apiKeyArb(credentials),
        body: route.path.startsWith('/assets') && route.method === 'POST' ? fc.oneof(bodyArb(route), hostileMultipart) : bodyArb(route),
        accept: fc.option(fc.constantFrom('application/json', 'text/html', '*/*', 'image/png', ''), { nil: undefined }),
        ifNoneMatch: fc.option(fc.constantFrom('*', '"x"', 'W/"x"', '', 'x'.repeat(2000)), { nil: undefined }),
        requestId: fc.option(fc.constantFrom('', 'a'.repeat(1000), '\u0000', 'ok-id'), { nil: undefined }),
      })
      .map(({ params, tail, query, authorization, apiKey, body, accept, ifNoneMatch, requestId }) => {
        let index = 0;
        const url = route.path.replace(/:[A-Za-z0-9_]+/g, () => params[index++ % params.length]).replace(/\*$/, tail) + query;
        const headers: Record<string, string> = {};
        if (authorization !== undefined) headers.authorization = authorization;
        if (apiKey !== undefined) headers['x-api-key'] = apiKey;
        if (body.contentType !== undefined) headers['content-type'] = body.contentType;
        if (accept !== undefined) headers.accept = accept;
        if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
        if (requestId !== undefined) headers['x-request-id'] = requestId;
        return { route, method: route.method, url, headers, ...(body.payload !== undefined ? { payload: body.payload } : {}) };
      }),
  );
}

// ---- the oracle --------------------------------------------------------------------------------

/** Fails the property when the answer is a 5xx or an error that is not exactly an ApiError. */
function checkAnswer(method: string, url: string, statusCode: number, body: string, contentType: string | undefined): void {
  const where = `${method} ${url.slice(0, 200)} → ${statusCode} ${body.slice(0, 300)}`;
  expect(statusCode, where).toBeLessThan(500);
  if (statusCode >= 400) {
    if (method === 'HEAD') return;
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(parsed).sort(), where).toEqual(['error', 'message', 'statusCode']);
    expect(parsed.statusCode, where).toBe(statusCode);
    expect(parsed.error, where).toBe(STATUS_CODES[statusCode]);
    expect(typeof parsed.message === 'string' && parsed.message.length > 0, where).toBe(true);
    expect(contentType, where).toMatch(/^application\/json/);
    return;
  }
  if (statusCode === 204 || statusCode === 304 || method === 'HEAD') {
    expect(body, where).toBe('');
    return;
  }
  if (contentType?.startsWith('application/json')) expect(() => JSON.parse(body), where).not.toThrow();
}

// ---- the tests ---------------------------------------------------------------------------------

describe(`hostile input (${engineName()})`, () => {
  let app: App;
  let routes: Route[];
  let credentials: Credentials;

  beforeAll(async () => {
    app = await createTestApp();
    routes = routesOf(app);
    const account = await registerAccount(app);
    const project = await app.inject({
      method: 'POST',
      url: '/projects',
      headers: account.auth,
      payload: { name: 'p', templateId: 'mailer-box' },
    });
    const issue = () => app.inject({ method: 'POST', url: '/api-keys', headers: account.auth });
    const live = (await issue()).json().apiKey;
    const revoked = (await issue()).json().apiKey;
    await app.inject({ method: 'DELETE', url: `/api-keys/${revoked.id}`, headers: account.auth });
    const upload = multipartBody([{ name: 'file', filename: 'a.png', contentType: 'image/png', data: imageFixture('tiny.png') }]);
    const asset = await app.inject({
      method: 'POST',
      url: '/assets',
      headers: { ...account.auth, 'content-type': upload.contentType },
      payload: upload.body,
    });
    credentials = {
      account,
      liveKey: live.key,
      revokedKey: revoked.key,
      projectId: project.json().project.id,
      fileName: asset.json().asset?.name ?? 'missing.png',
    };
  });
  afterAll(() => app?.close());

  it('reads the route list from the app itself', () => {
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    for (const expected of [
      'GET /health', 'GET /health/ready', 'POST /auth/register', 'POST /auth/login', 'GET /auth/me', 'GET /templates/:id',
      'GET /v1/templates', 'POST /projects', 'PUT /projects/:id', 'DELETE /projects/:id', 'DELETE /api-keys/:id',
    ]) {
      expect(keys).toContain(expected);
    }
  });

  it('never answers 5xx or a non-ApiError error, whatever the route, ' +
    'body, query, params or credentials', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(requestArb(routes, credentials), async ({ route: _route, ...options }) => {
        const response = await app.inject(options);
        checkAnswer(
          String(options.method),
          String(options.url),
          response.statusCode,
          response.body,
          response.headers['content-type'] as string | undefined,
        );
      }),
      { numRuns: 2500, seed: FUZZ_SEED },
    );
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('answers every path parameter of every route, whatever its bytes, without a 5xx', { timeout: 60_000 }, async () => {
    const hostile = [
      '%00', 'a%00b', `${credentials.projectId}%00`, '%ff', '%C0%AF', '%ED%A0%80', '%F0%9F%98%80', '%E2%80%AE', '%20', '%09', '%0A', '..',
      '%2e%2e%2f%2e%2e', '%5C', 'x'.repeat(10_000), '__proto__', 'constructor', '%7B%7D', "'%3B--", '0', '-1', '1e309', 'NaN',
    ];
    for (const route of routes.filter((candidate) => /[:*]/.test(candidate.path))) {
      for (const value of hostile) {
        const url = route.path.replace(/:[A-Za-z0-9_]+/g, value).replace(/\*$/, value);
        const headers = { ...credentials.account.auth, 'x-api-key': credentials.liveKey };
        const response = await app.inject({ method: route.method, url, headers });
        checkAnswer(route.method, url, response.statusCode, response.body, response.headers['content-type'] as string | undefined);
      }
    }
  });

  it('answers every field of every JSON body, whatever its value, without a 5xx', { timeout: 60_000 }, async () => {
    const values = [
      '"a\\u0000b"', '"\\ud800"', '"\\udfff\\ud800x"', '1e309', '-0', '-1e-400', `"${'x'.repeat(20_000)}"`, 'null', 'true', '{}', '[]',
      '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '[[[[[[[[[[]]]]]]]]]]',
    ];
    const project = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: `sweep-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Sweep' },
    });
    const auth = { authorization: `Bearer ${project.json().token}` };
    const created = await app.inject({
      method: 'POST',
      url: '/projects',
      headers: auth,
      payload: { name: 'sweep', templateId: 'mailer-box' },
    });
    const projectId = created.json().project.id as string;
    for (const [key, valid] of Object.entries(VALID_BODIES)) {
      const [method, routePath] = key.split(' ') as [Method, string];
      const url = routePath.replace(':id', projectId);
      for (const path of pathsOf(valid).filter((candidate) => candidate.length > 0)) {
        for (const value of values) {
          const payload = withReplaced(valid, path, value, null);
          const response = await app.inject({ method, url, headers: { ...auth, 'content-type': 'application/json' }, payload });
          checkAnswer(
            method,
            `${url} ${path.join('.')}=${value.slice(0, 40)}`,
            response.statusCode,
            response.body,
            response.headers['content-type'] as string | undefined,
          );
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers unknown methods and paths with ApiErrors', { timeout: 60_000 }, async () => {
    const pathArb = fc.oneof(
      fc.constantFrom(...routes.map((route) => route.path)).map((path) => path.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*$/, '')),
      fc.array(fc.string({ maxLength: 8 }).map(encodeURIComponent), { maxLength: 5 }).map((segments) => `/${segments.join('/')}`),
      fc.constantFrom(
        '//', '/./health', '/health/', '/HEALTH', '/v2/templates', '/.env', '/debug', '/%2e%2e/%2e%2e/etc/passwd', '/api/health', '/v1/',
        '/v1/../projects',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), pathArb, async (method, url) => {
        const response = await app.inject({ method, url });
        checkAnswer(method, url, response.statusCode, response.body, response.headers['content-type'] as string | undefined);
      }),
      { numRuns: 400, seed: FUZZ_SEED },
    );
  });

  it('answers duplicated and oversized headers over real HTTP with ApiErrors or success, never 5xx', async () => {
    const port = await (async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : 0;
    })();
    const { account, liveKey } = credentials;
    const cases: Array<[string, string, Array<[string, string]>]> = [
      ['GET', '/auth/me', [['Authorization', account.auth.authorization], ['Authorization', 'Bearer x.y.z']]],
      ['GET', '/auth/me', [['Authorization', 'Bearer x.y.z'], ['Authorization', account.auth.authorization]]],
      ['GET', '/v1/templates', [['x-api-key', liveKey], ['x-api-key', liveKey]]],
      ['GET', '/v1/templates', [['x-api-key', ''], ['x-api-key', liveKey]]],
      ['POST', '/auth/login', [['Content-Type', 'application/json'], ['Content-Type', 'text/plain'], ['Content-Length', '2']]],
      ['GET', '/projects', [['Authorization', `Bearer ${'a'.repeat(20_000)}`]]],
      ['GET', '/health', [['X-Request-Id', 'a'], ['X-Request-Id', 'b']]],
    ];
    for (const [method, target, headers] of cases) {
      const { socket, response } = await connect(port);
      const head = requestHead(method, target).toString('latin1').replace(/\r\n\r\n$/, '');
      const extra = headers.map(([name, value]) => `${name}: ${value}`).join('\r\n');
      const body = method === 'POST' ? '{}' : '';
      socket.write(`${head}\r\n${extra}\r\n\r\n${body}`);
      const answer = await response;
      const text = answer.body.toString('utf8');
      const label = `${method} ${target} ${headers.map(([name]) => name).join(',')} → ${answer.statusCode} ${text.slice(0, 200)}`;
      expect(answer.statusCode, label).toBeLessThan(500);
      if (answer.statusCode >= 400 && text !== '') {
        expect(Object.keys(JSON.parse(text)).sort(), label).toEqual(['error', 'message', 'statusCode']);
      }
    }
  });
});
