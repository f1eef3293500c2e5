// Finishes and white ink as plates, read back with Ghostscript's tiffsep: foil, spot UV and emboss
// on their own spot plates exactly where their artworks paint (and foil with no process ink under
// it), every plate empty on glue areas, each on its own layer; the White plate under the inks of
// clear and metallic substrates, choked; mirrored film; the bad inputs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { App } from '../../src/app.js';
import type { Dieline, Point } from '../../src/dielines/index.js';
import { generateContainerLayout } from '../../src/dielines/containers/index.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { expectApiError, uploadAsset } from '../assets/helpers.js';
import { artwork, catalogDieline, createProject, projectPreflight, twoToneJpeg, uploadJpeg, type PreflightFinding } from './harness.js';
import { readPdf, separations, text, type PdfDict, type Plate } from './pdf-reader.js';

const CARTON = { widthMm: 60, heightMm: 120, depthMm: 40 };
const BOTTLE = { widthMm: 70, heightMm: 200, depthMm: 70 };
const DPI = 100;
const K = DPI / 25.4;

let app: App;
let owner: TestAccount;
let disc: string;
let square: string;
let photo: string;
let dieline: Dieline;

/** A 400 × 400 PNG: an opaque disc of radius 150 px on transparency. */
async function discPng(): Promise<Buffer> {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><circle cx="200" cy="200" r="150" fill="#c00000"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** An SVG whose filled square covers its middle half. */
const SQUARE_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">' +
    '<rect x="50" y="50" width="100" height="100" fill="#1a4d8c"/></svg>',
);

function get(url: string) {
  return app.inject({ method: 'GET', url, headers: owner.auth });
}

