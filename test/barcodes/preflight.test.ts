// Preflight of placed barcodes through the API (real database, real assets): BARCODE_SIZE at the
// edge of the EAN range, BARCODE_QUIET_ZONE over a crease, touching other artwork and leaving the
// panel, BARCODE_CONTRAST on dark blue but not on red, and under a foil effect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { Dieline } from '../../src/dielines/index.js';
import { barcodeFindings, linearRed } from '../../src/print/barcode-checks.js';
import { placeDesign } from '../../src/print/placement.js';
import type { ResolvedAsset } from '../../src/print/types.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, catalogDieline, projectPreflight, type PreflightFinding } from '../print/harness.js';

const CARTON = { widthMm: 200, heightMm: 200, depthMm: 80 };

let app: App;
let owner: TestAccount;
let dieline: Dieline;
let ean: {
  url: string;
  name: string;
  barcode: { widthMm: number; heightMm: number; moduleMm: number; type: 'ean13'; data: string; magnification: number };
};
let qr: { url: string; barcode: { widthMm: number } };

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  dieline = catalogDieline('reverse-tuck-carton', CARTON);
  const make = async (payload: object) => {
    const response = await app.inject({ method: 'POST', url: '/barcodes', headers: owner.auth, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ asset: typeof ean }>().asset;
  };
  ean = await make({ type: 'ean13', data: '590123412345' });
  qr = await make({ type: 'qrcode', data: 'https://id.gs1.org/01/09501101530003', moduleMm: 0.5 });
}, 300_000);
afterAll(async () => {
  await app?.close();
});

const front = () => dieline.panels.find((panel) => panel.id === 'front')!;
/** The EAN-13 on the front at `magnification` (its asset is made at 1.0). */
const eanAt = (magnification: number, offset: [number, number] = [0, 0], id = 'code') =>
  artwork(id, 'front', ean.url, {
    offsetX: offset[0],
    offsetY: offset[1],
    scale: (ean.barcode.widthMm * magnification) / front().frame.width,
  });

async function barcodeFindingsOf(design: object): Promise<PreflightFinding[]> {
  const { findings } = await projectPreflight(app, owner, 'reverse-tuck-carton', design, CARTON);
  return findings.filter((finding) => finding.code.startsWith('BARCODE_'));
}

