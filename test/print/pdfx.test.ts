// Print files as a packaging printer receives them (extensions §8), read back with qpdf,
// Ghostscript and poppler: PDF/X-4 keys, the OutputIntent and its profile, the sRGB colour space,
// CMYK JPEGs byte for byte, converted photos, SVG as vectors, the die's processing-step layers
// and spot plates, glue areas without ink, and INK_COVERAGE in preflight.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { Dieline } from '../../src/dielines/index.js';
import { uploadAsset } from '../assets/helpers.js';
import { expectApiError } from '../assets/helpers.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, catalogDieline, createProject, pixel, rasterisePdf, type Rgb } from './harness.js';
import {
  annexKLuminance,
  jpegQuantisationTables,
  qpdfCheck,
  readPdf,
  separations,
  streamBytes,
  text,
  uncompressed,
  withPdfFile,
  type PdfDict,
  type PdfObjects,
  type Plate,
} from './pdf-reader.js';

const CARTON = { widthMm: 60, heightMm: 120, depthMm: 40 };
const PROFILES = new URL('../../src/print/profiles/', import.meta.url);
const profile = (file: string) => readFileSync(new URL(file, PROFILES));

let app: App;
let owner: TestAccount;
let dieline: Dieline;
const uploads: Record<string, { url: string; bytes: Buffer }> = {};

/** A CMYK JPEG as a designer's separation: Ghostscript paints it in DeviceCMYK (C, M, Y, K in 0–1). */
function cmykJpeg(width: number, height: number, left: number[], right: number[]): Buffer {
  return withPdfFile(Buffer.alloc(0), (_file, dir) => {
    const out = `${dir}/cmyk.jpg`;
    const paint = (c: number[], x: number) => `${c.join(' ')} setcmykcolor ${x} 0 ${width / 2} ${height} rectfill`;
    const device = ['-sDEVICE=jpegcmyk', '-r72', `-g${width}x${height}`, '-dJPEGQ=92', `-sOutputFile=${out}`];
    execFileSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', ...device, '-c', `${paint(left, 0)} ${paint(right, width / 2)} showpage`]);
    return readFileSync(out);
  });
}

