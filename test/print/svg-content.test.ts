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
const DPI = 150;

let app: App;

beforeAll(async () => {
  app = await createTestApp();
}, 300_000);
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

const dejavuFile = (file: string) =>
  path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf', file);

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
      expect.objectContaining({
        severity: 'warning',
        code: 'FONT_SUBSTITUTED',
        artworkId: 'words',
        message: expect.stringMatching(/'Times New Roman'.*'DejaVu Serif'/),
      }),
    ]);
    const printed = await printedText(owner, id);
    const serif = await mismatch(printed, await renderedWith(svg, dejavuFile('DejaVuSerif.ttf'), 'DejaVu Serif'));
    const sans = await mismatch(printed, await renderedWith(svg, dejavuFile('DejaVuSans.ttf'), 'DejaVu Sans'));
    expect(serif).toBeLessThan(0.08);
    expect(sans).toBeGreaterThan(serif * 2);
  });

  it("an uploaded family prints with the account's font; the preview shows the same outlines; " +
    "once the font is deleted: FONT_MISSING and print 409", async () => {
    const owner = await registerAccount(app);
    const svg = textSvg('Nimbus Sans');
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, svg)), MAILER);
    // Installed on this machine (fontconfig knows it), but neither uploaded nor bundled.
    let checked = await preflight(owner, id);
    expect(checked.ready).toBe(false);
    expect(checked.findings.filter((f) => f.code === 'FONT_MISSING')).toEqual([
      expect.objectContaining({ severity: 'error', artworkId: 'words', message: expect.stringContaining("'Nimbus Sans'") }),
    ]);
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
    const box = {
      x: Math.round((BACK.center[0] - 80) * scale),
      y: Math.round((BACK.center[1] - 20) * scale),
      w: Math.round(160 * scale),
      h: Math.round(40 * scale),
    };
    const region = await sharp(data, { raw: info }).extract({ left: box.x, top: box.y, width: box.w, height: box.h }).raw().toBuffer();
    const previewText = inkCrop({ width: box.w, height: box.h, scale: 1, data: region, channels: info.channels });
    const nimbusPreview = await mismatch(
      previewText,
      await renderedWith(svg, path.join(URW_DIRECTORY, 'NimbusSans-Regular.otf'), 'Nimbus Sans'),
    );
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
      `<image x="200" y="0" width="200" height="100" preserveAspectRatio="none" ` +
      `xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, svg)), MAILER);
    const { findings } = await preflight(owner, id);
    // 40 px over half of a 152.75 mm wide artwork: about 13 ppi.
    expect(findings.filter((f) => f.code === 'LOW_RESOLUTION')).toEqual([
      expect.objectContaining({ severity: 'error', artworkId: 'words' }),
    ]);
    expect(findings.map((f) => f.code)).not.toContain('SVG_IMAGE_DROPPED');

    expectApiError(await get(owner, `/projects/${id}/print`), 409);

    // The same drawing with a 1200 px image (about 400 ppi): it prints, red where the image is,
    // blue where the SVG's rectangle is, in both colour spaces.
    const sharpPng = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const fine = svg.replace(png.toString('base64'), sharpPng.toString('base64'));
    const fineId = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, fine)), MAILER);
    expect((await preflight(owner, fineId)).findings.map((f) => f.code)).not.toContain('LOW_RESOLUTION');
    for (const colorSpace of ['rgb', 'cmyk']) {
      const response = await get(owner, `/projects/${fineId}/print?marks=false&dieline=false&colorSpace=${colorSpace}`);
      expect(response.statusCode, response.body).toBe(200);
      const [page] = await rasterisePdf(response.rawPayload, 36);
      const w = 0.5 * BACK.width;
      const at = (dxMm: number) => pixel(page!, (BACK.center[0] + dxMm + 3) * page!.scale, (BACK.center[1] + 3) * page!.scale);
      const image = at(w / 4);
      const rect = at(-w / 4);
      expect(image[0] > image[2] + 80, `${colorSpace} image ${image.join(',')}`).toBe(true);
      expect(rect[2] > rect[0] + 80, `${colorSpace} rectangle ${rect.join(',')}`).toBe(true);
    }
  });

  it('a pattern holding an image prints (no 500)', async () => {
    const owner = await registerAccount(app);
    const png = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">` +
      `<defs><pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse">` +
      `<image width="20" height="20" href="data:image/png;base64,${png.toString('base64')}"/>` +
      `</pattern></defs><rect width="100" height="100" fill="url(#p)"/></svg>`;
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, svg), 0.2), MAILER);
    for (const colorSpace of ['rgb', 'cmyk']) {
      const response = await get(owner, `/projects/${id}/print?colorSpace=${colorSpace}`);
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it('an image at a file path, /dev/zero, http or another SVG draws nothing ' +
    'and gives SVG_IMAGE_DROPPED; print 409, preview 200', async () => {
    const owner = await registerAccount(app);
    const inner = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>').toString('base64');
    const hrefs = ['/etc/hostname', 'file:///dev/zero', '/dev/zero', 'http://127.0.0.1:9/x.png', `data:image/svg+xml;base64,${inner}`];
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100" ` +
      `viewBox="0 0 400 100"><rect width="400" height="100" fill="#00ff00"/>` +
      hrefs.map((href, i) => `<image x="${i * 80}" y="0" width="80" height="100" href="${href}"/>`).join('') +
      `</svg>`;
    const id = await createProject(app, owner, 'mailer-box', design(await svgArtwork(owner, svg)), MAILER);
    const { ready, findings } = await preflight(owner, id);
    expect(ready).toBe(false);
    const dropped = findings.filter((f) => f.code === 'SVG_IMAGE_DROPPED');
    // Once per artwork and code, naming every image left out.
    expect(dropped).toEqual([
      expect.objectContaining({ severity: 'error', artworkId: 'words', message: expect.stringContaining('5 images') }),
    ]);
    expect(dropped[0]!.message).toContain('/dev/zero');
    expectApiError(await get(owner, `/projects/${id}/print`), 409);
    expect((await get(owner, `/projects/${id}/preview?width=256`)).statusCode).toBe(200);
  });
});

