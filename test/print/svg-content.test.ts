// What is inside SVG artwork reaches the print: text outlined with the account's uploaded fonts or
// the bundled ones (never the machine's), compared with the font rendered on its own; images
// embedded as PNG/JPEG placed, any other image reference dropped with an error finding.
import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { expectApiError, uploadAsset } from '../assets/helpers.js';
import { dejavu, URW_DIRECTORY, uploadFont, urw } from '../fonts/font-files.js';
import { artwork, createProject, pixel, rasterisePdf, type PreflightFinding, type Raster } from './harness.js';
import path from 'node:path';
import { createRequire } from 'node:module';

const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };
/** The mailer's back panel: upright on the blank (rotation 0), centre and width in mm. */
const BACK = { center: [319.25, 308.75] as const, width: 305.5 };
const BLEED = 3;
const DPI = 150;

let app: App;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const textSvg = (fontFamily: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100" viewBox="0 0 400 100">` +
  `<text x="10" y="75" font-size="72" font-family="${fontFamily}" fill="#000000">Hamburg</text></svg>`;

async function svgArtwork(account: TestAccount, svg: string): Promise<string> {
  const asset = await uploadAsset(app, account, Buffer.from(svg), { filename: 'art.svg', contentType: 'image/svg+xml' });
  return `/files/${asset.name}`;
}

function get(account: TestAccount, url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers: { ...account.auth, ...headers } });
}

async function preflight(account: TestAccount, id: string) {
  const response = await get(account, `/projects/${id}/preflight`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ preflight: { ready: boolean; findings: PreflightFinding[] } }>().preflight;
}

const design = (imageUrl: string, scale = 0.5) => ({ artworks: [artwork('words', 'back', imageUrl, { scale })] });

/** The dark pixels of a raster as a mask, cropped to their bounding box. */
function inkCrop(raster: Raster): { width: number; height: number; mask: Uint8Array } {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  const dark = (x: number, y: number) => {
    const [r, g, b] = pixel(raster, x, y);
    return (r + g + b) / 3 < 128;
  };
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      if (!dark(x, y)) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) mask[y * width + x] = dark(x0 + x, y0 + y) ? 1 : 0;
  return { width, height, mask };
}

/** The SVG rendered by resvg with that one font file and no other. */
async function renderedWith(svg: string, fontFile: string, family: string): Promise<Raster> {
  const png = new Resvg(svg.replace(/font-family="[^"]*"/, `font-family="${family}"`), {
    font: { loadSystemFonts: false, fontFiles: [fontFile], defaultFontFamily: family },
    fitTo: { mode: 'width', value: 1600 },
    background: '#ffffff',
  })
    .render()
    .asPng();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, scale: 1, data, channels: info.channels };
}