describe('barcode preflight', () => {
  it('a correct placement gives no barcode finding, on white or on red', async () => {
    expect(await barcodeFindingsOf({ artworks: [eanAt(1)] })).toEqual([]);
    expect(await barcodeFindingsOf({ background: { kind: 'color', value: '#ff0000' }, artworks: [eanAt(1)] })).toEqual([]);
    expect(await barcodeFindingsOf({ background: { kind: 'color', value: '#ffa500' }, artworks: [eanAt(2)] })).toEqual([]);
  });

  it('BARCODE_SIZE: magnification 0.79 is an error that names it, 0.80 is none', async () => {
    expect(await barcodeFindingsOf({ artworks: [eanAt(0.79)] })).toEqual([
      {
        severity: 'error',
        code: 'BARCODE_SIZE',
        message: 'code on front places the ean13 at magnification 0.79; 0.8 to 2.0 scans reliably.',
        artworkId: 'code',
        panelId: 'front',
      },
    ]);
    expect(await barcodeFindingsOf({ artworks: [eanAt(0.8)] })).toEqual([]);
    expect(await barcodeFindingsOf({ artworks: [eanAt(2)] })).toEqual([]);
    expect((await barcodeFindingsOf({ artworks: [eanAt(2.001)] })).map((finding) => finding.message)).toEqual([
      'code on front places the ean13 at magnification 2.001; 0.8 to 2.0 scans reliably.',
    ]);
    // A module-sized type: the QR at half its size has a module of 0.25 mm (allowed), then 0.24 mm.
    const qrAt = (module: number) => artwork('qr', 'front', qr.url, { scale: (qr.barcode.widthMm * (module / 0.5)) / front().frame.width });
    expect(await barcodeFindingsOf({ artworks: [qrAt(0.25)] })).toEqual([]);
    expect((await barcodeFindingsOf({ artworks: [qrAt(0.24)] })).map((finding) => finding.message)).toEqual([
      'qr on front places the qrcode with a module of 0.24 mm; 0.25 to 1 mm is allowed.',
    ]);
  });

  it('BARCODE_QUIET_ZONE: over a crease, touching another artwork, leaving the panel', async () => {
    const quiet = async (artworks: object[]) =>
      (await barcodeFindingsOf({ artworks })).filter((finding) => finding.code === 'BARCODE_QUIET_ZONE');
    // Centred on the crease between front and left.
    const overCrease = await quiet([eanAt(1, [-front().frame.width / 2 + 5, 0])]);
    expect(overCrease).toHaveLength(1);
    expect(overCrease[0]!.message).toMatch(/^code on front: (a crease runs through|its quiet zones leave the panel)/);
    // Inside the panel, the crease 1 mm beyond the quiet zone: fine.
    expect(await quiet([eanAt(1, [-front().frame.width / 2 + ean.barcode.widthMm / 2 + 1, 0])])).toEqual([]);
    // A second artwork whose edge meets the symbol's right edge exactly.
    const touching = await quiet([eanAt(1, [0, 0]), eanAt(1, [ean.barcode.widthMm, 0], 'neighbour')]);
    expect(touching.map((finding) => [finding.artworkId, finding.message])).toEqual([
      ['code', 'code on front: neighbour touches the symbol or its quiet zones; keep other artwork clear of them.'],
      ['neighbour', 'neighbour on front: code touches the symbol or its quiet zones; keep other artwork clear of them.'],
    ]);
    // 0.5 mm apart: clear.
    expect(await quiet([eanAt(1, [0, 0]), eanAt(1, [ean.barcode.widthMm + 0.5, 0], 'neighbour')])).toEqual([]);
    // Past the front's top edge (a cut edge, no crease): it leaves the panel.
    const past = await quiet([eanAt(1, [0, -front().frame.height / 2 + 5])]);
    expect(past.map((finding) => finding.message)).toEqual([
      'code on front: its quiet zones leave the panel front; keep the whole symbol inside it.',
    ]);
  });

  it('BARCODE_CONTRAST: a dark blue background is an error, red and yellow are not (red light reflects)', async () => {
    expect(linearRed([255, 0, 0])).toBe(1);
    expect(linearRed([0, 0, 128])).toBe(0);
    const blue = await barcodeFindingsOf({ background: { kind: 'color', value: '#1a237e' }, artworks: [eanAt(1)] });
    expect(blue).toEqual([
      {
        severity: 'error',
        code: 'BARCODE_CONTRAST',
        message:
          'code on front: the background under it (#1a237e, red reflectance 0.01) ' +
          'is too dark for a red-light scanner; it needs at least 0.5.',
        artworkId: 'code',
        panelId: 'front',
      },
    ]);
    expect(await barcodeFindingsOf({ background: { kind: 'color', value: '#ff0000' }, artworks: [eanAt(1)] })).toEqual([]);
    expect(await barcodeFindingsOf({ background: { kind: 'color', value: '#ffff00' }, artworks: [eanAt(1)] })).toEqual([]);
    // A gradient is judged where the symbol is: dark blue on the left half of the blank, white on the right.
    const gradient = { kind: 'gradient', value: 'linear-gradient(90deg, #000080 0%, #000080 50%, #ffffff 50%, #ffffff 100%)' };
    const onFront = await barcodeFindingsOf({ background: gradient, artworks: [eanAt(1)] });
    expect(onFront).toEqual([]);
    const onBack = await barcodeFindingsOf({ background: gradient, artworks: [{ ...eanAt(1), panelId: 'back' }] });
    expect(onBack.map((finding) => finding.code)).toEqual(['BARCODE_CONTRAST']);
    // The print is refused while the finding stands.
    const { id } = await projectPreflight(
      app,
      owner,
      'reverse-tuck-carton',
      { background: { kind: 'color', value: '#1a237e' }, artworks: [eanAt(1)] },
      CARTON,
    );
    const response = await app.inject({ method: 'GET', url: `/projects/${id}/print`, headers: owner.auth });
    expect(response.statusCode).toBe(409);
  });

  it('BARCODE_CONTRAST: a foil effect replaces the symbol\'s black', async () => {
    const foiled = await barcodeFindingsOf({ artworks: [{ ...eanAt(1), effect: 'foil-silver' }] });
    expect(foiled.map((finding) => [finding.code, finding.message])).toEqual([
      ['BARCODE_CONTRAST', "code on front: the foil-silver effect replaces the symbol's black; a barcode prints in black ink only."],
    ]);
    expect(await barcodeFindingsOf({ artworks: [{ ...eanAt(1), effect: 'spot-uv' }] })).toEqual([]);
    const asset: ResolvedAsset = {
      name: ean.name,
      mimeType: 'image/svg+xml',
      widthPx: 141,
      heightPx: (141 * ean.barcode.heightMm) / ean.barcode.widthMm,
      sizeBytes: 1,
      barcode: ean.barcode,
      load: async () => Buffer.alloc(0),
    };
    const state = { artworks: [{ ...eanAt(1), effect: 'foil-gold' }] };
    const placement = placeDesign({ dieline, state, assets: new Map([[ean.name, asset]]) });
    expect(barcodeFindings(placement, state).map((finding) => [finding.code, finding.message])).toEqual([
      ['BARCODE_CONTRAST', "code on front: the foil-gold effect replaces the symbol's black; a barcode prints in black ink only."],
    ]);
    const plain = { artworks: [eanAt(1)] };
    expect(barcodeFindings(placeDesign({ dieline, state: plain, assets: new Map([[ean.name, asset]]) }), plain)).toEqual([]);
  });
});
