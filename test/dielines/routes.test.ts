import { Resvg } from '@resvg/resvg-js';
import { Ajv } from 'ajv';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { getTemplate } from '../../src/catalog/index.js';
import { DielineSizeError, generateDieline, type BoxDimensions, type Dieline, type DielineOptions } from '../../src/dielines/index.js';
import { DielineReply, DielineSchema } from '../../src/schemas/dielines.js';
import { createDielineService } from '../../src/services/dielines.js';
import { apiError, issueKey, type IssuedKey } from '../api-keys/keys.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';

const BOX_TEMPLATES = TEMPLATES.filter((template) => template.dielineAvailable);
const CONTAINER_TEMPLATES = TEMPLATES.filter((template) => !template.dielineAvailable);
const ETAG = /^"[A-Za-z0-9_-]{27}"$/;
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const PX_PER_MM = 96 / 25.4;

const ajv = new Ajv({ strict: true, allErrors: true });
ajv.addSchema(DielineSchema);
const validateReply = ajv.compile(DielineReply);

/** The message generateDieline itself gives for an impossible size. */
function sizeErrorMessage(templateId: string, dims: BoxDimensions, options: DielineOptions = {}): string {
  try {
    generateDieline(templateId, dims, options);
  } catch (error) {
    if (error instanceof DielineSizeError) return error.message;
    throw error;
  }
  throw new Error(`${templateId} ${JSON.stringify(dims)} was buildable`);
}

function expectError(response: LightMyRequestResponse, statusCode: number, message: string): void {
  expect(response.statusCode, response.body).toBe(statusCode);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.json()).toEqual(apiError(statusCode, message));
  expect(response.headers.etag).toBeUndefined();
  expect(response.headers['cache-control']).toBeUndefined();
}

function dielineOf(response: LightMyRequestResponse): Dieline {
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ dieline: Dieline }>();
  expect(Object.keys(body)).toEqual(['dieline']);
  return body.dieline;
}