async function printOf(id: string, query: string): Promise<Buffer> {
  const response = await get(`/projects/${id}/print?marks=false&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

const centre = (panelId: string) => dieline.panels.find((panel) => panel.id === panelId)!.frame.center as Point;
const frameWidth = (panelId: string) => dieline.panels.find((panel) => panel.id === panelId)!.frame.width;

/** Pixel of the plate at a blank point (mm), on a page with the 3 mm bleed and no marks. */
function inkAt(plates: Plate[], name: string, [x, y]: Point, dpi = DPI): number {
  const plate = plates.find((p) => p.name === name);
  if (!plate) return 0;
  const trim = dieline.pieces[0]!.bounds;
  const k = dpi / 25.4;
  return plate.ink[Math.floor((y - trim.y + 3) * k) * plate.width + Math.floor((x - trim.x + 3) * k)] ?? 0;
}

/** Overlap of a plate's inked pixels (> 50 %) with an expected region, both ways, over the page. */
function overlap(plate: Plate, expected: (x: number, y: number) => boolean): { plateInside: number; regionCovered: number } {
  const trim = dieline.pieces[0]!.bounds;
  let inked = 0;
  let inkedInside = 0;
  let region = 0;
  let regionInked = 0;
  for (let py = 0; py < plate.height; py++) {
    for (let px = 0; px < plate.width; px++) {
      const x = px / K - 3 + trim.x;
      const y = py / K - 3 + trim.y;
      const on = plate.ink[py * plate.width + px]! > 127;
      const inRegion = expected(x, y);
      if (on) inked++;
      if (on && inRegion) inkedInside++;
      if (inRegion) region++;
      if (inRegion && on) regionInked++;
    }
  }
  return { plateInside: inkedInside / Math.max(1, inked), regionCovered: regionInked / Math.max(1, region) };
}

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  dieline = catalogDieline('reverse-tuck-carton', CARTON);
  disc = `/files/${(await uploadAsset(app, owner, await discPng(), { filename: 'disc.png', contentType: 'image/png' })).name}`;
  square = `/files/${(await uploadAsset(app, owner, SQUARE_SVG, { filename: 'square.svg', contentType: 'image/svg+xml' })).name}`;
  photo = await uploadJpeg(app, owner, await twoToneJpeg(600, 600));
});
afterAll(() => app.close());

describe(`finishes as plates (${engineName()})`, () => {
  it('foil, spot UV and emboss print on their own spot plates where their artworks paint; no process ink under foil', async () => {
    const design = {
      material: 'cardboard',
      background: { kind: 'color', value: '#f0e6c8' },
      artworks: [
        { ...artwork('foil', 'front', disc, { scale: 0.8 }), effect: 'foil-gold' },
        { ...artwork('varnish', 'back', photo, { scale: 0.8 }), effect: 'spot-uv' },
        { ...artwork('mark', 'left', square, { scale: 0.9 }), effect: 'emboss' },
      ],
    };
    const id = await createProject(app, owner, 'reverse-tuck-carton', design, CARTON);
    for (const colorSpace of ['cmyk', 'rgb']) {
      const pdf = await printOf(id, `colorSpace=${colorSpace}`);
      const plates = await separations(pdf, DPI);
      const names = plates.map((plate) => plate.name);
      for (const spot of ['Foil_Gold', 'SpotUV', 'Emboss']) expect(names, colorSpace).toContain(spot);

      // The disc: radius 150/400 of the printed width.
      const [fx, fy] = centre('front');
      const discRadius = (0.8 * frameWidth('front') * 150) / 400;
      const foil = overlap(
        plates.find((p) => p.name === 'Foil_Gold')!,
        (x, y) => Math.hypot(x - fx, y - fy) <= discRadius,
      );
      expect(foil.plateInside, `${colorSpace} foil plate inside the disc`).toBeGreaterThanOrEqual(0.9);
      expect(foil.regionCovered, `${colorSpace} disc covered by foil`).toBeGreaterThanOrEqual(0.9);
      for (const ink of ['Cyan', 'Magenta', 'Yellow', 'Black']) {
        expect(inkAt(plates, ink, [fx, fy]), `${colorSpace} ${ink} under the foil`).toBeLessThan(3);
      }
      // The background prints right outside it.
      expect(inkAt(plates, 'Yellow', [fx, fy - discRadius - 3])).toBeGreaterThan(10);

      // Spot UV over the whole photo, which still prints.
      const [bx, by] = centre('back');
      const side = 0.8 * frameWidth('back');
      const uv = overlap(
        plates.find((p) => p.name === 'SpotUV')!,
        (x, y) => Math.abs(x - bx) <= side / 2 && Math.abs(y - by) <= side / 2,
      );
      expect(uv.plateInside).toBeGreaterThanOrEqual(0.9);
      expect(uv.regionCovered).toBeGreaterThanOrEqual(0.9);
      expect(inkAt(plates, 'Magenta', [bx, by - side / 4])).toBeGreaterThan(100);

      // Emboss: the SVG's square, half of the printed width.
      const [lx, ly] = centre('left');
      const half = (0.9 * frameWidth('left')) / 4;
      const emboss = overlap(
        plates.find((p) => p.name === 'Emboss')!,
        (x, y) => Math.abs(x - lx) <= half && Math.abs(y - ly) <= half,
      );
      expect(emboss.plateInside).toBeGreaterThanOrEqual(0.9);
      expect(emboss.regionCovered).toBeGreaterThanOrEqual(0.9);
    }

    // Each plate on its own optional content group named as its spot colour, and overprinting.
    const read = readPdf(await printOf(id, 'colorSpace=cmyk'));
    const properties = read.resolve(read.catalog['/OCProperties']) as PdfDict;
    const groups = (read.resolve(properties['/OCGs']) as string[]).map((ref) => text((read.resolve(ref) as PdfDict)['/Name']));
    expect(groups).toEqual(expect.arrayContaining(['Artwork', 'Foil_Gold', 'SpotUV', 'Emboss']));
  });

  it('an image inside an SVG prints on the foil plate where it is opaque, knocked out of the process inks', async () => {
    const png = (await discPng()).toString('base64');
    const framed = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="400">' +
        `<image x="0" y="0" width="400" height="400" xlink:href="data:image/png;base64,${png}"/></svg>`,
    );
    const logo = `/files/${(await uploadAsset(app, owner, framed, { filename: 'framed.svg', contentType: 'image/svg+xml' })).name}`;
    const design = {
      material: 'cardboard',
      background: { kind: 'color', value: '#f0e6c8' },
      artworks: [{ ...artwork('foil', 'front', logo, { scale: 0.8 }), effect: 'foil-silver' }],
    };
    const id = await createProject(app, owner, 'reverse-tuck-carton', design, CARTON);
    for (const colorSpace of ['cmyk', 'rgb']) {
      const plates = await separations(await printOf(id, `colorSpace=${colorSpace}`), DPI);
      const [fx, fy] = centre('front');
      const discRadius = (0.8 * frameWidth('front') * 150) / 400;
      const foil = overlap(
        plates.find((p) => p.name === 'Foil_Silver')!,
        (x, y) => Math.hypot(x - fx, y - fy) <= discRadius,
      );
      expect(foil.plateInside, `${colorSpace} foil plate inside the disc`).toBeGreaterThanOrEqual(0.9);
      expect(foil.regionCovered, `${colorSpace} disc covered by foil`).toBeGreaterThanOrEqual(0.9);
      for (const ink of ['Cyan', 'Magenta', 'Yellow', 'Black'])
        expect(inkAt(plates, ink, [fx, fy]), `${colorSpace} ${ink} under the foil`).toBeLessThan(3);
      // Around the disc, inside the image's transparent corners, the background still prints.
      expect(inkAt(plates, 'Yellow', [fx, fy - discRadius - 3]), colorSpace).toBeGreaterThan(10);
    }
  });

  it('an effect plate is knocked out on glue areas like ink; printed glue areas refuse an effect', async () => {
    const glue = dieline.panels.find((panel) => panel.id === 'glue-flap')!;
    const design = { artworks: [{ ...artwork('uv', 'glue-flap', photo, { scale: 3 }), effect: 'spot-uv' }] };
    const id = await createProject(app, owner, 'reverse-tuck-carton', design, CARTON);
    const plates = await separations(await printOf(id, 'colorSpace=cmyk'), DPI);
    expect(inkAt(plates, 'SpotUV', glue.frame.center as Point)).toBeLessThan(3);
    // The plate is there: beside the glue flap, on the panel the artwork spills onto.
    const plate = plates.find((p) => p.name === 'SpotUV')!;
    expect(plate.ink.some((value) => value > 250)).toBe(true);
    // With glue areas printed, an effect there is an error (EFFECT_ON_GLUE), so nothing prints.
    expect((await get(`/projects/${id}/print?marks=false&glueAreas=print`)).statusCode).toBe(409);
  });

  it('a glass bottle gets a White plate under its inks, choked 0.1 mm; white=none removes it; kraft has none', async () => {
    dieline = generateContainerLayout('round-bottle', 'bottle', BOTTLE).dieline as unknown as Dieline;
    try {
      const design = { material: 'glass', artworks: [artwork('logo', 'front', square, { scale: 0.6 })] };
      const id = await createProject(app, owner, 'round-bottle', design, BOTTLE);
      const plates = await separations(await printOf(id, 'colorSpace=cmyk'), 254);
      const white = plates.find((plate) => plate.name === 'White');
      expect(white, plates.map((p) => p.name).join()).toBeDefined();
      const [cx, cy] = centre('front');
      const half = (0.6 * frameWidth('front')) / 4;
      // 254 dpi: 0.1 mm a pixel. Ink reaches the square's edge; White stops a pixel or two inside it.
      const at = (name: string, point: Point) => inkAt(plates, name, point, 254);
      expect(at('White', [cx, cy])).toBeGreaterThan(250);
      expect(at('White', [cx - half + 0.35, cy])).toBeGreaterThan(250);
      // The pixel whose area starts at the ink's edge: inked, and choked off the White plate.
      expect(at('Cyan', [cx - half + 0.05, cy])).toBeGreaterThan(100);
      expect(at('White', [cx - half + 0.05, cy])).toBeLessThan(3);
      expect(at('White', [cx - half - 2, cy])).toBeLessThan(3);

      // A background inks the whole label: White under all of it.
      const filled = await createProject(
        app,
        owner,
        'round-bottle',
        { ...design, background: { kind: 'color', value: '#204080' } },
        BOTTLE,
      );
      const underBackground = await separations(await printOf(filled, 'colorSpace=cmyk'), 50);
      const points: Point[] = [
        [cx, cy],
        [cx - half - 2, cy],
        [5, 5],
      ];
      for (const point of points) expect(inkAt(underBackground, 'White', point, 50), String(point)).toBeGreaterThan(250);

      const none = await separations(await printOf(id, 'colorSpace=cmyk&white=none'), 50);
      expect(none.map((plate) => plate.name)).not.toContain('White');

      const kraft = await createProject(app, owner, 'round-bottle', { ...design, material: 'kraft' }, BOTTLE);
      expect((await separations(await printOf(kraft, 'colorSpace=cmyk'), 50)).map((plate) => plate.name)).not.toContain('White');
    } finally {
      dieline = catalogDieline('reverse-tuck-carton', CARTON);
    }
  });

  it('mirror=true turns a sleeve over; on a box it is a 400', async () => {
    const design = { artworks: [artwork('mark', 'front', square, { scale: 0.3, offsetX: 40 })] };
    const id = await createProject(app, owner, 'round-bottle', design, BOTTLE);
    const column = async (query: string) => {
      const [cyan] = (await separations(await printOf(id, `colorSpace=cmyk&labelStyle=sleeve&${query}`), 30)).filter(
        (p) => p.name === 'Cyan',
      );
      let sum = 0;
      let count = 0;
      for (let i = 0; i < cyan!.ink.length; i++) {
        if (cyan!.ink[i]! > 127) {
          sum += i % cyan!.width;
          count++;
        }
      }
      return { x: sum / count / cyan!.width };
    };
    const plain = await column('mirror=false');
    const mirrored = await column('mirror=true');
    expect(Math.abs(plain.x + mirrored.x - 1)).toBeLessThan(0.02);
    expect(Math.abs(plain.x - 0.5)).toBeGreaterThan(0.05);

    const box = await createProject(app, owner, 'reverse-tuck-carton', design, CARTON);
    expectApiError(
      await get(`/projects/${box}/print?mirror=true`),
      400,
      'mirror applies to sleeves (labelStyle=sleeve), stand-up-pouch and squeeze-tube.',
    );
  });

  it('an unknown effect is a 400 and nothing is stored', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/projects',
      headers: owner.auth,
      payload: {
        name: 'Bad effect',
        templateId: 'reverse-tuck-carton',
        artworkJson: { artworks: [{ ...artwork('a', 'front', photo), effect: 'glitter' }] },
      },
    });
    expectApiError(response, 400);
    expect(response.json<{ message: string }>().message).toMatch(/effect/);
  });
});

describe(`preflight of finishes (${engineName()})`, () => {
  const codes = (findings: PreflightFinding[], prefix = 'EFFECT_') =>
    findings.filter((f) => f.code.startsWith(prefix)).map((f) => [f.code, f.severity, f.artworkId]);

  /** An SVG 100 units wide printed `printedMm` wide, with a solid block and a bar `barMm` wide at that size. */
  function barSvg(printedMm: number, barMm: number): Buffer {
    const unit = 100 / printedMm;
    return Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" ` +
        `viewBox="0 0 100 100"><rect x="10" y="10" width="40" height="40" fill="#000"/>` +
        `<rect x="70" y="10" width="${barMm * unit}" height="80" fill="#000"/></svg>`,
    );
  }

  it('EFFECT_TOO_FINE: a foil bar of 0.27 mm is reported, one of 0.35 mm is not; spot UV likewise, emboss never', async () => {
    const frontWidth = catalogDieline('reverse-tuck-carton', CARTON).panels.find((panel) => panel.id === 'front')!.frame.width;
    const scale = 30 / frontWidth;
    const upload = async (barMm: number) =>
      `/files/${(await uploadAsset(app, owner, barSvg(30, barMm), { filename: `bar-${barMm}.svg`, contentType: 'image/svg+xml' })).name}`;
    const [thin, thick] = [await upload(0.27), await upload(0.35)];
    const design = (effect: string) => ({
      artworks: [
        { ...artwork('thin', 'front', thin, { scale }), effect },
        { ...artwork('thick', 'back', thick, { scale }), effect },
      ],
    });
    for (const effect of ['foil-gold', 'spot-uv']) {
      const { findings } = await projectPreflight(app, owner, 'reverse-tuck-carton', design(effect), CARTON);
      expect(codes(findings), effect).toEqual([['EFFECT_TOO_FINE', 'warning', 'thin']]);
      expect(findings.find((f) => f.code === 'EFFECT_TOO_FINE')!.message).toBe(
        `thin on front has ${effect} details narrower than 0.3 mm at its printed size.`,
      );
    }
    expect(codes((await projectPreflight(app, owner, 'reverse-tuck-carton', design('emboss'), CARTON)).findings)).toEqual([]);
  });

  it(
    'EFFECT_CROSSES_FOLD for foil over a crease, not for spot UV; ' +
      'EFFECT_ON_GLUE when glue areas print; a correct placement gives none',
    async () => {
      const across = (effect: string) => ({ artworks: [{ ...artwork('wide', 'front', photo, { scale: 1.6 }), effect }] });
      const foil = await projectPreflight(app, owner, 'reverse-tuck-carton', across('foil-silver'), CARTON);
      expect(codes(foil.findings)).toEqual([['EFFECT_CROSSES_FOLD', 'warning', 'wide']]);
      expect(codes((await projectPreflight(app, owner, 'reverse-tuck-carton', across('spot-uv'), CARTON)).findings)).toEqual([]);

      const onGlue = { artworks: [{ ...artwork('flap', 'glue-flap', photo, { scale: 0.5 }), effect: 'spot-uv' }] };
      expect(codes((await projectPreflight(app, owner, 'reverse-tuck-carton', onGlue, CARTON)).findings)).toEqual([]);
      const printed = await projectPreflight(app, owner, 'reverse-tuck-carton', onGlue, CARTON, '?glueAreas=print');
      expect(codes(printed.findings)).toEqual([['EFFECT_ON_GLUE', 'error', 'flap']]);
      expect(printed.ready).toBe(false);
      const print = await get(`/projects/${printed.id}/print?glueAreas=print`);
      expectApiError(print, 409);

      const clean = { artworks: [{ ...artwork('logo', 'front', square, { scale: 0.5 }), effect: 'foil-gold' }] };
      expect(codes((await projectPreflight(app, owner, 'reverse-tuck-carton', clean, CARTON)).findings)).toEqual([]);
    },
  );

  it('EFFECT_NOT_OFFERED: emboss or deboss on corrugated, glass or aluminium; not on board', async () => {
    const design = (material: string, effect: string) => ({
      material,
      artworks: [{ ...artwork('mark', 'front', square, { scale: 0.5 }), effect }],
    });
    for (const material of ['corrugated', 'glass', 'aluminum']) {
      const { findings } = await projectPreflight(app, owner, 'reverse-tuck-carton', design(material, 'deboss'), CARTON);
      expect(codes(findings), material).toEqual([['EFFECT_NOT_OFFERED', 'warning', 'mark']]);
    }
    expect(codes((await projectPreflight(app, owner, 'reverse-tuck-carton', design('cardboard', 'emboss'), CARTON)).findings)).toEqual([]);
    expect(codes((await projectPreflight(app, owner, 'reverse-tuck-carton', design('corrugated', 'foil-gold'), CARTON)).findings)).toEqual(
      [],
    );
  });
});
