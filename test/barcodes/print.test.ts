// Barcodes placed at 100 % on a carton and printed: each symbol, cut from the print PDF rendered at
// 600 dpi by poppler, read back by zxing to exactly the data sent; the symbols vector (no image
// XObject), in one ink (Ghostscript's separations: K only in cmyk; DeviceGray in rgb, read in the
// qpdf --qdf content), overprinting the background.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { Dieline } from '../../src/dielines/index.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { decodeImage } from '../helpers/zxing.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, catalogDieline, createProject } from '../print/harness.js';
import { readPdf, separations, uncompressed, withPdfFile, type Plate } from '../print/pdf-reader.js';
import { CASES } from './cases.js';

const CARTON = { widthMm: 200, heightMm: 200, depthMm: 80 };
const BLEED_MM = 3;

/** Where each type goes: panel and offset of its centre in the panel's upright frame, mm. */
const LAYOUT: Record<string, { panelId: string; offset: [number, number] }> = {
  itf14: { panelId: 'front', offset: [0, -55] },
  ean13: { panelId: 'front', offset: [-50, 40] },
  ean8: { panelId: 'front', offset: [50, 40] },
  'gs1-128': { panelId: 'back', offset: [0, -55] },
  upca: { panelId: 'back', offset: [-50, 40] },
  upce: { panelId: 'back', offset: [50, 40] },
  'gs1-datamatrix': { panelId: 'left', offset: [0, -40] },
  qrcode: { panelId: 'right', offset: [0, -40] },
};

interface Made {
  url: string;
  barcode: { type: string; widthMm: number; heightMm: number };
}

let app: App;
let owner: TestAccount;
let dieline: Dieline;
const made = new Map<string, Made>();

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  dieline = catalogDieline('reverse-tuck-carton', CARTON, BLEED_MM);
  for (const { request } of CASES) {
    const response = await app.inject({ method: 'POST', url: '/barcodes', headers: owner.auth, payload: request });
    expect(response.statusCode, response.body).toBe(201);
    made.set(request.type, response.json<{ asset: Made }>().asset);
  }
}, 300_000);
afterAll(async () => {
  await app?.close();
});

const panel = (id: string) => dieline.panels.find((candidate) => candidate.id === id)!;

/** Every symbol at 100 %: printed width = the SVG's width. */
function placements(types: readonly string[] = Object.keys(LAYOUT)) {
  return types.map((type) => {
    const { panelId, offset } = LAYOUT[type]!;
    const asset = made.get(type)!;
    return artwork(type, panelId, asset.url, {
      offsetX: offset[0],
      offsetY: offset[1],
      scale: asset.barcode.widthMm / panel(panelId).frame.width,
    });
  });
}

/** The symbol's rectangle on the page (mm from the page's top-left), marks off: the page starts at the bleed. */
function pageRect(type: string, marginMm = 0) {
  const { panelId, offset } = LAYOUT[type]!;
  const { center } = panel(panelId).frame;
  const { widthMm, heightMm } = made.get(type)!.barcode;
  const trim = dieline.pieces[0]!.bounds;
  return {
    x: center[0] + offset[0] - widthMm / 2 - trim.x + BLEED_MM - marginMm,
    y: center[1] + offset[1] - heightMm / 2 - trim.y + BLEED_MM - marginMm,
    width: widthMm + 2 * marginMm,
    height: heightMm + 2 * marginMm,
  };
}