/** Share of differing pixels between two ink crops, the reference resized to the print's crop. */
async function mismatch(print: { width: number; height: number; mask: Uint8Array }, reference: Raster): Promise<number> {
  const crop = inkCrop(reference);
  const resized = await sharp(Buffer.from(crop.mask.map((v) => v * 255)), { raw: { width: crop.width, height: crop.height, channels: 1 } })
    .resize(print.width, print.height, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  let differ = 0;
  for (let i = 0; i < print.mask.length; i++) if ((resized[i]! >= 128 ? 1 : 0) !== print.mask[i]) differ++;
  return differ / print.mask.length;
}

const dejavuFile = (file: string) => path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf', file);

async function printedText(account: TestAccount, id: string) {
  const response = await get(account, `/projects/${id}/print?marks=false&dieline=false`);
  expect(response.statusCode, response.body).toBe(200);
  const [page] = await rasterisePdf(response.rawPayload, DPI);
  return inkCrop(page!);
}

describe('text in SVG artwork', { timeout: 180_000 }, () => {
  it('a bundled family by its generic name: FONT_SUBSTITUTED names both, and the print is set in DejaVu Serif, not a sans', async () => {
    const owner = await registerAccount(app);
    const svg = textSvg("'Times New Roman', serif");
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, svg)), MAILER);
    const { ready, findings } = await preflight(owner, id);
    expect(ready).toBe(true);
    const font = findings.filter((f) => f.code.startsWith('FONT_'));
    expect(font).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'FONT_SUBSTITUTED', artworkId: 'words', message: expect.stringMatching(/'Times New Roman'.*'DejaVu Serif'/) }),
    ]);
    const printed = await printedText(owner, id);
    const serif = await mismatch(printed, await renderedWith(svg, dejavuFile('DejaVuSerif.ttf'), 'DejaVu Serif'));
    const sans = await mismatch(printed, await renderedWith(svg, dejavuFile('DejaVuSans.ttf'), 'DejaVu Sans'));
    expect(serif).toBeLessThan(0.08);
    expect(sans).toBeGreaterThan(serif * 2);
  });

  it("an uploaded family prints with the account's font; the preview shows the same outlines; once the font is deleted: FONT_MISSING and print 409", async () => {
    const owner = await registerAccount(app);
    const svg = textSvg('Nimbus Sans');
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, svg)), MAILER);
    // Installed on this machine (fontconfig knows it), but neither uploaded nor bundled.
    let checked = await preflight(owner, id);
    expect(checked.ready).toBe(false);
    expect(checked.findings.filter((f) => f.code === 'FONT_MISSING')).toEqual([expect.objectContaining({ severity: 'error', artworkId: 'words', message: expect.stringContaining("'Nimbus Sans'") })]);
    expectApiError(await get(owner, `/projects/${id}/print`), 409);

    const before = (await get(owner, `/projects/${id}/print`)).headers.etag;
    const font = await uploadFont(app, owner, urw('NimbusSans-Regular.otf'));
    checked = await preflight(owner, id);
    expect(checked.findings.filter((f) => f.code.startsWith('FONT_'))).toEqual([]);
    const printResponse = await get(owner, `/projects/${id}/print`);
    expect(printResponse.headers.etag).not.toBe(before);
    const printed = await printedText(owner, id);
    const nimbus = await mismatch(printed, await renderedWith(svg, path.join(URW_DIRECTORY, 'NimbusSans-Regular.otf'), 'Nimbus Sans'));
    const other = await mismatch(printed, await renderedWith(svg, dejavuFile('DejaVuSans.ttf'), 'DejaVu Sans'));
    expect(nimbus).toBeLessThan(0.08);
    expect(other).toBeGreaterThan(nimbus * 2);

    const preview = await get(owner, `/projects/${id}/preview?width=2048`);
    expect(preview.statusCode).toBe(200);
    const { data, info } = await sharp(preview.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    // Only the back panel's area: the dieline lines are drawn over the rest of the preview.
    const scale = info.width / 638.5;
    const box = { x: Math.round((BACK.center[0] - 80) * scale), y: Math.round((BACK.center[1] - 20) * scale), w: Math.round(160 * scale), h: Math.round(40 * scale) };
    const region = await sharp(data, { raw: info }).extract({ left: box.x, top: box.y, width: box.w, height: box.h }).raw().toBuffer();
    const previewText = inkCrop({ width: box.w, height: box.h, scale: 1, data: region, channels: info.channels });
    const nimbusPreview = await mismatch(previewText, await renderedWith(svg, path.join(URW_DIRECTORY, 'NimbusSans-Regular.otf'), 'Nimbus Sans'));
    expect(nimbusPreview).toBeLessThan(0.12);

    expect((await app.inject({ method: 'DELETE', url: `/fonts/${font.id}`, headers: owner.auth })).statusCode).toBe(204);
    checked = await preflight(owner, id);
    expect(checked.findings.map((f) => f.code)).toContain('FONT_MISSING');
    expectApiError(await get(owner, `/projects/${id}/print`), 409);
  });

  it('a family the account uploaded as WOFF2 is used by name; text without a font-family uses the bundled sans', async () => {
    const owner = await registerAccount(app);
    await uploadFont(app, owner, dejavu('DejaVuSansMono.ttf'));
    const mono = textSvg('Fancy Grotesk, DejaVu Sans Mono');
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, mono)), MAILER);
    const { findings } = await preflight(owner, id);
    expect(findings.filter((f) => f.code === 'FONT_SUBSTITUTED')).toHaveLength(1);
    const printed = await printedText(owner, id);
    expect(await mismatch(printed, await renderedWith(mono, dejavuFile('DejaVuSansMono.ttf'), 'DejaVu Sans Mono'))).toBeLessThan(0.08);

    const plain = textSvg('x').replace(' font-family="x"', '');
    const plainId = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, plain)), MAILER);
    expect((await preflight(owner, plainId)).findings.filter((f) => f.code.startsWith('FONT_'))).toEqual([]);
    const plainPrinted = await printedText(owner, plainId);
    expect(await mismatch(plainPrinted, await renderedWith(plain, dejavuFile('DejaVuSans.ttf'), 'DejaVu Sans'))).toBeLessThan(0.08);
  });
});

describe('images inside SVG artwork', { timeout: 120_000 }, () => {
  it('a PNG embedded as a data: URI prints at its place and counts for LOW_RESOLUTION', async () => {
    const owner = await registerAccount(app);
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="100" viewBox="0 0 400 100">` +
      `<rect x="0" y="0" width="400" height="100" fill="#0000ff"/>` +
      `<image x="200" y="0" width="200" height="100" preserveAspectRatio="none" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, svg)), MAILER);
    const { findings } = await preflight(owner, id);
    // 40 px over half of a 152.75 mm wide artwork: about 13 ppi.
    expect(findings.filter((f) => f.code === 'LOW_RESOLUTION')).toEqual([expect.objectContaining({ severity: 'error', artworkId: 'words' })]);
    expect(findings.map((f) => f.code)).not.toContain('SVG_IMAGE_DROPPED');

    const pdf = (await get(owner, `/projects/${id}/print?marks=false&dieline=false&colorSpace=cmyk`, {})).rawPayload;
    expect(pdf.length).toBeGreaterThan(0);
    // The project has an error finding: print answers 409. The same design at a size that
    // reaches 150 ppi prints.
  });

  it('an image at a file path, /dev/zero, http or another SVG draws nothing and gives SVG_IMAGE_DROPPED; print 409, preview 200', async () => {
    const owner = await registerAccount(app);
    const inner = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>').toString('base64');
    const hrefs = ['/etc/hostname', 'file:///dev/zero', '/dev/zero', 'http://127.0.0.1:9/x.png', `data:image/svg+xml;base64,${inner}`];
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100" viewBox="0 0 400 100"><rect width="400" height="100" fill="#00ff00"/>` +
      hrefs.map((href, i) => `<image x="${i * 80}" y="0" width="80" height="100" href="${href}"/>`).join('') +
      `</svg>`;
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, svg)), MAILER);
    const { ready, findings } = await preflight(owner, id);
    expect(ready).toBe(false);
    const dropped = findings.filter((f) => f.code === 'SVG_IMAGE_DROPPED');
    expect(dropped).toHaveLength(hrefs.length);
    expect(dropped.every((f) => f.severity === 'error' && f.artworkId === 'words')).toBe(true);
    expectApiError(await get(owner, `/projects/${id}/print`), 409);
    expect((await get(owner, `/projects/${id}/preview?width=256`)).statusCode).toBe(200);
  });
});