describe('line and text minimums at placed size', { timeout: 120_000 }, () => {
  /** A 100-unit-wide SVG placed so that one unit is one millimetre on the back panel. */
  const ONE_MM_SCALE = 100 / BACK.width;
  const svgOf = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">${body}</svg>`;
  const line = (width: number, colour = '#000000', transform = '') =>
    svgOf(`<g transform="${transform}"><path d="M10 50 L90 50" stroke="${colour}" stroke-width="${width}" fill="none"/></g>`);
  const text = (size: number, colour = '#000000', transform = '') =>
    svgOf(`<g transform="${transform}"><text x="10" y="50" font-size="${size}" fill="${colour}">Oats</text></g>`);

  async function findingsOf(cases: Record<string, string>, background?: string) {
    const owner = await registerAccount(app);
    const artworks = [];
    for (const [id, svg] of Object.entries(cases)) {
      artworks.push(artwork(id, 'back', await svgArtwork(owner, svg), { scale: ONE_MM_SCALE }));
    }
    const id = await createProject(
      app,
      owner,
      'mailer-box',
      { artworks, ...(background ? { background: { kind: 'color', value: background } } : {}) },
      MAILER,
    );
    return (await preflight(owner, id)).findings;
  }
  const flagged = (findings: PreflightFinding[], code: string) => findings.filter((f) => f.code === code).map((f) => f.artworkId).sort();

  it('THIN_LINE: 0.1 mm in one ink, 0.2 mm in two inks or reversed, the SVG\'s own transforms included', async () => {
    const findings = await findingsOf({
      'black-under': line(0.099),
      'black-over': line(0.101),
      'scaled-under': line(0.198, '#000000', 'scale(0.5)'),
      'scaled-over': line(0.202, '#000000', 'scale(0.5)'),
      'grey-over': line(0.101, '#808080'),
      'red-under': line(0.199, '#ff0000'),
      'red-over': line(0.201, '#ff0000'),
    });
    expect(flagged(findings, 'THIN_LINE')).toEqual(['black-under', 'red-under', 'scaled-under']);
    const message = findings.find((f) => f.code === 'THIN_LINE' && f.artworkId === 'black-under')!;
    expect(message).toMatchObject({ severity: 'warning', message: expect.stringMatching(/'black-under'.*0\.099 mm.*0\.1 mm/) });
    expect(findings.find((f) => f.artworkId === 'red-under' && f.code === 'THIN_LINE')!.message).toMatch(
      /0\.199 mm wide in 2 inks.*0\.2 mm/,
    );

    const reversed = await findingsOf({ 'white-under': line(0.199, '#ffffff'), 'white-over': line(0.201, '#ffffff') }, '#000000');
    expect(flagged(reversed, 'THIN_LINE')).toEqual(['white-under']);
  });

  it('SMALL_TEXT: 6 pt in one ink, 8 pt in two inks or reversed', async () => {
    const pt = (points: number) => (points * 25.4) / 72;
    const findings = await findingsOf({
      'black-under': text(pt(5.95)),
      'black-over': text(pt(6.05)),
      'scaled-under': text(pt(5.95) * 2, '#000000', 'scale(0.5)'),
      'blue-under': text(pt(7.95), '#0000ff'),
      'blue-over': text(pt(8.05), '#0000ff'),
    });
    expect(flagged(findings, 'SMALL_TEXT')).toEqual(['black-under', 'blue-under', 'scaled-under']);
    expect(findings.find((f) => f.code === 'SMALL_TEXT' && f.artworkId === 'black-under')!.message).toMatch(/5\.95 pt in one ink.*6 pt/);

    const reversed = await findingsOf({ 'white-under': text(pt(7.95), '#ffffff'), 'white-over': text(pt(8.05), '#ffffff') }, '#000000');
    expect(flagged(reversed, 'SMALL_TEXT')).toEqual(['white-under']);
  });
});
