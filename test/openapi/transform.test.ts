// The OpenAPI transforms as pure functions: each route's operation, what a route patch adds, status
// descriptions, literal unions as one enum, HEAD operations without bodies, the shared conventions,
// optional bodies, the documented rules, and the whole document.
import { describe, expect, it } from 'vitest';
import { API_KEY, BEARER, PUBLIC } from '../../src/plugins/openapi-conventions.js';
import {
  applyConventions,
  completeDocument,
  describeOperations,
  documentHeadOperations,
  documentRoute,
  finishSchemas,
  sharedErrorComponents,
  type ErrorExamples,
  type PathsObject,
} from '../../src/plugins/openapi-transform.js';

const answer = (statusCode: number, error: string, message: string) => ({ statusCode, error, message });
const SCHEMA_400 = answer(400, 'Bad Request', "body must have required property 'name'.");
const NAMED = answer(400, 'Bad Request', 'name is taken by Z.');
const CONFLICT = answer(409, 'Conflict', 'Z is busy.');
const shared = (status: string, examples: ErrorExamples['shared'][string]['examples']) => ({ status, description: status, examples });
const EXAMPLES: ErrorExamples = {
  byOperation: { makeZ: { 400: NAMED, 409: CONFLICT } },
  shared: {
    BadRequest: shared('400', { schema: SCHEMA_400 }),
    ApiKeyUnauthorized: shared('401', { missing: answer(401, 'Unauthorized', 'Missing x-api-key header.') }),
    PayloadTooLarge: shared('413', { body: answer(413, 'Payload Too Large', 'Too large.') }),
    UnsupportedMediaType: shared('415', { type: answer(415, 'Unsupported Media Type', 'Not JSON.') }),
    UnexpectedError: shared('default', { internal: answer(500, 'Internal Server Error', 'Oops.') }),
  },
  exampleName: (response, example) => `${response}${example.charAt(0).toUpperCase()}${example.slice(1)}`,
};