/** A photograph-like RGB JPEG: a gradient with grain (so it does not compress to nothing). */
async function photo(width: number, height: number): Promise<Buffer> {
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" ` +
      `stop-color="#2a6fb0"/><stop offset="1" stop-color="#e0a040"/>` +
      `</linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 20 } },
  })
    .raw()
    .toBuffer();
  return sharp(gradient)
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120" viewBox="0 0 240 120">' +
    '<rect width="240" height="120" fill="#ffcc00"/><circle cx="60" cy="60" r="40" fill="#0033aa" opacity="0.8"/>' +
    '<text x="110" y="75" font-family="sans-serif" font-size="40" fill="#cc0000">Logo</text></svg>',
);

async function upload(key: string, bytes: Buffer, filename: string, contentType: string): Promise<void> {
  const asset = await uploadAsset(app, owner, bytes, { filename, contentType });
  uploads[key] = { url: `/files/${asset.name}`, bytes };
}

function get(url: string) {
  return app.inject({ method: 'GET', url, headers: owner.auth });
}

async function printOf(id: string, query: string): Promise<Buffer> {
  const response = await get(`/projects/${id}/print?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

/** The design of the issue: photos (RGB and CMYK JPEGs, a transparent PNG) and an SVG logo, on a black background. */
function design() {
  return {
    material: 'cardboard',
    background: { kind: 'color', value: '#000' },
    artworks: [
      artwork('photo', 'back', uploads.photo!.url, { scale: 0.9 }),
      artwork('separated', 'front', uploads.cmyk!.url, { scale: 0.9 }),
      artwork('badge', 'left', uploads.png!.url, { scale: 0.8 }),
      artwork('logo', 'right', uploads.logo!.url, { scale: 0.9 }),
    ],
  };
}

const images = (pdf: PdfObjects) => pdf.streams((dict) => dict['/Subtype'] === '/Image' && dict['/ColorSpace'] !== '/DeviceGray');
const iccStreams = (pdf: PdfObjects) => pdf.streams((dict) => typeof dict['/N'] === 'number');

/** The decoded page contents and form XObjects: every operator that draws, and no image data. */
function drawingOperators(pdf: Buffer, read: PdfObjects): string {
  const contents = read.pages.flatMap((page) => page['/Contents'] as string | string[]);
  const forms = read.streams((dict) => dict['/Subtype'] === '/Form').map(({ ref }) => ref);
  return [...contents, ...forms].map((ref) => streamBytes(pdf, ref).toString('latin1')).join('\n');
}

function expectPdfX(pdf: Buffer, read: PdfObjects, identifier: string, profileFile: string): void {
  expect(qpdfCheck(pdf).status, qpdfCheck(pdf).output).toBe(0);
  expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.6');
  expect(text(read.resolve(read.info['/GTS_PDFXVersion']))).toBe('PDF/X-4');
  expect(read.resolve(read.info['/Trapped'])).toBe('/False');
  for (const key of ['/Title', '/CreationDate', '/ModDate']) expect(String(text(read.resolve(read.info[key]))).length).toBeGreaterThan(0);
  const [first, second] = read.trailer['/ID'] as string[];
  expect(first).toMatch(/^b:[0-9a-f]{32}$/);
  expect(second).toBe(first);

  const intents = read.resolve(read.catalog['/OutputIntents']) as string[];
  expect(intents).toHaveLength(1);
  const intent = read.resolve(intents[0]) as PdfDict;
  expect(intent['/S']).toBe('/GTS_PDFX');
  expect(text(intent['/OutputConditionIdentifier'])).toBe(identifier);
  expect(text(intent['/RegistryName'])).toBe('http://www.color.org');
  const destination = intent['/DestOutputProfile'] as string;
  expect((read.resolve(destination) as PdfDict)['/N']).toBe(4);
  expect(streamBytes(pdf, destination).equals(profile(profileFile))).toBe(true);

  const metadata = streamBytes(pdf, read.catalog['/Metadata'] as string).toString('utf8');
  expect(metadata).toContain('<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>');
  expect(metadata).toContain('<pdf:Trapped>False</pdf:Trapped>');

  for (const page of read.pages) {
    const [media, bleed, trim] = ['/MediaBox', '/BleedBox', '/TrimBox'].map((key) => page[key] as number[]);
    const inside = (a: number[], b: number[]) => a[0]! >= b[0]! && a[1]! >= b[1]! && a[2]! <= b[2]! && a[3]! <= b[3]!;
    expect(inside(trim!, bleed!) && inside(bleed!, media!)).toBe(true);
    expect(page['/Annots']).toBeUndefined();
  }
  expect(read.trailer['/Encrypt']).toBeUndefined();
  const everything = JSON.stringify(read.objects);
  for (const forbidden of ['/JavaScript', '/JS"', '/TR"', '/TR2"', '/Annot"']) expect(everything).not.toContain(forbidden);
}

/** Ink of one plate at a point of the blank (mm), on a page rendered with crop marks at 3 mm bleed. */
function inkAt(plates: Plate[], name: string, [x, y]: [number, number], dpi = 20): number {
  const plate = plates.find((p) => p.name === name)!;
  const k = dpi / 25.4;
  const margin = 3 + 8;
  return plate.ink[Math.round((y + margin) * k) * plate.width + Math.round((x + margin) * k)]!;
}

const centre = (panelId: string) => dieline.panels.find((panel) => panel.id === panelId)!.frame.center as [number, number];

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  dieline = catalogDieline('reverse-tuck-carton', CARTON);
  await upload('photo', await photo(1600, 1200), 'photo.jpg', 'image/jpeg');
  await upload('cmyk', cmykJpeg(900, 1200, [0.1, 0.7, 0.9, 0], [0.6, 0.1, 0, 0.2]), 'separated.jpg', 'image/jpeg');
  await upload('ink400', cmykJpeg(600, 800, [1, 1, 1, 1], [0, 0.2, 0, 0]), 'rich-black.jpg', 'image/jpeg');
  await upload(
    'png',
    await sharp({ create: { width: 400, height: 400, channels: 4, background: { r: 20, g: 160, b: 60, alpha: 0.6 } } }).png().toBuffer(),
    'badge.png',
    'image/png',
  );
  await upload('logo', LOGO, 'logo.svg', 'image/svg+xml');
}, 180_000);

