// The project routes' ETag, If-Match and If-None-Match headers and the new routes appear in the
// OpenAPI document, generated from the route schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName } from '../helpers/app.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string };
  description?: string;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { headers?: Record<string, { schema: { type: string }; description?: string }>; content?: unknown }>;
}
type Paths = Record<string, Record<string, Operation>>;

describe(`OpenAPI: project versions, duplicates and conditional headers (${engineName()})`, () => {
  let app: App;
  let paths: Paths;

  beforeAll(async () => {
    app = await createTestApp();
    paths = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Paths }>().paths;
  });
  afterAll(async () => {
    await app?.close();
  });

  const header = (operation: Operation | undefined, name: string) =>
    operation?.parameters?.find((parameter) => parameter.in === 'header' && parameter.name === name);

  it('documents the new routes', () => {
    expect(paths['/projects/{id}/duplicate']?.post).toBeDefined();
    expect(paths['/projects/{id}/versions']?.get).toBeDefined();
    expect(paths['/projects/{id}/versions/{version}']?.get).toBeDefined();
    expect(paths['/projects/{id}/versions/{version}/restore']?.post).toBeDefined();
  });

  it('documents the ETag response header on every { project } answer', () => {
    const answers: Array<[string, string, string]> = [
      ['/projects', 'post', '201'],
      ['/projects/{id}', 'get', '200'],
      ['/projects/{id}', 'get', '304'],
      ['/projects/{id}', 'put', '200'],
      ['/projects/{id}/duplicate', 'post', '201'],
      ['/projects/{id}/versions/{version}/restore', 'post', '200'],
    ];
    for (const [path, method, status] of answers) {
      const response = paths[path]?.[method]?.responses[status];
      expect(response?.headers?.etag?.schema.type, `${method} ${path} ${status}`).toBe('string');
      expect(response?.headers?.etag?.description).toContain('"<version>"');
    }
    expect(paths['/projects/{id}']?.get?.responses['304']?.content).toBeUndefined();
  });

  it('documents If-Match on PUT, DELETE and restore with their 412, and If-None-Match on GET', () => {
    for (const [path, method] of [
      ['/projects/{id}', 'put'],
      ['/projects/{id}', 'delete'],
      ['/projects/{id}/versions/{version}/restore', 'post'],
    ] as const) {
      const operation = paths[path]?.[method];
      expect(header(operation, 'if-match'), `${method} ${path}`).toMatchObject({ required: false, schema: { type: 'string' } });
      expect(Object.keys(operation?.responses ?? {}), `${method} ${path}`).toContain('412');
    }
    expect(header(paths['/projects/{id}']?.get, 'if-none-match')).toMatchObject({ required: false });
  });

  it('documents the version number as an integer path parameter and the duplicate body as strict', () => {
    const version = paths['/projects/{id}/versions/{version}']?.get?.parameters?.find((parameter) => parameter.name === 'version');
    expect(version).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
    expect(paths['/projects/{id}/duplicate']?.post?.requestBody?.required).toBe(false);
    const body = paths['/projects/{id}/duplicate']?.post?.requestBody?.content['application/json']?.schema;
    expect(body).toMatchObject({ type: 'object', additionalProperties: false, properties: { name: { type: 'string' } } });
  });
});
