// POST /barcodes and /v1/barcodes through the real app and database: the SVG asset, its barcode
// facts, its file and thumbnail; bad input a 400 naming the field, with nothing stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { expectApiError, uploadDirEntries } from '../assets/helpers.js';
import { issueKey } from '../api-keys/keys.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { decodeImage, rasteriseSvg } from '../helpers/zxing.js';

let app: App;
let owner: TestAccount;

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerAccount(app);
}, 300_000);
afterAll(async () => {
  await app?.close();
});

interface BarcodeAsset {
  id: string;
  name: string;
  url: string;
  mimeType: string;
  filename: string;
  thumbnailUrl: string | null;
  widthPx: number;
  heightPx: number;
  barcode: { type: string; data: string; magnification: number | null; moduleMm: number; widthMm: number; heightMm: number } | null;
}

const post = (payload: unknown, headers: Record<string, string> = owner.auth, url = '/barcodes') =>
  app.inject({ method: 'POST', url, headers, payload: payload as object });

async function assetCount(account: TestAccount): Promise<number> {
  const response = await app.inject({ method: 'GET', url: '/assets', headers: account.auth });
  return response.json<{ total: number }>().total;
}

describe('POST /barcodes', () => {
  it('makes an SVG asset of the caller that carries the symbol, with its file and thumbnail', async () => {
    const response = await post({ type: 'ean13', data: '590123412345' });
    expect(response.statusCode, response.body).toBe(201);
    const { asset } = response.json<{ asset: BarcodeAsset }>();
    expect(asset.mimeType).toBe('image/svg+xml');
    expect(asset.filename).toBe('ean13-5901234123457.svg');
    expect(asset.barcode).toEqual({
      type: 'ean13',
      data: '5901234123457',
      magnification: 1,
      moduleMm: 0.33,
      widthMm: 37.29,
      heightMm: 25.93,
    });

    const file = await app.inject({ method: 'GET', url: asset.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(file.body).toMatch(/^<svg [^>]*width="37.29mm" height="25.93mm"/);
    expect((await decodeImage(rasteriseSvg(file.body))).map((result) => result.text)).toEqual(['5901234123457']);
    const thumbnail = await app.inject({ method: 'GET', url: asset.thumbnailUrl! });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');

    const read = await app.inject({ method: 'GET', url: `/assets/${asset.id}`, headers: owner.auth });
    expect(read.json<{ asset: BarcodeAsset }>().asset.barcode).toEqual(asset.barcode);
  });

  it('sizes the types without magnification by their module, and records null magnification', async () => {
    const response = await post({ type: 'gs1-datamatrix', data: '(01)09501101530003(17)250101', moduleMm: 0.4, barWidthReductionMm: 0.02 });
    expect(response.statusCode, response.body).toBe(201);
    const { barcode } = response.json<{ asset: BarcodeAsset }>().asset;
    expect(barcode).toMatchObject({ type: 'gs1-datamatrix', data: '(01)09501101530003(17)250101', magnification: null, moduleMm: 0.4 });
    expect(barcode!.widthMm).toBe(barcode!.heightMm);
  });

  it('answers /v1/barcodes for a developer key, the key owner owning the asset', async () => {
    const account = await registerAccount(app);
    const { key } = await issueKey(app, account);
    const response = await post({ type: 'qrcode', data: 'https://id.gs1.org/01/09501101530003' }, { 'x-api-key': key }, '/v1/barcodes');
    expect(response.statusCode, response.body).toBe(201);
    const { asset } = response.json<{ asset: BarcodeAsset & { userId: string } }>();
    expect(asset.userId).toBe(account.id);
    expect(asset.barcode!.type).toBe('qrcode');
    expectApiError(await post({ type: 'qrcode', data: 'x' }, {}, '/v1/barcodes'), 401, 'Missing x-api-key header.');
  });

  it('needs a token', async () => {
    expectApiError(await post({ type: 'ean13', data: '590123412345' }, {}), 401);
  });

  it.each([
    [{ type: 'ean13', data: '5901234123458' }, 'data: the check digit should be 7.'],
    [{ type: 'ean8', data: '963850' }, 'data: an EAN-8 has 7 digits, or 8 with its check digit; 6 were sent.'],
    [{ type: 'upca', data: '03600029145A' }, "data: only digits are allowed; 'A' is not a digit."],
    [{ type: 'gs1-128', data: '(01)09501101530003(99)X(7777)Y' }, 'data: (7777) is not a GS1 Application Identifier.'],
    [{ type: 'gs1-datamatrix', data: '(01)09501101530003(17)251340' }, 'data: (17) is a date YYMMDD; 251340 has no month 13.'],
    [{ type: 'itf14', data: '1540014128876', moduleMm: 0.3 }, 'moduleMm: must be between 0.495 and 1.016 mm for itf14.'],
    [{ type: 'ean13', data: '590123412345', moduleMm: 0.5 }, 'moduleMm: does not apply to ean13, which is sized by magnification.'],
    [
      { type: 'gs1-128', data: '(01)09501101530003(10)ABCDEFGHIJKLMNOPQRST(21)ABCDEFGHIJKLMNOPQRST' },
      'data: a GS1-128 holds at most 48 data characters; this one needs 61.',
    ],
  ])('refuses %j with a 400 naming the field, storing nothing', async (payload, message) => {
    const before = await assetCount(owner);
    const files = await uploadDirEntries(app);
    const response = await post(payload);
    expectApiError(response, 400, message);
    expect(await assetCount(owner)).toBe(before);
    expect(await uploadDirEntries(app)).toEqual(files);
  });

  it('refuses what the schema rules out, naming the field', async () => {
    for (const [payload, field] of [
      [{ type: 'ean13', data: '590123412345', magnification: 0.79 }, 'magnification'],
      [{ type: 'ean13', data: '590123412345', magnification: 2.01 }, 'magnification'],
      [{ type: 'code39', data: '123' }, 'type'],
      [{ type: 'qrcode', data: 'x'.repeat(1001) }, 'data'],
      [{ type: 'qrcode', data: 'x', barWidthReductionMm: 0.11 }, 'barWidthReductionMm'],
      [{ type: 'qrcode', data: 'x', colour: 'red' }, 'colour'],
    ] as const) {
      const response = await post(payload);
      expectApiError(response, 400);
      expect(response.json<{ message: string }>().message, JSON.stringify(payload)).toContain(field);
    }
  });
});
