import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { imageFixture, type ImageFixture } from '../helpers/images.js';
import { filePart, multipartBody } from '../helpers/multipart.js';
import { assetCount, expectApiError, STORED_NAME, upload, uploadAsset, uploadDirEntries, uploadFile, type AssetBody } from './helpers.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe(`POST /assets (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('accepted images', () => {
    const cases: Array<[ImageFixture, string, string, string]> = [
      ['tiny.png', 'image/png', 'image/png', 'png'],
      ['tiny.jpg', 'image/jpeg', 'image/jpeg', 'jpg'],
      ['tiny.gif', 'image/gif', 'image/gif', 'gif'],
      ['tiny.webp', 'image/webp', 'image/webp', 'webp'],
      ['tiny.avif', 'image/avif', 'image/avif', 'avif'],
      ['tiny.svg', 'image/svg+xml', 'image/svg+xml', 'svg'],
    ];

    it.each(cases)('%s → 201 with the detected type %s', async (fixture, declared, detected, ext) => {
      const data = imageFixture(fixture);
      const response = await uploadFile(app, owner, data, { filename: fixture, contentType: declared });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = response.json<{ asset: AssetBody }>();
      expect(Object.keys(body)).toEqual(['asset']);
      const { asset } = body;
      expect(Object.keys(asset).sort()).toEqual([
        'barcode', 'colorSpace', 'createdAt', 'dpi', 'filename', 'hasAlpha', 'heightPx', 'id', 'mimeType',
        'name', 'sha256', 'sizeBytes', 'thumbnailUrl', 'url', 'userId', 'widthPx',
      ]);
      expect((asset as AssetBody & { barcode: unknown }).barcode).toBeNull();
      expect(asset.userId).toBe(owner.id);
      expect(asset.name).toMatch(STORED_NAME);
      expect(asset.name.endsWith(`.${ext}`)).toBe(true);
      expect(asset.url).toBe(`/files/${asset.name}`);
      expect(asset.filename).toBe(fixture);
      expect(asset.mimeType).toBe(detected);
      expect(asset.sizeBytes).toBe(data.length);
      expect(asset.createdAt).toMatch(ISO);
      expect(await uploadDirEntries(app)).toContain(asset.name);
    });

    it('stores the detected type, not the declared one (a JPEG declared image/png)', async () => {
      const asset = await uploadAsset(app, owner, imageFixture('tiny.jpg'), { filename: 'photo.png', contentType: 'image/png' });
      expect(asset.mimeType).toBe('image/jpeg');
      expect(asset.name).toMatch(/\.jpg$/);
      expect(asset.filename).toBe('photo.png');
    });

    it('accepts an SVG that carries script (it is served under a sandboxing CSP)', async () => {
      const asset = await uploadAsset(app, owner, imageFixture('scripted.svg'), { filename: 'x.svg', contentType: 'image/svg+xml' });
      expect(asset.mimeType).toBe('image/svg+xml');
    });

    it('gives every upload its own unguessable name and id', async () => {
      const data = imageFixture('tiny.png');
      const [a, b] = [await uploadAsset(app, owner, data), await uploadAsset(app, owner, data)];
      expect(a.name).not.toBe(b.name);
      expect(a.id).not.toBe(b.id);
    });
  });

  describe('type checks (415)', () => {
    it('refuses a part declared text/plain, whatever its content', async () => {
      const before = await uploadDirEntries(app);
      const response = await uploadFile(app, owner, imageFixture('tiny.png'), { contentType: 'text/plain' });
      expectApiError(response, 415, 'Only images can be uploaded: the file part must be declared with an image/* type.');
      expect(await uploadDirEntries(app)).toEqual(before);
    });

    it('refuses a part declared application/octet-stream', async () => {
      const response = await uploadFile(app, owner, imageFixture('tiny.png'), { contentType: 'application/octet-stream' });
      expectApiError(response, 415);
    });

    it('refuses a file part without a Content-Type (busboy defaults it to text/plain)', async () => {
      const response = await uploadFile(app, owner, imageFixture('tiny.png'), { contentType: undefined });
      expectApiError(response, 415);
    });

    const disguised: Array<[string, string | Buffer, string]> = [
      ['HTML bytes declared image/png', imageFixture('page-disguised.png'), 'image/png'],
      ['HTML bytes declared image/svg+xml', imageFixture('page-disguised.png'), 'image/svg+xml'],
      [
        'an XML document that is not SVG',
        '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
        'image/svg+xml',
      ],
      ['an <svg> hidden in a comment before HTML', '<!-- <svg> --><html><script>alert(1)</script></html>', 'image/svg+xml'],
      [
        'an SVG behind an xml-stylesheet instruction',
        '<?xml-stylesheet type="text/xsl" href="x.xsl"?><svg xmlns="http://www.w3.org/2000/svg"/>',
        'image/svg+xml',
      ],
      [
        'an SVG with a DOCTYPE internal subset (entities)',
        '<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg"/>',
        'image/svg+xml',
      ],
      ['a PDF declared image/png', '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n', 'image/png'],
      ['a ZIP declared image/png', Buffer.from('504b0304140000000800', 'hex'), 'image/png'],
      [
        'a BMP (a real image, not on the list)',
        Buffer.concat([Buffer.from('424d3a000000000000003600000028000000010000000100000001001800', 'hex'), Buffer.alloc(28)]),
        'image/bmp',
      ],
      ['plain text declared image/png', 'just some words, nothing more', 'image/png'],
      ['an empty file', '', 'image/png'],
    ];

    it.each(disguised)('refuses %s: 415, no file, no row', async (_label, data, contentType) => {
      const account = await registerAccount(app);
      const before = await uploadDirEntries(app);
      const response = await uploadFile(app, account, data, { contentType });
      expectApiError(response, 415, 'The file content is not a supported image (PNG, JPEG, GIF, WebP, AVIF or SVG).');
      expect(await uploadDirEntries(app)).toEqual(before);
      expect(await assetCount(app, account.id)).toBe(0);
    });
  });

  describe('multipart shape', () => {
    it('no file part → 400 "No file was uploaded."', async () => {
      const response = await upload(app, owner, []);
      expectApiError(response, 400, 'No file was uploaded.');
    });

    it('an empty multipart body → 400 "No file was uploaded."', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/assets',
        headers: { ...owner.auth, 'content-type': 'multipart/form-data; boundary=abc' },
        payload: '',
      });
      expectApiError(response, 400, 'No file was uploaded.');
    });

    it('two file parts → 400, and the first one is not kept', async () => {
      const account = await registerAccount(app);
      const before = await uploadDirEntries(app);
      const png = imageFixture('tiny.png');
      const response = await upload(app, account, [filePart(png), filePart(png, { filename: 'second.png' })]);
      expectApiError(response, 400, 'Only one file part named "file" may be sent.');
      expect(await uploadDirEntries(app)).toEqual(before);
      expect(await assetCount(app, account.id)).toBe(0);
    });

    it('a file part under another name → 400', async () => {
      const response = await upload(app, owner, [filePart(imageFixture('tiny.png'), { name: 'image' })]);
      expectApiError(response, 400, 'Only one file part named "file" may be sent.');
    });

    it('a text field next to the file → 400 (unknown fields are rejected), whether before or after it', async () => {
      const account = await registerAccount(app);
      const before = await uploadDirEntries(app);
      const png = imageFixture('tiny.png');
      for (const parts of [
        [{ name: 'title', data: 'hello' }, filePart(png)],
        [filePart(png), { name: 'title', data: 'hello' }],
      ]) {
        expectApiError(await upload(app, account, parts), 400, 'Only one file part named "file" may be sent.');
      }
      expect(await uploadDirEntries(app)).toEqual(before);
      expect(await assetCount(app, account.id)).toBe(0);
    });

    it('a field named "file" without a filename is not a file → 400', async () => {
      const response = await upload(app, owner, [{ name: 'file', data: 'not a file' }]);
      expectApiError(response, 400);
    });

    it('a field declared as JSON that does not parse → 400', async () => {
      const response = await upload(app, owner, [
        { name: 'meta', contentType: 'application/json', data: '{nope' },
        filePart(imageFixture('tiny.png')),
      ]);
      expectApiError(response, 400);
    });

    it('a truncated body (no closing boundary) → 400, nothing kept', async () => {
      const account = await registerAccount(app);
      const before = await uploadDirEntries(app);
      const { body, contentType } = multipartBody([filePart(imageFixture('tiny.png'))]);
      const cut = body.subarray(0, body.length - 20);
      const response = await app.inject({
        method: 'POST',
        url: '/assets',
        headers: { ...account.auth, 'content-type': contentType },
        payload: cut,
      });
      expectApiError(response, 400);
      expect(await uploadDirEntries(app)).toEqual(before);
      expect(await assetCount(app, account.id)).toBe(0);
    });

    it('a multipart Content-Type without a boundary → 400', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/assets',
        headers: { ...owner.auth, 'content-type': 'multipart/form-data' },
        payload: 'whatever',
      });
      expectApiError(response, 400, 'Multipart body is malformed.');
    });

    it('a JSON body → 415', async () => {
      const response = await app.inject({ method: 'POST', url: '/assets', headers: owner.auth, payload: { file: 'x' } });
      expectApiError(response, 415);
    });

    it('a text/plain body → 415', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/assets',
        headers: { ...owner.auth, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expectApiError(response, 415);
    });

    it('no body at all → 415', async () => {
      const response = await app.inject({ method: 'POST', url: '/assets', headers: owner.auth });
      expectApiError(response, 415);
    });

    it('too many parts → 400', async () => {
      const fields = Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, data: 'x' }));
      const response = await upload(app, owner, fields);
      expectApiError(response, 400);
    });

    it('an unknown query parameter → 400', async () => {
      const { body, contentType } = multipartBody([filePart(imageFixture('tiny.png'))]);
      const response = await app.inject({
        method: 'POST',
        url: '/assets?x=1',
        headers: { ...owner.auth, 'content-type': contentType },
        payload: body,
      });
      expectApiError(response, 400);
    });

    it('multipart is accepted by POST /assets only: another route answers 415', async () => {
      const { body, contentType } = multipartBody([{ name: 'email', data: 'a@example.com' }]);
      const response = await app.inject({ method: 'POST', url: '/auth/register', headers: { 'content-type': contentType }, payload: body });
      expectApiError(response, 415);
    });
  });

  describe('file names', () => {
    const names: Array<[string, string, string]> = [
      ['a Unix path', 'photos/2024/logo.png', 'logo.png'],
      ['a Windows path', 'C:\\Users\\me\\logo.png', 'logo.png'],
      ['dot segments', '../../etc/passwd', 'passwd'],
      ['control characters', 'lo\u0001go\u007f.png', 'logo.png'],
      ['a right-to-left override', 'invoice\u202egnp.exe', 'invoicegnp.exe'],
      ['unicode', 'étiquette-été.png', 'étiquette-été.png'],
    ];

    it.each(names)('%s: %j is kept as %j', async (_label, sent, kept) => {
      const asset = await uploadAsset(app, owner, imageFixture('tiny.png'), { filename: sent });
      expect(asset.filename).toBe(kept);
    });

    it('keeps at most 255 characters', async () => {
      const long = `${'é'.repeat(300)}.png`;
      const asset = await uploadAsset(app, owner, imageFixture('tiny.png'), { filename: long });
      expect(asset.filename).toBe('é'.repeat(255));
    });

    it('an empty filename is kept empty', async () => {
      const asset = await uploadAsset(app, owner, imageFixture('tiny.png'), { filename: '' });
      expect(asset.filename).toBe('');
    });

    it('a part declared image/png without a filename is a field, not a file → 400 "No file was uploaded."', async () => {
      const response = await upload(app, owner, [{ name: 'file', contentType: 'image/png', data: imageFixture('tiny.png') }]);
      expectApiError(response, 400, 'No file was uploaded.');
    });
  });

  describe('authentication', () => {
    it('without a token → 401 before the body is looked at', async () => {
      const response = await upload(app, null, [filePart(imageFixture('tiny.png'))]);
      expectApiError(response, 401);
    });

    it('with a bad token → 401', async () => {
      const { body, contentType } = multipartBody([filePart(imageFixture('tiny.png'))]);
      const response = await app.inject({
        method: 'POST',
        url: '/assets',
        headers: { authorization: 'Bearer a.b.c', 'content-type': contentType },
        payload: body,
      });
      expectApiError(response, 401);
    });

    it('a developer key does not open /assets', async () => {
      const response = await app.inject({ method: 'GET', url: '/assets', headers: { 'x-api-key': `pf_${'0'.repeat(48)}` } });
      expectApiError(response, 401);
    });

    it('an invalid body without a token is still 401', async () => {
      const response = await app.inject({ method: 'POST', url: '/assets', headers: { 'content-type': 'text/plain' }, payload: 'x' });
      expectApiError(response, 401);
    });
  });
});
