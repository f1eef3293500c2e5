// Press-safe black (extensions §14), read back with Ghostscript's tiffsep separations and qpdf:
// neutral SVG colours on one grey ink (K only in cmyk files, DeviceGray in rgb files), dark text
// and thin strokes overprinting a cream background (its C, M, Y stay under them), lighter greys
// and thick strokes knocking out, richBlack on large #000 areas, and eye marks on K alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { Dieline } from '../../src/dielines/index.js';
import { uploadAsset } from '../assets/helpers.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, catalogDieline, createProject } from './harness.js';
import { readPdf, separations, streamBytes, type Plate } from './pdf-reader.js';

const CARTON = { widthMm: 60, heightMm: 120, depthMm: 40 };
const DPI = 120;
const SCALE = 0.9;
const CREAM = '#f3e9d2';

// 200 × 200 units; on the front panel (60 mm wide, scale 0.9) one unit is 0.27 mm.
const ART = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">' +
    '<rect x="10" y="5" width="180" height="50" fill="#000"/>' +
    '<path d="M10 70 H190" stroke="#000" stroke-width="2.5"/>' +
    '<path d="M10 80 H190" stroke="#1a1a1a" stroke-width="2.5"/>' +
    '<path d="M10 90 H190" stroke="#808080" stroke-width="2.5"/>' +
    '<path d="M10 100 H190" stroke="#000" stroke-width="3"/>' +
    '<text x="10" y="132" font-family="sans-serif" font-weight="bold" font-size="26" fill="#000">OATS OATS</text>' +
    '<text x="10" y="162" font-family="sans-serif" font-weight="bold" font-size="26" fill="#1a1a1a">OATS OATS</text>' +
    '<text x="10" y="192" font-family="sans-serif" font-weight="bold" font-size="26" fill="#808080">OATS OATS</text>' +
    '</svg>',
);

let app: App;
let owner: TestAccount;
let dieline: Dieline;
let projectId: string;

function get(url: string) {
  return app.inject({ method: 'GET', url, headers: owner.auth });
}