afterAll(async () => {
  await app.close();
});

describe('PDF/X-4 print files', () => {
  it('cmyk: FOGRA39 OutputIntent, the CMYK JPEG byte for byte, the photo one DCT stream, no profile per image, SVG as paths', async () => {
    const id = await createProject(app, owner, 'reverse-tuck-carton', design(), CARTON);
    const pdf = await printOf(id, 'colorSpace=cmyk');
    const read = readPdf(pdf);
    expectPdfX(pdf, read, 'FOGRA39', 'fogra39.icc');

    const placed = images(read);
    // The photo, the separated JPEG and the PNG: the SVG logo is no image.
    expect(placed).toHaveLength(3);
    expect(placed.every(({ dict }) => dict['/ColorSpace'] === '/DeviceCMYK')).toBe(true);
    const passed = placed.filter(({ ref }) => streamBytes(pdf, ref, true).equals(uploads.cmyk!.bytes));
    expect(passed).toHaveLength(1);
    expect(passed[0]!.dict['/Filter']).toBe('/DCTDecode');
    const photoImage = placed.find(({ ref, dict }) => ref !== passed[0]!.ref && dict['/Filter'] === '/DCTDecode');
    expect(photoImage, 'the photo as one JPEG stream').toBeDefined();
    // At quality 90: the stream's quantisation table is the standard one scaled to 90 (one table for all four channels).
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const quantisation = jpegQuantisationTables(streamBytes(pdf, photoImage!.ref, true));
    expect(quantisation.map(sum)).toEqual([sum(annexKLuminance(90))]);
    // Nothing is left in device RGB: no RGB colour operator in what draws the page (its content
    // and forms, not the images' compressed bytes, which are random noise here and can hold any
    // byte sequence), no DeviceRGB space.
    const operators = drawingOperators(pdf, read);
    expect(operators).toMatch(/\s(scn|SCN)\s/);
    expect(operators).not.toMatch(/\s(rg|RG)\s/);
    expect(uncompressed(pdf)).not.toContain('/DeviceRGB');
    // The one ICC profile in the file is the OutputIntent's.
    expect(iccStreams(read)).toHaveLength(1);

    // Black background: K only. The spot plates of the die are there.
    const plates = await separations(pdf);
    expect(plates.map((plate) => plate.name).sort()).toEqual(['Black', 'Crease', 'CutContour', 'Cyan', 'Magenta', 'Yellow'].sort());
    const background: [number, number] = [centre('back')[0], centre('back')[1] - 50];
    expect(inkAt(plates, 'Black', background)).toBeGreaterThan(250);
    for (const name of ['Cyan', 'Magenta', 'Yellow']) expect(inkAt(plates, name, background), name).toBeLessThan(3);
    // The separated JPEG prints its own values (0.1 0.7 0.9 0 on its left half).
    const front = dieline.panels.find((panel) => panel.id === 'front')!;
    const w = 0.9 * front.frame.width;
    const turn = (front.frame.rotationDeg * Math.PI) / 180;
    // The image's left half, a quarter of its width left of its centre in the panel's upright frame.
    const left: [number, number] = [front.frame.center[0] - (w / 4) * Math.cos(turn), front.frame.center[1] - (w / 4) * Math.sin(turn)];
    expect(Math.abs(inkAt(plates, 'Magenta', left) - 0.7 * 255)).toBeLessThan(8);
    expect(Math.abs(inkAt(plates, 'Yellow', left) - 0.9 * 255)).toBeLessThan(8);
  });

  it('cmyk: a design of photos is within 10 % of its image streams plus the profile', async () => {
    const id = await createProject(
      app,
      owner,
      'reverse-tuck-carton',
      { artworks: [artwork('photo', 'back', uploads.photo!.url, { scale: 0.9 })] },
      CARTON,
    );
    const pdf = await printOf(id, 'colorSpace=cmyk&marks=false');
    const read = readPdf(pdf);
    const [image] = images(read);
    expect(image!.dict['/Filter']).toBe('/DCTDecode');
    const budget = (image!.dict['/Length'] as number) + profile('fogra39.icc').length;
    expect(pdf.length).toBeLessThan(budget * 1.1);
  });

  it('rgb: one shared ICC-based sRGB colour space, the RGB JPEG byte for byte, DefaultRGB on every page', async () => {
    const id = await createProject(app, owner, 'reverse-tuck-carton', design(), CARTON);
    const pdf = await printOf(id, 'colorSpace=rgb');
    const read = readPdf(pdf);
    expectPdfX(pdf, read, 'FOGRA39', 'fogra39.icc');
    const rgb = iccStreams(read).filter(({ dict }) => dict['/N'] === 3);
    expect(rgb).toHaveLength(1);
    expect(streamBytes(pdf, rgb[0]!.ref).equals(profile('srgb.icc'))).toBe(true);
    const srgb = ['/ICCBased', rgb[0]!.ref];
    const placed = images(read);
    expect(placed).toHaveLength(3);
    expect(placed.filter(({ dict }) => dict['/ColorSpace'] === '/DeviceRGB')).toHaveLength(0);
    const photoImage = placed.find(({ ref }) => streamBytes(pdf, ref, true).equals(uploads.photo!.bytes));
    expect(photoImage?.dict['/ColorSpace']).toEqual(srgb);
    expect(placed.some(({ ref }) => streamBytes(pdf, ref, true).equals(uploads.cmyk!.bytes))).toBe(true);
    for (const page of read.pages) {
      const resources = read.resolve(page['/Resources']) as PdfDict;
      expect((resources['/ColorSpace'] as PdfDict)['/DefaultRGB']).toEqual(srgb);
    }

    // The logo's paths fill the rectangle the placement gives it (0.9 × the panel, 2:1), no more.
    const right = dieline.panels.find((panel) => panel.id === 'right')!;
    const w = 0.9 * right.frame.width;
    const h = w / 2;
    const turn = (right.frame.rotationDeg * Math.PI) / 180;
    const onSheet = ([x, y]: [number, number]): [number, number] => [
      right.frame.center[0] + x * Math.cos(turn) - y * Math.sin(turn),
      right.frame.center[1] + x * Math.sin(turn) + y * Math.cos(turn),
    ];
    const [page] = await rasterisePdf(pdf, 72);
    const k = 72 / 25.4;
    const at = ([x, y]: [number, number]) => pixel(page!, (x + 3 + 8) * k, (y + 3 + 8) * k);
    const corner = at(onSheet([-w / 2 + (w * 20) / 240, -h / 2 + (h * 10) / 120]));
    expect(corner[0] > 150 && corner[1] > 120 && corner[2] < 100, `logo's yellow corner: ${corner.join(',')}`).toBe(true);
    for (const outside of [onSheet([0, -h / 2 - 3]), onSheet([0, h / 2 + 3])]) {
      expect(Math.max(...at(outside)), 'black background beside the logo').toBeLessThan(70);
    }
  });

  it('an RGB JPEG carrying its own profile (Display P3) keeps it: rgb tags it ICC-based, cmyk converts from it', async () => {
    // The same green as an untagged (sRGB) JPEG on the back and encoded in Display P3 on the front.
    const green = { r: 40, g: 170, b: 70 };
    const flat = () => sharp({ create: { width: 800, height: 800, channels: 3, background: green } });
    const plain = await flat().jpeg({ quality: 95 }).toBuffer();
    const p3 = await flat().withIccProfile('p3').jpeg({ quality: 95 }).toBuffer();
    const { icc } = await sharp(p3).metadata();
    const p3Numbers = [...(await sharp(p3).keepIccProfile().raw().toBuffer()).subarray(0, 3)];
    // The numbers alone, read as sRGB, are another colour: the test can tell the two readings apart.
    expect(Math.max(...p3Numbers.map((value, k) => Math.abs(value - [green.r, green.g, green.b][k]!)))).toBeGreaterThan(15);
    await upload('plainGreen', plain, 'plain.jpg', 'image/jpeg');
    await upload('p3Green', p3, 'p3.jpg', 'image/jpeg');
    const id = await createProject(
      app,
      owner,
      'reverse-tuck-carton',
      {
        artworks: [
          artwork('plain', 'back', uploads.plainGreen!.url, { scale: 0.9 }),
          artwork('p3', 'front', uploads.p3Green!.url, { scale: 0.9 }),
        ],
      },
      CARTON,
    );

    const rgbPdf = await printOf(id, 'colorSpace=rgb&marks=false&dieline=false');
    const read = readPdf(rgbPdf);
    expect(qpdfCheck(rgbPdf).status, qpdfCheck(rgbPdf).output).toBe(0);
    const passed = images(read).find(({ ref }) => streamBytes(rgbPdf, ref, true).equals(p3));
    expect(passed, 'the P3 JPEG byte for byte').toBeDefined();
    const [family, space] = passed!.dict['/ColorSpace'] as [string, string];
    expect(family).toBe('/ICCBased');
    expect((read.resolve(space) as PdfDict)['/N']).toBe(3);
    expect(streamBytes(rgbPdf, space).equals(icc!)).toBe(true);
    const [page] = await rasterisePdf(rgbPdf, 72);
    const k = 72 / 25.4;
    const at = ([x, y]: [number, number]) => pixel(page!, (x + 3) * k, (y + 3) * k);
    const [front, back] = [at(centre('front')), at(centre('back'))];
    for (let channel = 0; channel < 3; channel++) {
      expect(Math.abs(front[channel]! - back[channel]!), `front ${front} vs back ${back}`).toBeLessThan(6);
    }

    const plates = await separations(await printOf(id, 'colorSpace=cmyk'));
    for (const name of ['Cyan', 'Magenta', 'Yellow', 'Black']) {
      const [p3Ink, plainInk] = [inkAt(plates, name, centre('front')), inkAt(plates, name, centre('back'))];
      expect(Math.abs(p3Ink - plainInk), `${name}: ${p3Ink} (P3) vs ${plainInk}`).toBeLessThan(6);
    }
  });

  it('condition=gracol2006 names CGATS TR 006 with its own profile; an unknown condition is a 400', async () => {
    const id = await createProject(app, owner, 'reverse-tuck-carton', design(), CARTON);
    const pdf = await printOf(id, 'colorSpace=cmyk&condition=gracol2006');
    expectPdfX(pdf, readPdf(pdf), 'CGATS TR 006', 'gracol2006.icc');
    expectApiError(await get(`/projects/${id}/print?condition=swop`), 400);
  });

  it('the die on processing-step layers: turning them off changes no artwork pixel', async () => {
    const id = await createProject(app, owner, 'reverse-tuck-carton', design(), CARTON);
    const pdf = await printOf(id, 'colorSpace=cmyk');
    const read = readPdf(pdf);
    const properties = read.catalog['/OCProperties'] as PdfDict;
    const groups = (properties['/OCGs'] as string[]).map((ref) => ({ ref, dict: read.resolve(ref) as PdfDict }));
    const byName = Object.fromEntries(groups.map((group) => [String(text(group.dict['/Name'])), group]));
    expect(Object.keys(byName).sort()).toEqual(['Artwork', 'Creasing', 'Cutting']);
    expect(byName.Cutting!.dict['/GTS_Metadata']).toEqual({ '/GTS_ProcStepsGroup': '/Structural', '/GTS_ProcStepsType': '/Cutting' });
    expect(byName.Creasing!.dict['/GTS_Metadata']).toEqual({ '/GTS_ProcStepsGroup': '/Structural', '/GTS_ProcStepsType': '/Creasing' });
    expect(byName.Artwork!.dict['/GTS_Metadata']).toBeUndefined();

    // The die layers switched off in the default configuration by qpdf, then rendered by poppler.
    const rootRef = read.trailer['/Root'] as string;
    const catalog = {
      ...read.catalog,
      '/OCProperties': {
        ...properties,
        '/D': { ...(properties['/D'] as PdfDict), '/ON': [byName.Artwork!.ref], '/OFF': [byName.Cutting!.ref, byName.Creasing!.ref] },
      },
    };
    const hidden = withPdfFile(pdf, (file, dir) => {
      const update = `${dir}/update.json`;
      const out = `${dir}/hidden.pdf`;
      execFileSync('bash', ['-c', `cat > ${update}`], {
        input: JSON.stringify({
          qpdf: [
            { jsonversion: 2, pushedinheritedpageresources: false, calledgetallpages: false, maxobjectid: 0 },
            { [`obj:${rootRef}`]: { value: catalog } },
          ],
        }),
      });
      execFileSync('qpdf', [`--update-from-json=${update}`, file, out]);
      return readFileSync(out);
    });
    const artworkOnly = await printOf(id, 'colorSpace=cmyk&dieline=false');
    const [a] = await rasterisePdf(hidden, 30);
    const [b] = await rasterisePdf(artworkOnly, 30);
    const [withDie] = await rasterisePdf(pdf, 30);
    expect(a!.data.equals(b!.data)).toBe(true);
    expect(withDie!.data.equals(b!.data)).toBe(false);
  });

  it('glue areas carry no ink by default; glueAreas=print keeps the background on them', async () => {
    const id = await createProject(app, owner, 'reverse-tuck-carton', { background: { kind: 'color', value: '#ff0000' } }, CARTON);
    const flap = centre('glue-flap');
    const at = async (query: string): Promise<Rgb> => {
      const [page] = await rasterisePdf(await printOf(id, `${query}&marks=false&dieline=false`), 72);
      const k = 72 / 25.4;
      return pixel(page!, (flap[0] + 3) * k, (flap[1] + 3) * k);
    };
    expect(await at('colorSpace=rgb')).toEqual([255, 255, 255]);
    expect(await at('colorSpace=cmyk&glueAreas=knockout')).toEqual([255, 255, 255]);
    const printed = await at('colorSpace=rgb&glueAreas=print');
    expect(printed[0]).toBeGreaterThan(printed[1] + 100);
    const plates = await separations(await printOf(id, 'colorSpace=cmyk'));
    for (const plate of plates.filter((p) => ['Cyan', 'Magenta', 'Yellow', 'Black'].includes(p.name))) {
      expect(inkAt(plates, plate.name, flap), plate.name).toBe(0);
    }
    expect(inkAt(plates, 'Magenta', centre('back'))).toBeGreaterThan(200);
  });
});

