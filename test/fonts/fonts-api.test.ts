// POST/GET/DELETE /fonts and their /v1 twins: fonts read from their bytes, refused with the
// reason, never served back, and never half-stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { MAX_FONT_BYTES } from '../../src/services/fonts.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { filePart } from '../helpers/multipart.js';
import { issueKey } from '../api-keys/keys.js';
import { expectApiError, uploadDirEntries } from '../assets/helpers.js';
import { collectionOf, dejavu, fontPart, postFont, uploadFont, urw, withoutNames, woff2Of, type FontBody } from './font-files.js';

describe(`fonts (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    app = await createTestApp();
    [owner, stranger] = [await registerAccount(app), await registerAccount(app)];
  });
  afterAll(async () => {
    await app?.close();
  });

  const list = async (account: TestAccount) => {
    const response = await app.inject({ method: 'GET', url: '/fonts', headers: account.auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ fonts: FontBody[]; bundled: { family: string; styles: { style: string; weight: number }[] }[] }>();
  };

  it('TrueType, OpenType (CFF) and WOFF2 → 201 with family, ' +
    'style and weight from the font; WOFF2 is stored as the TrueType it holds', async () => {
    const ttf = dejavu('DejaVuSerif-BoldItalic.ttf');
    const serif = await uploadFont(app, owner, ttf);
    expect(serif).toMatchObject({ family: 'DejaVu Serif', style: 'italic', weight: 700, format: 'truetype', sizeBytes: ttf.length });
    expect(Object.keys(serif).sort()).toEqual(['createdAt', 'family', 'format', 'id', 'sizeBytes', 'style', 'weight']);

    const otf = await uploadFont(app, owner, urw('NimbusSans-Regular.otf'));
    expect(otf).toMatchObject({ family: 'Nimbus Sans', style: 'normal', weight: 400, format: 'opentype' });

    const plain = dejavu('DejaVuSansMono-Oblique.ttf');
    const woff2 = await woff2Of(plain);
    expect(woff2.subarray(0, 4).toString('latin1')).toBe('wOF2');
    const unpacked = await uploadFont(app, owner, woff2);
    expect(unpacked).toMatchObject({ family: 'DejaVu Sans Mono', style: 'oblique', weight: 400, format: 'truetype' });
    // Decompressed: the font's own size (WOFF2 keeps the tables, not their padding, byte for byte).
    expect(unpacked.sizeBytes).toBeGreaterThan(woff2.length * 1.5);
    const row = await app.db.prisma.font.findUniqueOrThrow({ where: { id: unpacked.id } });
    expect((await uploadDirEntries(app)).includes(row.name)).toBe(true);

    const { fonts, bundled } = await list(owner);
    expect(fonts.map((font) => font.id)).toEqual([unpacked.id, otf.id, serif.id]);
    expect(bundled.map((family) => family.family)).toEqual(['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono']);
    expect(bundled[0]!.styles).toContainEqual({ style: 'normal', weight: 400 });
    expect((await list(stranger)).fonts).toEqual([]);
  });

  it('not a font → 415 "Unsupported font file."; nothing is stored', async () => {
    const before = await uploadDirEntries(app);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const truncated = dejavu('DejaVuSans.ttf').subarray(0, 2000);
    for (const data of [png, Buffer.from('hello'), truncated, Buffer.from('wOF2' + 'x'.repeat(60))]) {
      expectApiError(await postFont(app, owner.auth, [fontPart(data)]), 415, 'Unsupported font file.');
    }
    expect(await uploadDirEntries(app)).toEqual(before);
  });

  it('a collection or a font without a family name → 422 with the reason; nothing is stored', async () => {
    const before = await uploadDirEntries(app);
    const count = await app.db.prisma.font.count();
    expectApiError(
      await postFont(app, owner.auth, [fontPart(collectionOf(dejavu('DejaVuSans.ttf')))]),
      422,
      'The file is a font collection; upload each font of it on its own.',
    );
    expectApiError(
      await postFont(app, owner.auth, [fontPart(withoutNames(dejavu('DejaVuSans.ttf'), [1, 16]))]),
      422,
      'The font has no family name in its name table.',
    );
    expect(await uploadDirEntries(app)).toEqual(before);
    expect(await app.db.prisma.font.count()).toBe(count);
  });

  it('over 20 MB → 413; no file part, a second part or a stray field → 400; no token → 401', async () => {
    const big = Buffer.concat([dejavu('DejaVuSans.ttf'), Buffer.alloc(MAX_FONT_BYTES)]);
    expectApiError(await postFont(app, owner.auth, [fontPart(big)]), 413, 'Font is larger than 20 MB (20,971,520 bytes).');
    expectApiError(await postFont(app, owner.auth, [{ name: 'note', data: 'x' }]), 400, 'No file was uploaded.');
    expectApiError(
      await postFont(app, owner.auth, [fontPart(dejavu('DejaVuSans.ttf')), { name: 'note', data: 'x' }]),
      400,
      'Only one file part named "file" may be sent.',
    );
    expectApiError(
      await postFont(app, owner.auth, [filePart(dejavu('DejaVuSans.ttf'), { name: 'font' })]),
      400,
      'Only one file part named "file" may be sent.',
    );
    expectApiError(await postFont(app, {}, [fontPart(dejavu('DejaVuSans.ttf'))]), 401);
  });

  it("DELETE → 204 and the file goes; another account's, " +
    "unknown or malformed → 404 \"Font not found.\"; the bytes are never served", async () => {
    const font = await uploadFont(app, owner, dejavu('DejaVuSans-Bold.ttf'));
    const { name } = await app.db.prisma.font.findUniqueOrThrow({ where: { id: font.id } });
    expect((await app.inject({ method: 'GET', url: `/files/${name}` })).statusCode).toBe(404);
    for (const [account, id] of [[stranger, font.id], [owner, 'nosuchfont000000000000000'], [owner, 'not%20an%20id']] as const) {
      expectApiError(await app.inject({ method: 'DELETE', url: `/fonts/${id}`, headers: account.auth }), 404, 'Font not found.');
    }
    expect(await uploadDirEntries(app)).toContain(name);
    const response = await app.inject({ method: 'DELETE', url: `/fonts/${font.id}`, headers: owner.auth });
    expect(response.statusCode).toBe(204);
    expect(await uploadDirEntries(app)).not.toContain(name);
    expectApiError(await app.inject({ method: 'DELETE', url: `/fonts/${font.id}`, headers: owner.auth }), 404, 'Font not found.');
  });

  it('/v1/fonts acts for the key\'s account', async () => {
    const { key } = await issueKey(app, stranger);
    const font = await uploadFont(app, { ...stranger, auth: { 'x-api-key': key } as never }, dejavu('DejaVuSans-Oblique.ttf'), '/v1/fonts');
    const listed = await app.inject({ method: 'GET', url: '/v1/fonts', headers: { 'x-api-key': key } });
    expect(listed.json<{ fonts: FontBody[] }>().fonts.map((f) => f.id)).toContain(font.id);
    expect((await list(stranger)).fonts.map((f) => f.id)).toContain(font.id);
    expect((await app.inject({ method: 'DELETE', url: `/v1/fonts/${font.id}`, headers: { 'x-api-key': key } })).statusCode).toBe(204);
    expectApiError(await app.inject({ method: 'GET', url: '/v1/fonts' }), 401);
  });

  it("deleting the account removes its font files", async () => {
    const leaving = await registerAccount(app);
    const font = await uploadFont(app, leaving, dejavu('DejaVuSans.ttf'));
    const { name } = await app.db.prisma.font.findUniqueOrThrow({ where: { id: font.id } });
    const response = await app.inject({
      method: 'DELETE',
      url: '/auth/me',
      headers: leaving.auth,
      payload: { password: leaving.password },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await uploadDirEntries(app)).not.toContain(name);
  });
});