async function printOf(query: string): Promise<Buffer> {
  const response = await get(`/projects/${projectId}/print?marks=false&dieline=false&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

/** A point of the artwork (SVG units) on the page, in tiffsep pixels (no marks: the page starts 3 mm outside the trim). */
function pagePx([u, v]: [number, number]): [number, number] {
  const front = dieline.panels.find((panel) => panel.id === 'front')!;
  const mm = (SCALE * front.frame.width) / 200;
  const turn = (front.frame.rotationDeg * Math.PI) / 180;
  const [x, y] = [(u - 100) * mm, (v - 100) * mm];
  const sheet = [
    front.frame.center[0] + x * Math.cos(turn) - y * Math.sin(turn),
    front.frame.center[1] + x * Math.sin(turn) + y * Math.cos(turn),
  ];
  const k = DPI / 25.4;
  return [Math.round((sheet[0]! + 3) * k), Math.round((sheet[1]! + 3) * k)];
}

type Inks = { Cyan: number; Magenta: number; Yellow: number; Black: number };

function inksAt(plates: Plate[], [x, y]: [number, number]): Inks {
  const value = (name: string) => {
    const plate = plates.find((p) => p.name === name)!;
    return plate.ink[y * plate.width + x]!;
  };
  return { Cyan: value('Cyan'), Magenta: value('Magenta'), Yellow: value('Yellow'), Black: value('Black') };
}

/** Every pixel of the band (SVG units) whose K lies in [kMin, kMax]. */
function pixelsIn(plates: Plate[], from: [number, number], to: [number, number], kMin: number, kMax: number): Inks[] {
  const [x0, y0] = pagePx(from);
  const [x1, y1] = pagePx(to);
  const found: Inks[] = [];
  for (let y = Math.min(y0, y1); y <= Math.max(y0, y1); y++) {
    for (let x = Math.min(x0, x1); x <= Math.max(x0, x1); x++) {
      const inks = inksAt(plates, [x, y]);
      if (inks.Black >= kMin && inks.Black <= kMax) found.push(inks);
    }
  }
  return found;
}

const near = (actual: number, expected: number, tolerance: number) => Math.abs(actual - expected) <= tolerance;

/** C, M and Y as on the cream background beside the artwork: overprinted, not knocked out. */
function expectOverprinted(inks: Inks, cream: Inks, label: string): void {
  for (const name of ['Cyan', 'Magenta', 'Yellow'] as const) {
    expect(near(inks[name], cream[name], 4), `${label} ${name}: ${JSON.stringify(inks)} over ${JSON.stringify(cream)}`).toBe(true);
  }
}

function expectKnockedOut(inks: Inks, label: string): void {
  for (const name of ['Cyan', 'Magenta', 'Yellow'] as const) {
    expect(inks[name], `${label} ${name}: ${JSON.stringify(inks)}`).toBeLessThanOrEqual(2);
  }
}

beforeAll(async () => {
  // Generous render deadlines: these files read many print files back on a shared, loaded machine.
  app = await createTestApp({ RENDER_ANALYSIS_TIMEOUT_MS: '120000', RENDER_PRINT_TIMEOUT_MS: '180000' });
  owner = await registerProAccount(app);
  dieline = catalogDieline('reverse-tuck-carton', CARTON);
  const asset = await uploadAsset(app, owner, ART, { filename: 'black.svg', contentType: 'image/svg+xml' });
  projectId = await createProject(
    app,
    owner,
    'reverse-tuck-carton',
    {
      material: 'cardboard',
      background: { kind: 'color', value: CREAM },
      artworks: [artwork('art', 'front', `/files/${asset.name}`, { scale: SCALE })],
    },
    CARTON,
  );
}, 180_000);

afterAll(async () => {
  await app.close();
});

describe('press-safe black', { timeout: 120_000 }, () => {
  it('cmyk: #000, #1a1a1a and #808080 on K alone; dark text and thin strokes overprint the cream, the rest knocks out', async () => {
    const plates = await separations(await printOf('colorSpace=cmyk'), DPI);
    const cream = inksAt(plates, pagePx([100, 210]));
    expect(cream.Yellow, `cream ${JSON.stringify(cream)}`).toBeGreaterThan(20);

    const rect = inksAt(plates, pagePx([100, 30]));
    expect(rect.Black).toBeGreaterThanOrEqual(253);
    expectKnockedOut(rect, 'large #000 fill (not text, richBlack off)');

    for (const [v, label] of [[70, '#000 1.9 pt stroke'], [80, '#1a1a1a 1.9 pt stroke']] as const) {
      const line = inksAt(plates, pagePx([100, v]));
      expect(line.Black, label).toBeGreaterThanOrEqual(253);
      expectOverprinted(line, cream, label);
    }
    const grey = inksAt(plates, pagePx([100, 90]));
    // #808080 has L* 53.6: about 64 % K alone in FOGRA39.
    expect(near(grey.Black, 0.64 * 255, 8), `#808080 stroke K ${grey.Black}`).toBe(true);
    expectKnockedOut(grey, '#808080 stroke');
    const thick = inksAt(plates, pagePx([100, 100]));
    expect(thick.Black).toBeGreaterThanOrEqual(253);
    expectKnockedOut(thick, '#000 2.3 pt stroke');

    for (const [top, label] of [[110, '#000 text'], [140, '#1a1a1a text']] as const) {
      const solid = pixelsIn(plates, [10, top + 4], [190, top + 22], 250, 255);
      expect(solid.length, `${label}: solid K pixels`).toBeGreaterThan(100);
      for (const inks of solid) expectOverprinted(inks, cream, label);
    }
    const greyText = pixelsIn(plates, [10, 174], [190, 192], 140, 185);
    expect(greyText.length, '#808080 text pixels').toBeGreaterThan(100);
    for (const inks of greyText) expectKnockedOut(inks, '#808080 text');
    // Nowhere in the artwork does a grey or black build from four colours.
    const all = pixelsIn(plates, [10, 5], [190, 195], 1, 255);
    expect(all.filter((inks) => inks.Cyan > cream.Cyan + 4 || inks.Magenta > cream.Magenta + 4 || inks.Yellow > cream.Yellow + 4)).toEqual(
      [],
    );
  });

  it('cmyk, richBlack=true: the large #000 area is 60/40/40/100; text and thin strokes stay K alone', async () => {
    const plates = await separations(await printOf('colorSpace=cmyk&richBlack=true'), DPI);
    const cream = inksAt(plates, pagePx([100, 210]));
    const rect = inksAt(plates, pagePx([100, 30]));
    expect(
      near(rect.Cyan, 0.6 * 255, 3) && near(rect.Magenta, 0.4 * 255, 3) && near(rect.Yellow, 0.4 * 255, 3) && rect.Black >= 253,
      JSON.stringify(rect),
    ).toBe(true);
    expectOverprinted(inksAt(plates, pagePx([100, 70])), cream, '#000 thin stroke');
    for (const inks of pixelsIn(plates, [10, 114], [190, 132], 250, 255)) expectOverprinted(inks, cream, '#000 text');
  });

  it('richBlack=true on a #000 background: 60/40/40/100 under the artwork too; false keeps it K only', async () => {
    const id = await createProject(
      app,
      owner,
      'reverse-tuck-carton',
      { material: 'cardboard', background: { kind: 'color', value: '#000' } },
      CARTON,
    );
    const back = dieline.panels.find((panel) => panel.id === 'back')!.frame.center;
    const k = DPI / 25.4;
    const at = async (query: string) => {
      const response = await get(`/projects/${id}/print?marks=false&dieline=false&colorSpace=cmyk&${query}`);
      expect(response.statusCode).toBe(200);
      return inksAt(await separations(response.rawPayload, DPI), [Math.round((back[0] + 3) * k), Math.round((back[1] + 3) * k)]);
    };
    expect(await at('richBlack=true')).toEqual({ Cyan: 153, Magenta: 102, Yellow: 102, Black: 255 });
    expect(await at('richBlack=false')).toEqual({ Cyan: 0, Magenta: 0, Yellow: 0, Black: 255 });
  });

  it('rgb: neutral colours are DeviceGray, separating to K alone; thin strokes carry the overprint state', async () => {
    const pdf = await printOf('colorSpace=rgb');
    const read = readPdf(pdf);
    const content = read.pages
      .flatMap((page) => page['/Contents'] as string | string[])
      .map((ref) => streamBytes(pdf, ref).toString('latin1'))
      .join('\n');
    expect(content).toMatch(/\/DeviceGray cs\s+0 scn/);
    expect(content).toMatch(/\/DeviceGray CS\s+0 SCN/);
    // No neutral colour is left in RGB: the only RGB paint is the cream.
    const rgbPaints = [...content.matchAll(/\/DeviceRGB cs\s+([\d.]+) ([\d.]+) ([\d.]+) scn/g)].map((m) => m.slice(1, 4).map(Number));
    expect(rgbPaints.length).toBeGreaterThan(0);
    for (const [r, g, b] of rgbPaints) expect(Math.max(r!, g!, b!) - Math.min(r!, g!, b!)).toBeGreaterThan(3 / 255);
    // The thin strokes' overprint is declared (stroking only: OP true, op false, OPM 1).
    const gstates = Object.values(read.objects)
      .map((entry) => entry.value as Record<string, unknown> | undefined)
      .filter((value) => typeof value === 'object' && value !== null && value['/Type'] === '/ExtGState' && '/OPM' in value);
    expect(gstates.some((state) => state!['/OP'] === true && state!['/op'] === false && state!['/OPM'] === 1)).toBe(true);

    const plates = await separations(pdf, DPI);
    const cream = inksAt(plates, pagePx([100, 210]));
    const grey = inksAt(plates, pagePx([100, 90]));
    expect(near(grey.Black, 0.64 * 255, 8), `#808080 stroke K ${grey.Black}`).toBe(true);
    expectKnockedOut(grey, '#808080 stroke');
    for (const [v, label] of [[30, 'large #000 fill'], [70, '#000 thin stroke'], [100, '#000 thick stroke']] as const) {
      const inks = inksAt(plates, pagePx([100, v]));
      expect(inks.Black, label).toBeGreaterThanOrEqual(253);
      // Ghostscript applies overprint mode 1 to DeviceCMYK only (as the PDF specification words it): a
      // DeviceGray object replaces all four plates there, so only K alone is asserted in rgb files.
      expectKnockedOut(inks, label);
    }
    const text = pixelsIn(plates, [10, 114], [190, 132], 250, 255);
    expect(text.length).toBeGreaterThan(100);
    expect(cream.Yellow).toBeGreaterThan(20);
  });

  it('eye marks print on K alone in rgb and cmyk files', async () => {
    const id = await createProject(app, owner, 'squeeze-tube', { background: { kind: 'color', value: '#3366cc' } });
    for (const colorSpace of ['rgb', 'cmyk']) {
      const response = await get(`/projects/${id}/print?marks=false&dieline=false&colorSpace=${colorSpace}`);
      expect(response.statusCode, response.body).toBe(200);
      const pdf = response.rawPayload;
      const read = readPdf(pdf);
      const content = read.pages
        .flatMap((page) => page['/Contents'] as string | string[])
        .map((ref) => streamBytes(pdf, ref).toString('latin1'))
        .join('\n');
      const eyeMark = /\/OC \/OCEyeMark BDC([\s\S]*?)EMC/.exec(content)?.[1] ?? '';
      expect(eyeMark, colorSpace).toMatch(colorSpace === 'rgb' ? /\/DeviceGray cs\s+0 scn/ : /\/DeviceCMYK cs\s+0 0 0 1 scn/);
    }
  });
});
