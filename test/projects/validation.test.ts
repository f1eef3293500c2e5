import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { expectApiError, fullEditorState, projectsApi, registerProAccount, type ProjectBody } from './fixtures.js';

const NAME_MESSAGE = 'name must be 1 to 200 characters long after trimming.';
const DIMENSIONS = ['widthMm', 'heightMm', 'depthMm'] as const;

describe(`/projects validation (${engineName()})`, () => {
  let app: App;
  let api: ReturnType<typeof projectsApi>;
  let account: TestAccount;
  let existing: ProjectBody;

  beforeAll(async () => {
    app = await createTestApp();
    api = projectsApi(app);
    account = await registerProAccount(app);
    existing = await api.created(account, { name: 'Target', templateId: 'mailer-box' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const base = { name: 'Box', templateId: 'mailer-box' };

  /** The stored project must not have moved after a rejected update. */
  async function expectUnchanged() {
    expect((await api.get(account, existing.id)).json()).toEqual({ project: existing });
  }

  describe('name', () => {
    it.each([
      ['1 character', 'a', 'a'],
      ['200 characters', 'n'.repeat(200), 'n'.repeat(200)],
      ['200 characters inside whitespace', `  \t${'n'.repeat(200)}\n `, 'n'.repeat(200)],
      ['1 character inside whitespace', '   x   ', 'x'],
      ['200 characters beyond the BMP (400 UTF-16 units)', '😀'.repeat(200), '😀'.repeat(200)],
      ['inner whitespace, kept', ' Spring  mailer ', 'Spring  mailer'],
    ])('accepts %s and stores it trimmed', async (_label, name, stored) => {
      const project = await api.created(account, { ...base, name });
      expect(project.name).toBe(stored);
      expect((await api.get(account, project.id)).json<{ project: ProjectBody }>().project.name).toBe(stored);
    });

    it.each([
      ['an empty name', ''],
      ['a whitespace-only name', ' \t\n '],
      ['201 characters', 'n'.repeat(201)],
      ['201 characters inside whitespace', ` ${'n'.repeat(201)} `],
      ['201 characters beyond the BMP', '😀'.repeat(201)],
    ])('rejects %s on create and update', async (_label, name) => {
      expectApiError(await api.create(account, { ...base, name }), 400, NAME_MESSAGE);
      expectApiError(await api.update(account, existing.id, { name }), 400, NAME_MESSAGE);
      await expectUnchanged();
    });

    it.each([
      ['a number', 42, 'body/name must be string.'],
      ['null', null, 'body/name must be string.'],
      ['an array', ['a'], 'body/name must be string.'],
      ['a NUL character', 'a\u0000b', 'name must not contain NUL or unpaired surrogate characters.'],
      ['more than 1000 characters of input', ' '.repeat(1001), 'body/name must NOT have more than 1000 characters.'],
    ])('rejects %s', async (_label, name, message) => {
      expectApiError(await api.create(account, { ...base, name }), 400, message);
      expectApiError(await api.update(account, existing.id, { name }), 400, message);
      await expectUnchanged();
    });

    it('rejects an unpaired surrogate, which a text column would silently replace', async () => {
      const body = '{"name":"a\\ud800b","templateId":"mailer-box"}';
      expectApiError(await api.raw(account, 'POST', '/projects', body), 400, 'name must not contain NUL or unpaired surrogate characters.');
    });

    it('is required on create', async () => {
      expectApiError(await api.create(account, { templateId: 'mailer-box' }), 400, "body must have required property 'name'.");
    });
  });

  describe('templateId', () => {
    it('must be in the catalog: 400 "Unknown templateId \'<id>\'." on create and update', async () => {
      expectApiError(await api.create(account, { ...base, templateId: 'space-shuttle' }), 400, "Unknown templateId 'space-shuttle'.");
      expectApiError(await api.create(account, { ...base, templateId: '' }), 400, "Unknown templateId ''.");
      expectApiError(await api.create(account, { ...base, templateId: 'Mailer-Box' }), 400, "Unknown templateId 'Mailer-Box'.");
      expectApiError(await api.update(account, existing.id, { templateId: 'space-shuttle' }), 400, "Unknown templateId 'space-shuttle'.");
      await expectUnchanged();
    });

    it('is required on create and must be a string of at most 100 characters', async () => {
      expectApiError(await api.create(account, { name: 'x' }), 400, "body must have required property 'templateId'.");
      expectApiError(await api.create(account, { ...base, templateId: 7 }), 400, 'body/templateId must be string.');
      expectApiError(
        await api.create(account, { ...base, templateId: 't'.repeat(101) }),
        400,
        'body/templateId must NOT have more than 100 characters.',
      );
    });
  });

  describe.each(DIMENSIONS)('%s', (dimension) => {
    it.each([1, 3000, 12.5, 1.0001, 2999.999])('accepts %s', async (value) => {
      const project = await api.created(account, { ...base, [dimension]: value });
      expect(project[dimension]).toBe(value);
      const updated = await api.update(account, project.id, { [dimension]: value === 1 ? 3000 : 1 });
      expect(updated.statusCode).toBe(200);
    });

    it.each([0.999, 0, -1, 3000.001, 3001, 1e9])('rejects %s on create and update', async (value) => {
      const message = new RegExp(`^body/${dimension} must be (>=|<=) (1|3000)\\.$`);
      expectApiError(await api.create(account, { ...base, [dimension]: value }), 400, message);
      expectApiError(await api.update(account, existing.id, { [dimension]: value }), 400, message);
      await expectUnchanged();
    });

    it.each([
      ['a numeric string', '100'],
      ['null', null],
      ['a boolean', true],
      ['an object', { value: 100 }],
    ])('rejects %s (no coercion)', async (_label, value) => {
      expectApiError(await api.create(account, { ...base, [dimension]: value }), 400, `body/${dimension} must be number.`);
      expectApiError(await api.update(account, existing.id, { [dimension]: value }), 400, `body/${dimension} must be number.`);
      await expectUnchanged();
    });

    it('rejects a number too large for a double (1e400)', async () => {
      const response = await api.raw(account, 'POST', '/projects', `{"name":"x","templateId":"mailer-box","${dimension}":1e400}`);
      expectApiError(response, 400);
    });

    it('bounds artworkJson.dimensions the same way, since it can become the project dimension', async () => {
      for (const value of [0.999, 3000.001, '100']) {
        const response = await api.create(account, { ...base, artworkJson: { dimensions: { [dimension]: value } } });
        expectApiError(response, 400, new RegExp(`^body/artworkJson/dimensions/${dimension} must be`));
      }
      for (const value of [1, 3000]) {
        const project = await api.created(account, { ...base, artworkJson: { dimensions: { [dimension]: value } } });
        expect(project[dimension]).toBe(value);
      }
    });
  });

  describe('body shape', () => {
    it.each([
      ['an array', '[]', 'body must be object.'],
      ['null', 'null', 'body must be object.'],
      ['a string', '"name"', 'body must be object.'],
      ['a number', '7', 'body must be object.'],
    ])('rejects %s as the body of create and update', async (_label, body, message) => {
      expectApiError(await api.raw(account, 'POST', '/projects', body), 400, message);
      expectApiError(await api.raw(account, 'PUT', `/projects/${existing.id}`, body), 400, message);
      await expectUnchanged();
    });

    it('rejects a missing body', async () => {
      expectApiError(await app.inject({ method: 'POST', url: '/projects', headers: account.auth }), 400);
      expectApiError(await app.inject({ method: 'PUT', url: `/projects/${existing.id}`, headers: account.auth }), 400);
      await expectUnchanged();
    });

    it('rejects unknown top-level fields on create and update', async () => {
      expectApiError(await api.create(account, { ...base, colour: 'red' }), 400, "body has an unknown field 'colour'.");
      expectApiError(await api.update(account, existing.id, { colour: 'red' }), 400, "body has an unknown field 'colour'.");
      expectApiError(await api.update(account, existing.id, { userId: 'someone-else' }), 400, "body has an unknown field 'userId'.");
      await expectUnchanged();
    });

    it('rejects malformed JSON and a non-JSON content type', async () => {
      expectApiError(await api.raw(account, 'POST', '/projects', '{"name":'), 400);
      const text = await app.inject({
        method: 'POST',
        url: '/projects',
        headers: { ...account.auth, 'content-type': 'text/plain' },
        payload: 'name=x',
      });
      expectApiError(text, 415);
    });
  });

  describe('artworkJson (EditorState)', () => {
    it('accepts a full EditorState and an empty one', async () => {
      expect((await api.create(account, { ...base, artworkJson: fullEditorState() })).statusCode).toBe(201);
      const empty = await api.created(account, { ...base, artworkJson: {} });
      expect(empty.artworkJson).toEqual({});
    });

    it.each([
      ['the root', { shadow: true }, "body/artworkJson has an unknown field 'shadow'."],
      ['dimensions', { dimensions: { widthMm: 10, lengthMm: 5 } }, "body/artworkJson/dimensions has an unknown field 'lengthMm'."],
      [
        'background',
        { background: { kind: 'color', value: '#000', opacity: 1 } },
        "body/artworkJson/background has an unknown field 'opacity'.",
      ],
      [
        'an artworks item',
        { artworks: [{ ...fullEditorState().artworks[0], opacity: 0.5 }] },
        "body/artworkJson/artworks/0 has an unknown field 'opacity'.",
      ],
    ])('rejects an unknown field in %s', async (_label, artworkJson, message) => {
      expectApiError(await api.create(account, { ...base, artworkJson }), 400, message);
      expectApiError(await api.update(account, existing.id, { artworkJson }), 400, message);
      await expectUnchanged();
    });

    it.each([
      ['finish', { finish: 'shiny' }, 'body/artworkJson/finish must be one of: matte, gloss, soft-touch, foil.'],
      ['finish (case)', { finish: 'Matte' }, 'body/artworkJson/finish must be one of: matte, gloss, soft-touch, foil.'],
      ['lighting', { lighting: 'neon' }, 'body/artworkJson/lighting must be one of: studio, softbox, dramatic, outdoor.'],
      [
        'background.kind',
        { background: { kind: 'pattern', value: 'x' } },
        'body/artworkJson/background/kind must be one of: color, gradient, image.',
      ],
    ])('rejects a value outside the enumeration of %s', async (_label, artworkJson, message) => {
      expectApiError(await api.create(account, { ...base, artworkJson }), 400, message);
    });

    it.each(['matte', 'gloss', 'soft-touch', 'foil'])('accepts finish %s', async (finish) => {
      expect((await api.create(account, { ...base, artworkJson: { finish } })).statusCode).toBe(201);
    });

    it.each(['studio', 'softbox', 'dramatic', 'outdoor'])('accepts lighting %s', async (lighting) => {
      expect((await api.create(account, { ...base, artworkJson: { lighting } })).statusCode).toBe(201);
    });

    it.each(['cardboard', 'kraft', 'corrugated', 'plastic', 'glass', 'aluminum'])('accepts material %s', async (material) => {
      expect((await api.create(account, { ...base, artworkJson: { material } })).statusCode).toBe(201);
    });

    it.each(['unobtanium', '', 'Kraft', 'kraft '])('rejects material %j and stores nothing', async (material) => {
      const before = (await api.list(account)).json<{ total: number }>().total;
      expectApiError(
        await api.create(account, { ...base, artworkJson: { material } }),
        400,
        'body/artworkJson/material must be one of: cardboard, kraft, corrugated, plastic, glass, aluminum.',
      );
      expect((await api.list(account)).json<{ total: number }>().total).toBe(before);
    });

    it('rejects an unknown material on update and keeps the stored document', async () => {
      const project = await api.created(account, { ...base, artworkJson: { material: 'kraft' } });
      expectApiError(await api.update(account, project.id, { artworkJson: { material: 'unobtanium' } }), 400);
      expect((await api.get(account, project.id)).json<{ project: { artworkJson: unknown } }>().project.artworkJson).toEqual({
        material: 'kraft',
      });
    });

    it.each(['color', 'gradient', 'image'])('accepts background kind %s', async (kind) => {
      expect((await api.create(account, { ...base, artworkJson: { background: { kind, value: 'v' } } })).statusCode).toBe(201);
    });

    const placement = fullEditorState().artworks[0] as Record<string, unknown>;
    it.each([
      ['artworkJson as an array', [], 'body/artworkJson must be object.'],
      ['artworkJson as a string', '{}', 'body/artworkJson must be object.'],
      ['artworkJson as null', null, 'body/artworkJson must be object.'],
      ['templateId as a number', { templateId: 1 }, 'body/artworkJson/templateId must be string.'],
      ['dimensions as a string', { dimensions: '10x10x10' }, 'body/artworkJson/dimensions must be object.'],
      ['material as a number', { material: 3 }, 'body/artworkJson/material must be string.'],
      ['thicknessMm as a string', { thicknessMm: '3' }, 'body/artworkJson/thicknessMm must be number.'],
      ['finish as null', { finish: null }, 'body/artworkJson/finish must be string.'],
      ['background as a string', { background: '#fff' }, 'body/artworkJson/background must be object.'],
      ['background without value', { background: { kind: 'color' } }, "body/artworkJson/background must have required property 'value'."],
      [
        'background.value as a number',
        { background: { kind: 'color', value: 0xffffff } },
        'body/artworkJson/background/value must be string.',
      ],
      ['artworks as an object', { artworks: { 0: placement } }, 'body/artworkJson/artworks must be array.'],
      ['an artworks item as a string', { artworks: ['art-1'] }, 'body/artworkJson/artworks/0 must be object.'],
      ['offsetX as a string', { artworks: [{ ...placement, offsetX: '1' }] }, 'body/artworkJson/artworks/0/offsetX must be number.'],
      ['scale as null', { artworks: [{ ...placement, scale: null }] }, 'body/artworkJson/artworks/0/scale must be number.'],
      ['id as a number', { artworks: [{ ...placement, id: 1 }] }, 'body/artworkJson/artworks/0/id must be string.'],
    ])('rejects %s', async (_label, artworkJson, message) => {
      expectApiError(await api.create(account, { ...base, artworkJson }), 400, message);
    });

    it.each(['id', 'panelId', 'imageUrl', 'offsetX', 'offsetY', 'scale', 'rotationDeg'])(
      'requires %s in every artworks item',
      async (field) => {
        const { [field]: _dropped, ...rest } = placement;
        const response = await api.create(account, { ...base, artworkJson: { artworks: [placement, rest] } });
        expectApiError(response, 400, `body/artworkJson/artworks/1 must have required property '${field}'.`);
      },
    );

    it('rejects a number beyond a double inside artworks (1e400)', async () => {
      const body = JSON.stringify({ ...base, artworkJson: { artworks: [{ ...placement, offsetX: 12345 }] } }).replace('12345', '1e400');
      expectApiError(await api.raw(account, 'POST', '/projects', body), 400);
    });

    it('accepts 200 artworks and rejects 201', async () => {
      const items = (count: number) => Array.from({ length: count }, (_, index) => ({ ...placement, id: `art-${index}` }));
      expect((await api.create(account, { ...base, artworkJson: { artworks: items(200) } })).statusCode).toBe(201);
      expectApiError(
        await api.create(account, { ...base, artworkJson: { artworks: items(201) } }),
        400,
        'body/artworkJson/artworks must NOT have more than 200 items.',
      );
    });

    it.each([
      ['artworkJson.templateId', 100, (text: string) => ({ templateId: text })],
      ['artworkJson.background.value', 2048, (text: string) => ({ background: { kind: 'image', value: text } })],
      ['an artwork id', 100, (text: string) => ({ artworks: [{ ...placement, id: text }] })],
      ['an artwork panelId', 100, (text: string) => ({ artworks: [{ ...placement, panelId: text }] })],
      ['an artwork imageUrl', 2048, (text: string) => ({ artworks: [{ ...placement, imageUrl: text }] })],
    ])('bounds %s at %i characters', async (_label, limit, state) => {
      expect((await api.create(account, { ...base, artworkJson: state('x'.repeat(limit)) })).statusCode).toBe(201);
      expectApiError(
        await api.create(account, { ...base, artworkJson: state('x'.repeat(limit + 1)) }),
        400,
        new RegExp(`must NOT have more than ${limit} characters\\.$`),
      );
    });
  });
});