describe(`dieline routes (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  let apiKey: IssuedKey;

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
    apiKey = await issueKey(app, owner);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('GET /templates/:id/dieline formats', () => {
    it('defaults to JSON: { dieline } with no download name, nosniff and public caching', async () => {
      const response = await get('/templates/mailer-box/dieline');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
      expect(response.headers.etag).toMatch(ETAG);
      const dieline = dielineOf(response);
      expect(dieline).toMatchObject({ templateId: 'mailer-box', style: 'fefco-0427', units: 'mm' });
    });

    it.each(BOX_TEMPLATES.map((template) => template.id))(
      '%s: the defaults are the template dimensions, the default caliper and a 3 mm bleed',
      async (id) => {
        const template = getTemplate(id)!;
        const dieline = dielineOf(await get(`/templates/${id}/dieline`));
        expect(validateReply({ dieline }), JSON.stringify(validateReply.errors)).toBe(true);
        expect(dieline.dimensions.inside).toEqual(template.defaultDimensions);
        expect(dieline.bleedMm).toBe(3);
        // The geometry module's own default for the style, with no material given.
        expect(dieline).toEqual(generateDieline(id, template.defaultDimensions));
      },
    );

    it('names the default caliper per style', async () => {
      const expected = { 'mailer-box': 1.5, 'rsc-box': 3, 'reverse-tuck-carton': 0.4, 'rigid-lid-box': 2 };
      for (const [id, thicknessMm] of Object.entries(expected)) {
        expect(dielineOf(await get(`/templates/${id}/dieline`)).thicknessMm, id).toBe(thicknessMm);
      }
    });

    it('serves SVG inline, sized in millimetres, with a sandboxing CSP', async () => {
      const response = await get('/templates/mailer-box/dieline?format=svg');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('inline; filename="mailer-box-300x220x80.svg"');
      expect(response.headers['content-security-policy']).toBe(SVG_CSP);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
      expect(response.headers.etag).toMatch(ETAG);

      const { artboard } = generateDieline('mailer-box', getTemplate('mailer-box')!.defaultDimensions);
      const root = /<svg\b[^>]*>/.exec(response.body)?.[0] ?? '';
      expect(root).toContain(`width="${artboard.width}mm"`);
      expect(root).toContain(`height="${artboard.height}mm"`);
      const parsed = new Resvg(response.body);
      expect(parsed.width).toBeCloseTo(artboard.width * PX_PER_MM, 0);
      expect(parsed.height).toBeCloseTo(artboard.height * PX_PER_MM, 0);
    });

    it('serves a PDF inline with the CutContour spot colour', async () => {
      const response = await get('/templates/rsc-box/dieline?format=pdf&widthMm=410.5');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe('inline; filename="rsc-box-410.5x300x300.pdf"');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBeUndefined();
      const bytes = response.rawPayload;
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(bytes.toString('latin1')).toContain('/CutContour');
      expect(bytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
      expect(Number(response.headers['content-length'])).toBe(bytes.length);
    });

    it('applies every query parameter', async () => {
      const dieline = dielineOf(
        await get('/templates/rsc-box/dieline?widthMm=420&heightMm=250.5&depthMm=310&thicknessMm=4&bleedMm=0&format=json'),
      );
      expect(dieline.dimensions.inside).toEqual({ widthMm: 420, heightMm: 250.5, depthMm: 310 });
      expect(dieline.thicknessMm).toBe(4);
      expect(dieline.bleedMm).toBe(0);
    });

    it("chooses the default caliper from a material of the template's", async () => {
      expect(dielineOf(await get('/templates/reverse-tuck-carton/dieline?material=kraft')).thicknessMm).toBe(0.45);
      expect(dielineOf(await get('/templates/reverse-tuck-carton/dieline?material=cardboard')).thicknessMm).toBe(0.4);
      // An explicit caliper wins over the material's.
      expect(dielineOf(await get('/templates/reverse-tuck-carton/dieline?material=kraft&thicknessMm=0.6')).thicknessMm).toBe(0.6);
    });
  });

  describe('GET /templates/:id/dieline errors', () => {
    it('rejects an unknown query field', async () => {
      expectError(await get('/templates/mailer-box/dieline?scale=2'), 400, "querystring has an unknown field 'scale'.");
    });

    it.each([
      ['widthMm=0', 'querystring/widthMm must be >= 1.'],
      ['heightMm=3000.5', 'querystring/heightMm must be <= 3000.'],
      ['depthMm=-4', 'querystring/depthMm must be >= 1.'],
      ['widthMm=abc', 'querystring/widthMm must be number.'],
      ['widthMm=300&widthMm=310', 'querystring/widthMm must be number.'],
      ['thicknessMm=0', 'querystring/thicknessMm must be > 0.'],
      ['bleedMm=21', 'querystring/bleedMm must be <= 20.'],
      ['format=png', 'querystring/format must be one of: json, svg, pdf, dxf, cf2.'],
      ['format=JSON', 'querystring/format must be one of: json, svg, pdf, dxf, cf2.'],
      ['material=paper', 'querystring/material must be one of: cardboard, kraft, corrugated, plastic, glass, aluminum.'],
    ])('%s → 400', async (query, message) => {
      expectError(await get(`/templates/mailer-box/dieline?${query}`), 400, message);
    });

    it.each(['widthMm=Infinity', 'widthMm=1e400', 'widthMm=-Infinity', 'thicknessMm=Infinity', 'bleedMm=-1e999'])(
      '%s → 400 naming the parameter',
      async (query) => {
        const field = query.split('=')[0]!;
        expectError(await get(`/templates/rsc-box/dieline?${query}`), 400, `querystring/${field} must be a finite number.`);
      },
    );

    it.each(CONTAINER_TEMPLATES.map((template) => template.id))('%s answers its print layout (label, ' +
      'sleeve, band, laminate or web)', async (id) => {
      const response = await get(`/templates/${id}/dieline`);
      expect(response.statusCode, response.body).toBe(200);
      expect(['wrap-label', 'can-band', 'tube-laminate', 'doyen-pouch']).toContain(response.json<{ dieline: Dieline }>().dieline.style);
    });

    it('answers an unknown template with the catalog 404', async () => {
      expectError(await get('/templates/hat-box/dieline'), 404, "Template 'hat-box' was not found.");
      expectError(await get('/templates/hat-box/dieline?format=svg&widthMm=100'), 404, "Template 'hat-box' was not found.");
    });

    it("rejects a material the template does not offer", async () => {
      expectError(
        await get('/templates/mailer-box/dieline?material=glass'),
        400,
        "Material 'glass' is not available for template 'mailer-box'.",
      );
    });

    it('answers a size the style cannot be built at with the message naming the dimension', async () => {
      const tooNarrow = { widthMm: 10, heightMm: 80, depthMm: 220 };
      const message = sizeErrorMessage('mailer-box', tooNarrow);
      expect(message).toMatch(/^widthMm 10 mm is too small/);
      expectError(await get('/templates/mailer-box/dieline?widthMm=10&format=pdf'), 400, message);

      const tooTall = { widthMm: 70, heightMm: 2500, depthMm: 70 };
      const tallMessage = sizeErrorMessage('reverse-tuck-carton', tooTall);
      expect(tallMessage).toMatch(/^heightMm /);
      expectError(await get('/templates/reverse-tuck-carton/dieline?heightMm=2500&format=svg'), 400, tallMessage);
    });

    it('answers a caliper outside the style range with the message naming thicknessMm', async () => {
      const dims = getTemplate('reverse-tuck-carton')!.defaultDimensions;
      const message = sizeErrorMessage('reverse-tuck-carton', dims, { thicknessMm: 3 });
      expect(message).toMatch(/^thicknessMm /);
      expectError(await get('/templates/reverse-tuck-carton/dieline?thicknessMm=3'), 400, message);
    });
  });

  describe('caching', () => {
    it('gives a strong ETag that repeats for the same URL and changes with the output', async () => {
      const first = await get('/templates/auto-bottom-box/dieline?format=svg');
      const again = await get('/templates/auto-bottom-box/dieline?format=svg');
      const spelledOut = await get('/templates/auto-bottom-box/dieline?widthMm=120&heightMm=160&depthMm=80&bleedMm=3&format=svg');
      const wider = await get('/templates/auto-bottom-box/dieline?format=svg&widthMm=121');
      const asJson = await get('/templates/auto-bottom-box/dieline');
      expect(first.headers.etag).toMatch(ETAG);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(spelledOut.headers.etag).toBe(first.headers.etag);
      expect(spelledOut.body).toBe(first.body);
      expect(wider.headers.etag).not.toBe(first.headers.etag);
      expect(asJson.headers.etag).not.toBe(first.headers.etag);
    });

    it('produces the same bytes and ETag from a fresh generator (no run-dependent output)', async () => {
      for (const format of ['json', 'svg', 'pdf'] as const) {
        const response = await get(`/templates/straight-tuck-box/dieline?format=${format}`);
        const fresh = await createDielineService().forTemplate('straight-tuck-box', { format });
        expect(fresh.etag, format).toBe(response.headers.etag);
        expect(Buffer.from(fresh.body).equals(response.rawPayload), format).toBe(true);
      }
    });

    it('answers a matching If-None-Match with 304, no body and the caching headers', async () => {
      const { headers } = await get('/templates/rigid-lid-box/dieline?format=pdf');
      const etag = String(headers.etag);
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const response = await get('/templates/rigid-lid-box/dieline?format=pdf', { 'if-none-match': ifNoneMatch });
        expect(response.statusCode, ifNoneMatch).toBe(304);
        expect(response.body).toBe('');
        expect(response.headers.etag).toBe(etag);
        expect(response.headers['cache-control']).toBe('public, max-age=86400');
        expect(response.headers['content-disposition']).toBeUndefined();
      }
      const stale = await get('/templates/rigid-lid-box/dieline?format=pdf', { 'if-none-match': '"stale"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.headers.etag).toBe(etag);
    });

    it('answers HEAD with the headers of GET and no body', async () => {
      const full = await get('/templates/mailer-box/dieline?format=svg');
      const head = await app.inject({ method: 'HEAD', url: '/templates/mailer-box/dieline?format=svg' });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers.etag).toBe(full.headers.etag);
      expect(head.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    });
  });

  describe('GET /v1/templates/:id/dieline', () => {
    it('needs a key: 401 before anything else is checked', async () => {
      expectError(await get('/v1/templates/mailer-box/dieline'), 401, 'Missing x-api-key header.');
      expectError(await get('/v1/templates/mailer-box/dieline?bogus=1'), 401, 'Missing x-api-key header.');
      expectError(await get('/v1/templates/round-bottle/dieline'), 401, 'Missing x-api-key header.');
      expectError(
        await get('/v1/templates/mailer-box/dieline', { 'x-api-key': `pf_${'0'.repeat(48)}` }),
        401,
        'Invalid API key.',
      );
    });

    it('serves the same bytes as /templates, cached privately', async () => {
      for (const query of ['', '?format=svg', '?format=pdf&widthMm=250&heightMm=90']) {
        const open = await get(`/templates/mailer-box/dieline${query}`);
        const keyed = await get(`/v1/templates/mailer-box/dieline${query}`, { 'x-api-key': apiKey.key });
        expect(keyed.statusCode, query).toBe(200);
        expect(keyed.rawPayload.equals(open.rawPayload), query).toBe(true);
        expect(keyed.headers.etag).toBe(open.headers.etag);
        expect(keyed.headers['content-type']).toBe(open.headers['content-type']);
        expect(keyed.headers['content-disposition']).toBe(open.headers['content-disposition']);
        expect(keyed.headers['cache-control']).toBe('private, max-age=86400');
      }
    });

    it('answers the same errors as /templates once the key is valid', async () => {
      const headers = { 'x-api-key': apiKey.key };
      expectError(
        await get('/v1/templates/rsc-box/dieline?labelStyle=sleeve', headers),
        400,
        "Option 'labelStyle' does not apply to template 'rsc-box'.",
      );
      expectError(await get('/v1/templates/hat-box/dieline', headers), 404, "Template 'hat-box' was not found.");
      expectError(await get('/v1/templates/mailer-box/dieline?x=1', headers), 400, "querystring has an unknown field 'x'.");
    });

    it('answers If-None-Match with 304', async () => {
      const headers = { 'x-api-key': apiKey.key };
      const { headers: first } = await get('/v1/templates/rsc-box/dieline', headers);
      const response = await get('/v1/templates/rsc-box/dieline', { ...headers, 'if-none-match': String(first.etag) });
      expect(response.statusCode).toBe(304);
      expect(response.headers['cache-control']).toBe('private, max-age=86400');
    });
  });

  describe('GET /projects/:id/dieline', () => {
    async function createProject(account: TestAccount, body: Record<string, unknown>): Promise<string> {
      const response = await app.inject({ method: 'POST', url: '/projects', headers: account.auth, payload: { name: 'Box', ...body } });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ project: { id: string } }>().project.id;
    }

    it("is built from the project's dimensions, privately cached and revalidated", async () => {
      const account = await registerAccount(app);
      const id = await createProject(account, { templateId: 'rsc-box', widthMm: 350, heightMm: 200, depthMm: 250.5 });
      const response = await get(`/projects/${id}/dieline`, account.auth);
      const dieline = dielineOf(response);
      expect(validateReply({ dieline })).toBe(true);
      expect(dieline.dimensions.inside).toEqual({ widthMm: 350, heightMm: 200, depthMm: 250.5 });
      // The default EditorState says 3 mm, which an RSC accepts.
      expect(dieline.thicknessMm).toBe(3);
      expect(dieline.bleedMm).toBe(3);
      expect(response.headers['cache-control']).toBe('private, no-cache');
      expect(response.headers['x-content-type-options']).toBe('nosniff');

      const revalidated = await get(`/projects/${id}/dieline`, { ...account.auth, 'if-none-match': String(response.headers.etag) });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.headers['cache-control']).toBe('private, no-cache');

      const update = await app.inject({ method: 'PUT', url: `/projects/${id}`, headers: account.auth, payload: { widthMm: 360 } });
      expect(update.statusCode).toBe(200);
      const changed = await get(`/projects/${id}/dieline`, { ...account.auth, 'if-none-match': String(response.headers.etag) });
      expect(dielineOf(changed).dimensions.inside.widthMm).toBe(360);
      expect(changed.headers.etag).not.toBe(response.headers.etag);
    });

    it('takes format and bleedMm from the query', async () => {
      const account = await registerAccount(app);
      const id = await createProject(account, { templateId: 'mailer-box', widthMm: 310, heightMm: 90, depthMm: 230 });
      const svg = await get(`/projects/${id}/dieline?format=svg&bleedMm=5`, account.auth);
      expect(svg.statusCode).toBe(200);
      expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(svg.headers['content-disposition']).toBe('inline; filename="mailer-box-310x230x90.svg"');
      expect(svg.headers['content-security-policy']).toBe(SVG_CSP);
      const pdf = await get(`/projects/${id}/dieline?format=pdf`, account.auth);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(dielineOf(await get(`/projects/${id}/dieline?bleedMm=5`, account.auth)).bleedMm).toBe(5);
      expectError(
        await get(`/projects/${id}/dieline?widthMm=300`, account.auth),
        400,
        "querystring has an unknown field 'widthMm'.",
      );
    });

    it("uses the EditorState caliper when the style accepts it, else the material's default", async () => {
      const account = await registerAccount(app);
      const byDefault = await createProject(account, { templateId: 'reverse-tuck-carton' });
      const kraftTooThick = await createProject(account, {
        templateId: 'reverse-tuck-carton',
        artworkJson: { material: 'kraft', thicknessMm: 3 },
      });
      const chosen = await createProject(account, {
        templateId: 'reverse-tuck-carton',
        artworkJson: { material: 'kraft', thicknessMm: 0.6 },
      });
      expect(dielineOf(await get(`/projects/${byDefault}/dieline`, account.auth)).thicknessMm).toBe(0.4);
      expect(dielineOf(await get(`/projects/${kraftTooThick}/dieline`, account.auth)).thicknessMm).toBe(0.45);
      expect(dielineOf(await get(`/projects/${chosen}/dieline`, account.auth)).thicknessMm).toBe(0.6);
    });

    it("answers a container project's label, an option it does not take and an unbuildable size with 400", async () => {
      const account = await registerAccount(app);
      const bottle = await createProject(account, { templateId: 'round-bottle' });
      expect(dielineOf(await get(`/projects/${bottle}/dieline`, account.auth)).style).toBe('wrap-label');
      expectError(
        await get(`/projects/${bottle}/dieline?seamMm=5`, account.auth),
        400,
        "Option 'seamMm' does not apply to template 'round-bottle' with labelStyle=label.",
      );
      const tiny = await createProject(account, { templateId: 'rsc-box', widthMm: 10, heightMm: 300, depthMm: 300 });
      const message = sizeErrorMessage('rsc-box', { widthMm: 10, heightMm: 300, depthMm: 300 }, { thicknessMm: 3 });
      expect(message).toMatch(/^widthMm /);
      expectError(await get(`/projects/${tiny}/dieline?format=pdf`, account.auth), 400, message);
    });

    it("hides another account's project and a missing one behind the same 404", async () => {
      const account = await registerAccount(app);
      const intruder = await registerAccount(app);
      const id = await createProject(account, { templateId: 'mailer-box' });
      expectError(await get(`/projects/${id}/dieline`, intruder.auth), 404, 'Project not found.');
      expectError(await get('/projects/doesnotexist123/dieline', account.auth), 404, 'Project not found.');
      expectError(await get('/projects/NOT-A-CUID/dieline?format=svg', account.auth), 404, 'Project not found.');
    });

    it('needs a token: 401 without one, and a developer key does not open it', async () => {
      const id = await createProject(owner, { templateId: 'mailer-box' });
      expectError(await get(`/projects/${id}/dieline`), 401, 'Authentication required.');
      const keyed = await get(`/projects/${id}/dieline`, { 'x-api-key': apiKey.key });
      expect(keyed.statusCode).toBe(401);
    });
  });
});
