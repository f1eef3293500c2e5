import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { listTemplates } from '../../src/catalog/index.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { fullEditorState, projectsApi, registerProAccount, type ProjectBody } from './fixtures.js';

const DIMENSIONS = ['widthMm', 'heightMm', 'depthMm'] as const;
const MAILER_DEFAULTS = { widthMm: 300, heightMm: 80, depthMm: 220 };

describe(`/projects dimensions and EditorState (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;
  let account: TestAccount;

  beforeAll(async () => {
    app = await createTestApp();
    api = projectsApi(app);
    account = await registerProAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const dimensionsOf = (project: ProjectBody) => ({
    widthMm: project.widthMm,
    heightMm: project.heightMm,
    depthMm: project.depthMm,
  });

  describe('dimension resolution: body value, then artworkJson.dimensions, then the template default', () => {
    it('the catalog default of mailer-box is what these tests assume', () => {
      expect(listTemplates().templates.find((template) => template.id === 'mailer-box')?.defaultDimensions).toEqual(MAILER_DEFAULTS);
    });

    describe.each(DIMENSIONS)('%s', (dimension) => {
      it('the body value wins over artworkJson.dimensions and the default', async () => {
        const project = await api.created(account, {
          name: 'x',
          templateId: 'mailer-box',
          [dimension]: 111.5,
          artworkJson: { dimensions: { [dimension]: 222 } },
        });
        expect(project[dimension]).toBe(111.5);
        expect(project.artworkJson).toEqual({ dimensions: { [dimension]: 222 } });
      });

      it('artworkJson.dimensions wins over the default when the body has no value', async () => {
        const project = await api.created(account, {
          name: 'x',
          templateId: 'mailer-box',
          artworkJson: { dimensions: { [dimension]: 222 } },
        });
        expect(project[dimension]).toBe(222);
      });

      it('the template default applies when neither gives a value', async () => {
        const project = await api.created(account, {
          name: 'x',
          templateId: 'mailer-box',
          artworkJson: { dimensions: {} },
        });
        expect(project[dimension]).toBe(MAILER_DEFAULTS[dimension]);
      });

      it('the body value wins over the default without any artworkJson', async () => {
        const project = await api.created(account, { name: 'x', templateId: 'mailer-box', [dimension]: 1 });
        expect(project[dimension]).toBe(1);
        const others = DIMENSIONS.filter((other) => other !== dimension);
        for (const other of others) expect(project[other]).toBe(MAILER_DEFAULTS[other]);
      });
    });

    it('resolves each dimension on its own', async () => {
      const project = await api.created(account, {
        name: 'x',
        templateId: 'mailer-box',
        widthMm: 10,
        artworkJson: { dimensions: { widthMm: 20, heightMm: 30 } },
      });
      expect(dimensionsOf(project)).toEqual({ widthMm: 10, heightMm: 30, depthMm: 220 });
    });

    it('uses the defaults of the chosen template', async () => {
      for (const template of listTemplates().templates) {
        const project = await api.created(account, { name: template.name, templateId: template.id });
        expect(dimensionsOf(project)).toEqual(template.defaultDimensions);
      }
    });
  });

  describe('default EditorState when artworkJson is omitted', () => {
    it.each(listTemplates().templates.map((template) => [template.id, template] as const))(
      'is built from the template %s, field by field and in order',
      async (_id, template) => {
        const project = await api.created(account, { name: 'Defaults', templateId: template.id });
        const state = project.artworkJson;
        expect(state.templateId).toBe(template.id);
        expect(state.dimensions).toEqual(template.defaultDimensions);
        expect(state.material).toBe(template.materials[0]);
        expect(state.thicknessMm).toBe(3);
        expect(state.finish).toBe(template.finishes[0]);
        expect(state.background).toEqual({ kind: 'color', value: '#ffffff' });
        expect(state.lighting).toBe('studio');
        expect(state.artworks).toEqual([]);
        expect(JSON.stringify(state)).toBe(
          JSON.stringify({
            templateId: template.id,
            dimensions: template.defaultDimensions,
            material: template.materials[0],
            thicknessMm: 3,
            finish: template.finishes[0],
            background: { kind: 'color', value: '#ffffff' },
            lighting: 'studio',
            artworks: [],
          }),
        );
      },
    );

    it('carries the resolved dimensions, not the template defaults', async () => {
      const project = await api.created(account, { name: 'x', templateId: 'mailer-box', widthMm: 400.5, depthMm: 2 });
      expect(project.artworkJson.dimensions).toEqual({ widthMm: 400.5, heightMm: 80, depthMm: 2 });
      expect(JSON.stringify(project.artworkJson.dimensions)).toBe('{"widthMm":400.5,"heightMm":80,"depthMm":2}');
    });

    it('mailer-box starts as corrugated (its first material) with a matte finish', async () => {
      const project = await api.created(account, { name: 'x', templateId: 'mailer-box' });
      expect(project.artworkJson.material).toBe('corrugated');
      expect(project.artworkJson.finish).toBe('matte');
    });
  });

  describe('artworkJson is stored verbatim and returned as sent', () => {
    it('round-trips key order at every depth through create, GET and the list', async () => {
      const owner = await registerProAccount(app);
      const sent = fullEditorState();
      const expected = JSON.stringify(sent);

      const createResponse = await api.create(owner, { name: 'Verbatim', templateId: 'mailer-box', artworkJson: sent });
      expect(createResponse.statusCode).toBe(201);
      expect(createResponse.body).toContain(`"artworkJson":${expected}`);
      const created = createResponse.json<{ project: ProjectBody }>().project;
      expect(created.artworkJson).toEqual(sent);
      expect(JSON.stringify(created.artworkJson)).toBe(expected);

      const read = await api.get(owner, created.id);
      expect(read.body).toContain(`"artworkJson":${expected}`);
      expect(JSON.stringify(read.json<{ project: ProjectBody }>().project.artworkJson)).toBe(expected);

      const list = await api.list(owner);
      expect(list.body).toContain(`"artworkJson":${expected}`);
    });

    it('keeps the stored column text exactly as the client serialised the document', async () => {
      const sent = fullEditorState();
      const created = await api.created(account, { name: 'Column', templateId: 'mailer-box', artworkJson: sent });
      const rows = await app.db.prisma.$queryRaw<Array<{ text: string }>>`
        SELECT "artworkJson"::text AS "text" FROM "projects" WHERE "id" = ${created.id}`;
      expect(rows[0]?.text).toBe(JSON.stringify(sent));
    });

    it('keeps unusual but valid values: fractions, negatives, zero, empty strings, unicode', async () => {
      const sent = {
        artworks: [{ id: '', panelId: 'ünïcødé 😀', imageUrl: '', offsetX: -0.000001, offsetY: 1e-7, scale: 0, rotationDeg: -359.999 }],
        background: { kind: 'image', value: '' },
        thicknessMm: 0.2,
        material: 'aluminum',
      };
      const created = await api.created(account, { name: 'Odd', templateId: 'rsc-box', artworkJson: sent });
      expect(JSON.stringify(created.artworkJson)).toBe(JSON.stringify(sent));
      expect(JSON.stringify((await api.get(account, created.id)).json<{ project: ProjectBody }>().project.artworkJson)).toBe(
        JSON.stringify(sent),
      );
    });

    it('is not reconciled with the project: its templateId and dimensions stay as sent', async () => {
      const sent = { templateId: 'rsc-box', dimensions: { widthMm: 50 } };
      const created = await api.created(account, { name: 'Mismatch', templateId: 'mailer-box', widthMm: 60, artworkJson: sent });
      expect(created.templateId).toBe('mailer-box');
      expect(created.widthMm).toBe(60);
      expect(created.artworkJson).toEqual(sent);
      expect(JSON.stringify(created.artworkJson)).toBe(JSON.stringify(sent));
    });
  });
});