describe('OpenAPI transforms', () => {
  it('merges a route patch into its operation: content replaces, other fields merge, headers add up', () => {
    const paths: PathsObject = {
      '/things': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: {} } } },
          responses: { '200': { description: 'OK', headers: { a: 1 } } },
        },
      },
    };
    describeOperations(
      paths,
      new Map([
        [
          'post /things',
          { requestBody: { required: false }, responses: { '200': { headers: { b: 2 } }, '304': { description: 'Not Modified' } } },
        ],
        ['get /missing', { requestBody: { required: false } }],
      ]),
    );
    const operation = paths['/things']!.post!;
    expect(operation.requestBody).toEqual({ required: false, content: { 'application/json': { schema: {} } } });
    expect(operation.responses!['200']).toEqual({ description: 'OK', headers: { a: 1, b: 2 } });
    expect(operation.responses!['304']).toEqual({ description: 'Not Modified', headers: {} });
    expect(paths['/missing']).toBeUndefined();
  });

  it('names statuses, collapses literal unions, and strips bodies from HEAD', () => {
    const paths: PathsObject = { '/x': { get: { responses: { '404': { description: 'Default Response' } } } } };
    describeOperations(paths, new Map());
    expect(paths['/x']!.get!.responses!['404']!.description).toBe('Not Found');

    const node = { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string', enum: ['b'] }] };
    finishSchemas(node);
    expect(node).toEqual({ type: 'string', enum: ['a', 'b'] });
    const mixed = { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'integer' }] };
    finishSchemas(mixed);
    expect(mixed.anyOf).toHaveLength(2);

    const body = { 'application/json': { schema: {} } };
    const withHead: PathsObject = { '/y': { get: { operationId: 'getY', responses: { '200': { description: 'OK', content: body } } } } };
    withHead['/y']!.head = withHead['/y']!.get;
    documentHeadOperations(withHead);
    expect(withHead['/y']!.head!.operationId).toBe('headY');
    expect(withHead['/y']!.head!.responses!['200']).toEqual({ description: 'OK Headers only, no body.' });
    expect(withHead['/y']!.get!.responses!['200']!.content).toBe(body);
  });

  it('gives every operation the shared answers and refuses a duplicate operationId', () => {
    const paths: PathsObject = {
      '/z': {
        post: {
          operationId: 'makeZ',
          responses: { '201': { description: 'Created' }, '400': { description: 'Bad' }, '409': { description: 'Conflict' } },
        },
      },
    };
    applyConventions(paths, EXAMPLES);
    const responses = paths['/z']!.post!.responses!;
    expect(Object.keys(responses).sort()).toEqual(['201', '400', '409', '413', '415', 'default']);
    const apiError = { $ref: '#/components/schemas/ApiError' };
    expect(responses['409']!.content!['application/json']).toEqual({ schema: apiError, example: CONFLICT });
    expect(responses['400']!.content!['application/json']!.examples).toEqual({
      schema: { $ref: '#/components/examples/BadRequestSchema' },
      route: { summary: NAMED.message, value: NAMED },
    });
    expect(responses['413']).toEqual({ $ref: '#/components/responses/PayloadTooLarge' });
    expect(responses.default).toEqual({ $ref: '#/components/responses/UnexpectedError' });
    expect(responses['201']!.headers).toHaveProperty('x-request-id');
    const twice = { get: { operationId: 'same', responses: {} } };
    expect(() => applyConventions({ '/a': twice, '/b': structuredClone(twice) }, EXAMPLES)).toThrow(/operationId same/);
  });

  it('refuses a route-specific status the examples table has no answer for', () => {
    const paths: PathsObject = { '/y': { get: { operationId: 'getY', responses: { '200': {}, '404': { description: 'Not Found' } } } } };
    expect(() => applyConventions(paths, EXAMPLES)).toThrow(/has no answer for getY 404/);
    const unguarded: PathsObject = { '/w': { get: { operationId: 'getW', responses: { '200': {}, '401': {} } } } };
    expect(() => applyConventions(unguarded, EXAMPLES)).toThrow(/has no answer for getW 401/);
    const keyed = { operationId: 'getW', security: [{ apiKey: [] }], responses: { '200': {}, '401': {} } };
    const guarded: PathsObject = { '/w': { get: keyed } };
    applyConventions(guarded, EXAMPLES);
    expect(guarded['/w']!.get!.responses!['401']).toEqual({ $ref: '#/components/responses/ApiKeyUnauthorized' });
    const shared = sharedErrorComponents(EXAMPLES);
    expect(Object.keys(shared.responses)).toEqual([
      'BadRequest',
      'ApiKeyUnauthorized',
      'PayloadTooLarge',
      'UnsupportedMediaType',
      'UnexpectedError',
    ]);
    expect(shared.examples.BadRequestSchema).toEqual({ summary: SCHEMA_400.message, value: SCHEMA_400 });
  });

  it('documents a route: its path without the trailing slash, an operationId, its guard\'s security and who may call it', () => {
    const patch = { requestBody: { required: false } };
    const route = documentRoute({
      url: '/projects/:id/duplicate/',
      methods: ['POST'],
      schema: { summary: 'Duplicate a project', 'x-openapi': patch },
      guardedBy: () => BEARER,
    });
    expect(route.url).toBe('/projects/:id/duplicate');
    expect(route.schema).toEqual({
      summary: 'Duplicate a project',
      operationId: 'postProjectDuplicate',
      security: BEARER,
      description: 'Duplicate a project.\n\nRequires `Authorization: Bearer <token>` (bearerAuth).',
    });
    expect(route.patches).toEqual([['post /projects/{id}/duplicate', patch]]);

    const listing = documentRoute({
      url: '/templates',
      methods: ['GET', 'HEAD'],
      schema: { summary: 'List', description: 'The catalog.', operationId: 'listTemplates', 'x-openapi': patch },
      guardedBy: () => PUBLIC,
    });
    expect(listing.schema).toMatchObject({
      operationId: 'listTemplates',
      security: [],
      description: 'The catalog.\n\nPublic: no credential needed.',
    });
    expect(listing.patches.map(([key]) => key)).toEqual(['get /templates']);
  });

  it('passes a hidden route through without asking for its guard, and refuses a security its guard does not enforce', () => {
    const hidden = { hide: true, summary: 'x' };
    const guardedBy = () => {
      throw new Error('not asked');
    };
    expect(documentRoute({ url: '/openapi.json', methods: ['GET'], schema: hidden, guardedBy })).toEqual({
      url: '/openapi.json',
      schema: hidden,
      patches: [],
    });
    expect(documentRoute({ url: '/', methods: ['GET'], schema: hidden, guardedBy }).url).toBe('/');
    expect(() => documentRoute({ url: '/v1/templates', methods: ['GET'], schema: { security: BEARER }, guardedBy: () => API_KEY })).toThrow(
      /declares a security its guard does not enforce/,
    );
    // A public route may document a credential it reads itself.
    const metricsToken = [{ metricsToken: [] }];
    const metrics = documentRoute({ url: '/metrics', methods: ['GET'], schema: { security: metricsToken }, guardedBy: () => PUBLIC });
    expect(metrics.schema).toMatchObject({ security: metricsToken });
  });

  it('makes a body that admits null optional, and keeps the validators of a 200 on its 304', () => {
    const noBody = { anyOf: [{ type: 'object', additionalProperties: false }, { type: 'null' }], description: 'No body.' };
    const etag = { description: 'Strong ETag.', schema: { type: 'string' } };
    const paths: PathsObject = {
      '/keys': { post: { requestBody: { required: true, content: { 'application/json': { schema: noBody } } }, responses: {} } },
      '/things/{id}': {
        get: { responses: { '200': { description: 'OK', headers: { etag } }, '304': { description: 'Not Modified' } } },
      },
      '/': { get: { responses: { '302': { description: 'Found', headers: { location: { schema: { type: 'string' } } } } } } },
    };
    applyConventions(paths, EXAMPLES);
    expect(paths['/keys']!.post!.requestBody).toEqual({
      required: false,
      content: { 'application/json': { schema: { type: 'object', additionalProperties: false, description: 'No body.' } } },
    });
    const responses = paths['/things/{id}']!.get!.responses!;
    expect(responses['200']!.headers!.etag).toEqual({ ...etag, required: true });
    expect(responses['304']!.headers!.etag).toEqual({ ...etag, required: true });
    expect(paths['/']!.get!.responses!['302']!.headers!.location).toMatchObject({ required: true });
  });

  it('states a documented rule in place of what the validator caps', () => {
    const node = {
      properties: {
        name: { type: 'string', maxLength: 4000, 'x-document': { maxLength: 120, description: 'Trimmed, 1–120 bytes.' } },
        state: { $ref: '#/components/schemas/Loose', 'x-document': { $ref: '#/components/schemas/Strict' } },
      },
    };
    finishSchemas(node);
    expect(node.properties.name).toEqual({ type: 'string', maxLength: 120, description: 'Trimmed, 1–120 bytes.' });
    expect(node.properties.state).toEqual({ $ref: '#/components/schemas/Strict' });
  });

  it('completes a generated document: patches, status texts, HEAD, conventions, rules, enums and the webhooks', () => {
    const letters = { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string', enum: ['b'] }] };
    const generated = {
      openapi: '3.1.0',
      paths: {
        '/files/{name}': { get: { operationId: 'getFile', responses: { '200': { description: 'Default Response' } } } },
        '/letters': {
          post: {
            requestBody: { content: { 'application/json': { schema: { type: 'string', maxLength: 99, 'x-document': { maxLength: 9 } } } } },
            responses: { '200': { description: 'Default Response', content: { 'application/json': { schema: letters } } } },
          },
        },
      } as PathsObject,
    };
    generated.paths['/files/{name}']!.head = generated.paths['/files/{name}']!.get;
    const binary = { 'image/png': { schema: { type: 'string', format: 'binary' } } };
    const patches = new Map([['get /files/{name}', { responses: { '200': { content: binary } } }]]);
    const document = completeDocument(generated, patches, { hook: {} }, EXAMPLES);
    const file = document.paths['/files/{name}']!;
    expect(file.get!.responses!['200']).toMatchObject({ description: 'OK', content: binary });
    expect(file.head!.operationId).toBe('headFile');
    expect(file.head!.responses!['200']!.content).toBeUndefined();
    expect(Object.keys(file.get!.responses!)).toContain('default');
    expect(Object.keys((document as { components?: { responses: object } }).components?.responses ?? {})).toContain('UnexpectedError');
    const post = document.paths['/letters']!.post!;
    expect(post.requestBody).toEqual({ content: { 'application/json': { schema: { type: 'string', maxLength: 9 } } } });
    expect(post.responses!['200']!.content!['application/json']!.schema).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(document.webhooks).toEqual({ hook: {} });
  });
});
