// The export request in the OpenAPI document and the client: one request per format, chosen by
// `format`, whose `options` are that format's own fields; and the answers to a request that
// fits none of them, through the real stack on the run's engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { expectApiError } from '../assets/helpers.js';

const FORMATS = 'print-pdf, preview-png, model-glb, dieline-svg, dieline-pdf, dieline-dxf, dieline-cf2';

interface SchemaNode {
  $ref?: string;
  oneOf?: SchemaNode[];
  discriminator?: { propertyName: string };
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean;
  const?: unknown;
}

let app: App;
let owner: TestAccount;
let projectId: string;

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerAccount(app);
  const created = await app.inject({
    method: 'POST',
    url: '/projects',
    headers: owner.auth,
    payload: { name: 'Box', templateId: 'mailer-box', widthMm: 120, heightMm: 80, depthMm: 40 },
  });
  projectId = created.json<{ project: { id: string } }>().project.id;
});

afterAll(async () => {
  await app?.close();
});

const post = (payload: unknown) =>
  app.inject({ method: 'POST', url: `/projects/${projectId}/exports`, headers: owner.auth, payload: payload as object });

describe('the export request, typed per format', () => {
  it('documents one request per format, with only that format’s options', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: SchemaNode } } } } }>;
    }>();
    for (const path of ['/projects/{id}/exports', '/v1/projects/{id}/exports']) {
      const branches = document.paths[path]!.post.requestBody.content['application/json'].schema.oneOf!;
      expect(branches.map((branch) => branch.properties!.format!.const)).toEqual(FORMATS.split(', '));
      const options = (format: string) => branches.find((branch) => branch.properties!.format!.const === format)!.properties!.options!;
      expect(options('print-pdf').additionalProperties).toBe(false);
      expect(Object.keys(options('print-pdf').properties!)).toEqual(expect.arrayContaining(['bleedMm', 'marks', 'colorSpace']));
      expect(Object.keys(options('preview-png').properties!)).toContain('width');
      expect(Object.keys(options('model-glb').properties!)).toContain('textureSize');
      expect(Object.keys(options('dieline-cf2').properties!)).toEqual(['bleedMm']);
    }
  });

  it("names an unknown option, every format when the format is unknown, and the format's own rule", async () => {
    expectApiError(await post({ format: 'dieline-svg', options: { marks: false } }), 400, "body/options has an unknown field 'marks'.");
    expectApiError(await post({ format: 'print-pdf', options: { x: 1 } }), 400, "body/options has an unknown field 'x'.");
    const colorSpace = 'body/options/colorSpace must be one of: rgb, cmyk.';
    expectApiError(await post({ format: 'print-pdf', options: { colorSpace: 'lab' } }), 400, colorSpace);
    expectApiError(await post({ format: 'pdf' }), 400, `body/format must be one of: ${FORMATS}.`);
    expectApiError(await post({ format: 7 }), 400, 'body/format must be string.');
    expectApiError(await post({ options: {} }), 400, "body must have required property 'format'.");
    expectApiError(await post({ format: 'model-glb', extra: true }), 400, "body has an unknown field 'extra'.");
    const accepted = await post({ format: 'dieline-svg', options: { bleedMm: 2 } });
    expect(accepted.statusCode, accepted.body).toBe(202);
  });
});