describe('preflight of press files', () => {
  async function preflight(artworkJson: object, query = '') {
    const id = await createProject(app, owner, 'reverse-tuck-carton', artworkJson, CARTON);
    const response = await get(`/projects/${id}/preflight${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      preflight: { ready: boolean; findings: { code: string; severity: string; message: string; artworkId?: string; panelId?: string }[] };
    }>().preflight;
  }

  it('an SVG logo never gets LOW_RESOLUTION; the clean design has no INK_COVERAGE and prints', async () => {
    const result = await preflight(design());
    expect(result.findings.filter((f) => f.code === 'LOW_RESOLUTION' || f.code === 'INK_COVERAGE')).toEqual([]);
    expect(result.ready).toBe(true);
  });

  it('INK_COVERAGE: a CMYK image with 400 % areas, naming the panel, the artwork and the highest value', async () => {
    const result = await preflight({ artworks: [artwork('rich', 'front', uploads.ink400!.url, { scale: 0.9 })] }, '?condition=fogra39');
    const ink = result.findings.filter((f) => f.code === 'INK_COVERAGE');
    expect(ink).toEqual([
      {
        severity: 'warning',
        code: 'INK_COVERAGE',
        message: 'rich on front reaches 400 % total ink; FOGRA39 allows 300 %.',
        artworkId: 'rich',
        panelId: 'front',
      },
    ]);
    expect(result.ready).toBe(true);
    expectApiError(
      await get(`/projects/${await createProject(app, owner, 'reverse-tuck-carton', {}, CARTON)}/preflight?condition=nope`),
      400,
    );
  });
});