async function print(id: string, query: string): Promise<Buffer> {
  const response = await app.inject({ method: 'GET', url: `/projects/${id}/print?marks=false&${query}`, headers: owner.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

/** One region of page 1 rendered by pdftoppm at `dpi`, as PNG. */
function renderRegion(pdf: Buffer, rect: { x: number; y: number; width: number; height: number }, dpi: number): Buffer {
  const px = (mm: number) => String(Math.round((mm * dpi) / 25.4));
  return withPdfFile(pdf, (file, dir) => {
    const crop = ['-x', px(rect.x), '-y', px(rect.y), '-W', px(rect.width), '-H', px(rect.height)];
    execFileSync('pdftoppm', ['-r', String(dpi), '-f', '1', '-l', '1', ...crop, '-png', '-singlefile', file, path.join(dir, 'region')]);
    return readFileSync(path.join(dir, 'region.png'));
  });
}

/** Ink on a plate inside a page rectangle (mm): its lowest and highest value, 0–255. */
function inkRange(plate: Plate, rect: { x: number; y: number; width: number; height: number }, dpi: number) {
  const px = (mm: number) => Math.round((mm * dpi) / 25.4);
  let min = 255;
  let max = 0;
  for (let y = px(rect.y); y < px(rect.y + rect.height); y++) {
    for (let x = px(rect.x); x < px(rect.x + rect.width); x++) {
      const ink = plate.ink[y * plate.width + x]!;
      min = Math.min(min, ink);
      max = Math.max(max, ink);
    }
  }
  return { min, max };
}

const inset = (rect: { x: number; y: number; width: number; height: number }, mm: number) => ({
  x: rect.x + mm,
  y: rect.y + mm,
  width: rect.width - 2 * mm,
  height: rect.height - 2 * mm,
});

describe('barcodes in print files', () => {
  let projectId: string;
  let rgb: Buffer;
  let cmyk: Buffer;

  beforeAll(async () => {
    projectId = await createProject(app, owner, 'reverse-tuck-carton', { artworks: placements() }, CARTON);
    rgb = await print(projectId, 'colorSpace=rgb');
    cmyk = await print(projectId, 'colorSpace=cmyk&dieline=false');
  }, 300_000);
  it('a correct placement at 100 % gives no barcode finding', async () => {
    const response = await app.inject({ method: 'GET', url: `/projects/${projectId}/preflight`, headers: owner.auth });
    const { findings } = response.json<{ preflight: { findings: { code: string }[] } }>().preflight;
    expect(findings.filter((finding) => finding.code.startsWith('BARCODE_'))).toEqual([]);
  });

  it.each(CASES)('$request.type, cut from the rgb and cmyk print at 600 dpi, ' +
    'reads as the data sent', async ({ request, format, decoded }) => {
    for (const pdf of [rgb, cmyk]) {
      const region = renderRegion(pdf, pageRect(request.type, 3), 600);
      const found = await decodeImage(region, [format]);
      expect(found.map((result) => [result.format, result.text])).toEqual([[format, decoded]]);
    }
  });

  it('draws every symbol as vector paths in one overprinting ink: DeviceGray in rgb, K in cmyk, never an image', () => {
    for (const pdf of [rgb, cmyk]) {
      const objects = readPdf(pdf);
      expect(objects.streams((dict) => dict['/Subtype'] === '/Image')).toEqual([]);
      const states = Object.values(objects.objects).map((entry) => entry.value as Record<string, unknown> | undefined);
      expect(
        states.some((state) => state?.['/Type'] === '/ExtGState' && state['/OP'] === true && state['/op'] === true && state['/OPM'] === 1),
      ).toBe(true);
    }
    const rgbContent = uncompressed(rgb);
    const cmykContent = uncompressed(cmyk);
    expect(rgbContent.match(/\/GsBarcode gs 0 g\b/g)).toHaveLength(CASES.length);
    expect(cmykContent.match(/\/GsBarcode gs 0 0 0 1 k\b/g)).toHaveLength(CASES.length);
    // Nothing else in the barcode blocks sets a colour.
    for (const block of rgbContent.split('/GsBarcode gs').slice(1)) {
      expect(block.split(/\bQ\b/)[0]).not.toMatch(/\b(rg|RG|k|K|scn|SCN|cs|CS)\b/);
    }
  });

  it('separates every symbol onto the K plate alone in cmyk', async () => {
    const dpi = 100;
    const plates = await separations(cmyk, dpi);
    const plate = (name: string) => plates.find((candidate) => candidate.name === name)!;
    for (const type of Object.keys(LAYOUT)) {
      const rect = inset(pageRect(type), 0.5);
      for (const name of ['Cyan', 'Magenta', 'Yellow']) expect(inkRange(plate(name), rect, dpi).max, `${type} on ${name}`).toBe(0);
      const black = inkRange(plate('Black'), rect, dpi);
      expect(black.max, type).toBeGreaterThan(240);
      expect(black.min, type).toBeLessThan(15);
    }
  });

  it('overprints a coloured background: its inks stay under the bars', async () => {
    const id = await createProject(
      app,
      owner,
      'reverse-tuck-carton',
      { background: { kind: 'color', value: '#ff0000' }, artworks: placements(['ean13']) },
      CARTON,
    );
    const pdf = await print(id, 'colorSpace=cmyk&dieline=false');
    const dpi = 100;
    const plates = await separations(pdf, dpi);
    const rect = inset(pageRect('ean13'), 0.5);
    const range = (name: string) => inkRange(plates.find((candidate) => candidate.name === name)!, rect, dpi);
    const black = range('Black');
    expect(black.max).toBeGreaterThan(240);
    expect(black.min).toBeLessThan(15);
    expect(range('Cyan').max).toBe(0);
    for (const name of ['Magenta', 'Yellow']) {
      const ink = range(name);
      // Not knocked out where the bars are: the red's ink is even across the symbol.
      expect(ink.max - ink.min, name).toBeLessThanOrEqual(3);
      expect(ink.min, name).toBeGreaterThan(150);
    }
  });
});
