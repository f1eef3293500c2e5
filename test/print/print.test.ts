// GET /projects/:id/print and /preview through the real stack, rasterised with pdftoppm: where the
// image lands, which way up, what the background fills, what stays white, the page boxes and the
// spot colours; caching, statuses and the 409 for a project with preflight errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { Dieline, DielinePanel, Point } from '../../src/dielines/index.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { registerProAccount } from '../projects/fixtures.js';
import { createTestApp } from '../helpers/app.js';
import { expectApiError } from '../assets/helpers.js';
import {
  artwork,
  BLUE,
  catalogDieline,
  checkBleedFill,
  createProject,
  decodePng,
  expectColor,
  expectDominant,
  GREEN,
  pageBoxes,
  pixel,
  rasterisePdf,
  RED,
  twoToneJpeg,
  uploadJpeg,
  type Raster,
} from './harness.js';

const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };
const PT = 72 / 25.4;
/** Crop-mark room around the bleed: 2 mm gap, 5 mm mark, 1 mm margin. */
const MARK_ROOM = 8;

let app: App;
let owner: TestAccount;
let imageUrl: string;
let dieline: Dieline;

const panel = (id: string): DielinePanel => dieline.panels.find((p) => p.id === id)!;
/** Clockwise rotation, y down. */
const rotate = ([x, y]: Point, deg: number): Point => {
  const a = (deg * Math.PI) / 180;
  return [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)];
};

function get(url: string, account = owner, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers: { ...account.auth, ...headers } });
}

/** Within the bounding box of the scale-0.5 image on front (plus 2 mm). */
function inFrontImage([x, y]: Point): boolean {
  const front = panel('front');
  const w = 0.5 * front.frame.width;
  const h = (w * 2) / 3;
  const [cx, cy] = front.frame.center;
  return Math.abs(x - cx) < w / 2 + 2 && Math.abs(y - cy) < h / 2 + 2;
}

/** A blank point (mm) on a page rasterised with crop marks at the default 3 mm bleed. */
function onPage(raster: Raster, [x, y]: Point, margin = 3 + MARK_ROOM) {
  return pixel(raster, (x + margin) * raster.scale, (y + margin) * raster.scale);
}

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  imageUrl = await uploadJpeg(app, owner, await twoToneJpeg(2400, 1600));
  dieline = catalogDieline('mailer-box', MAILER);
});

afterAll(async () => {
  await app.close();
});

describe('print PDF', () => {
  const design = (rotationDeg: number) => ({
    material: 'kraft',
    background: { kind: 'color', value: '#00ff00' },
    artworks: [artwork('art-1', 'front', imageUrl, { scale: 0.5, rotationDeg })],
  });

  it('places the image at the panel centre, upright; the background fills the bleed and nothing prints outside it', async () => {
    const id = await createProject(app, owner, 'mailer-box', design(0), MAILER);
    const response = await get(`/projects/${id}/print`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="print-test-v1-rgb.pdf"');
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const pdf = response.rawPayload;
    const [page, ...rest] = await rasterisePdf(pdf, 72);
    expect(rest).toHaveLength(0);

    const front = panel('front');
    const h = (0.5 * front.frame.width * 400) / 600;
    // front reads upside down on the sheet (rotation 180): the image's red top half lies below the centre.
    const [cx, cy] = front.frame.center;
    const down = rotate([0, h / 4], front.frame.rotationDeg);
    expectColor(onPage(page!, [cx - down[0], cy - down[1]]), RED, 'upright top half (red)');
    // Pure sRGB blue and green lie outside the press gamut: poppler shows them through the
    // OutputIntent's profile, so the background is judged by the colour it shows on the bottom panel.
    expectDominant(onPage(page!, [cx + down[0], cy + down[1]]), 2, 'upright bottom half (blue)');
    const background = onPage(page!, panel('bottom').frame.center);
    expectDominant(background, 1, 'background on the bottom panel');

    const judged = checkBleedFill(dieline, (p) => onPage(page!, p), background, (p) => inFrontImage(p));
    expect(judged.inside).toBeGreaterThan(1000);
    expect(judged.outside).toBeGreaterThan(1000);
  });

  it('rotates the image with rotationDeg (90° clockwise)', async () => {
    const id = await createProject(app, owner, 'mailer-box', design(90), MAILER);
    const [page] = await rasterisePdf((await get(`/projects/${id}/print?marks=false`)).rawPayload, 72);
    const front = panel('front');
    const h = (0.5 * front.frame.width * 400) / 600;
    const [cx, cy] = front.frame.center;
    const up = rotate([0, -h / 4], front.frame.rotationDeg + 90);
    expectColor(onPage(page!, [cx + up[0], cy + up[1]], 3), RED, 'red half after the turn');
    expectDominant(onPage(page!, [cx - up[0], cy - up[1]], 3), 2, 'blue half after the turn');
    // A quarter turn moved the halves sideways: straight above and below the centre is the seam.
    expect(Math.abs(up[1])).toBeLessThan(1e-6);
  });

  it('has TrimBox = the blank, BleedBox = trim + bleed, the dieline as overprinting Separations', async () => {
    const id = await createProject(app, owner, 'mailer-box', design(0), MAILER);
    const pdf = (await get(`/projects/${id}/print?bleedMm=5`)).rawPayload;
    const d = catalogDieline('mailer-box', MAILER, 5);
    const m = (5 + MARK_ROOM) * PT;
    const [trim] = pageBoxes(pdf, 'TrimBox');
    const [bleed] = pageBoxes(pdf, 'BleedBox');
    const expectBox = (actual: number[] | undefined, expected: number[]) =>
      expected.forEach((value, i) => expect(actual![i]).toBeCloseTo(value, 1));
    expectBox(trim, [m, m, m + d.blank.width * PT, m + d.blank.height * PT]);
    expectBox(bleed, [MARK_ROOM * PT, MARK_ROOM * PT, m + (d.blank.width + 5) * PT, m + (d.blank.height + 5) * PT]);
    const text = pdf.toString('latin1');
    expect(text).toMatch(/\[\/Separation \/CutContour \/DeviceCMYK/);
    expect(text).toMatch(/\[\/Separation \/Crease \/DeviceCMYK/);
    expect(text).toMatch(/\/OP true\s*\/op true\s*\/OPM 1/);
    // The JPEG went in unchanged (DCTDecode, its own bytes), once.
    expect(text.match(/\/Filter \/DCTDecode/g)).toHaveLength(1);

    const bare = await get(`/projects/${id}/print?dieline=false&marks=false`);
    expect(bare.rawPayload.toString('latin1')).not.toMatch(/CutContour/);
  });

  it('is byte-for-byte reproducible, with a strong ETag and 304 on If-None-Match', async () => {
    const id = await createProject(app, owner, 'mailer-box', design(0), MAILER);
    const first = await get(`/projects/${id}/print`);
    const second = await get(`/projects/${id}/print`);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(second.headers.etag).toBe(etag);
    const cached = await get(`/projects/${id}/print`, owner, { 'if-none-match': etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    expect(cached.headers['cache-control']).toBe('private, no-cache');
    const other = await get(`/projects/${id}/print?colorSpace=cmyk`, owner, { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
  });

  it('colorSpace=cmyk converts images and background and declares an OutputIntent', async () => {
    const id = await createProject(app, owner, 'mailer-box', design(0), MAILER);
    const response = await get(`/projects/${id}/print?colorSpace=cmyk&marks=false`);
    expect(response.statusCode).toBe(200);
    const text = response.rawPayload.toString('latin1');
    expect(text).toMatch(/\/OutputIntents \[/);
    expect(text).toMatch(/\/S \/GTS_PDFX/);
    expect(text).toMatch(/\/ColorSpace \/DeviceCMYK/);
    const [page] = await rasterisePdf(response.rawPayload, 72);
    const front = panel('front');
    const h = (0.5 * front.frame.width * 400) / 600;
    const [cx, cy] = front.frame.center;
    // Out-of-gamut sRGB primaries come back duller through the press profile: check the hue.
    expectDominant(onPage(page!, [cx, cy + h / 4], 3), 0, 'red through CMYK');
    expectDominant(onPage(page!, [cx, cy - h / 4], 3), 2, 'blue through CMYK');
    expectDominant(onPage(page!, panel('bottom').frame.center, 3), 1, 'green through CMYK');
  });

  it('rigid-lid-box: one page per piece', async () => {
    const id = await createProject(app, owner, 'rigid-lid-box', { background: { kind: 'color', value: 'rgb(0, 0, 255)' } });
    const response = await get(`/projects/${id}/print`);
    expect(response.statusCode).toBe(200);
    expect(await rasterisePdf(response.rawPayload, 10)).toHaveLength(2);
    expect(pageBoxes(response.rawPayload, 'TrimBox')).toHaveLength(2);
  });

  it('answers 409 when the preflight has an error, 400 for a container, 404 for another account', async () => {
    const broken = await createProject(app, owner, 'mailer-box', { artworks: [artwork('art-1', 'tuck-top', imageUrl)] }, MAILER);
    expectApiError(await get(`/projects/${broken}/print`), 409, 'The project has preflight errors; see GET /projects/:id/preflight.');
    const bottle = await createProject(app, owner, 'round-bottle', {});
    expectApiError(
      await get(`/projects/${bottle}/print?seamMm=5`),
      400,
      "Option 'seamMm' does not apply to template 'round-bottle' with labelStyle=label.",
    );
    expectApiError(await get(`/projects/${bottle}/preview?labelStyle=band`), 400);
    const stranger = await registerAccount(app);
    expectApiError(await get(`/projects/${broken}/print`, stranger), 404, 'Project not found.');
    expectApiError(await get(`/projects/${broken}/preview`, stranger), 404, 'Project not found.');
    expectApiError(await get(`/projects/${broken}/print?bleedMm=21`), 400);
    expectApiError(await get(`/projects/${broken}/print?colorSpace=lab`), 400);
    expect((await app.inject({ method: 'GET', url: `/projects/${broken}/print` })).statusCode).toBe(401);
  });
});

describe('preview PNG', () => {
  it('draws the same layers: image upright at the panel centre, background in the bleed, white outside', async () => {
    const id = await createProject(app, owner, 'mailer-box', {
      background: { kind: 'color', value: '#0f0' },
      artworks: [artwork('art-1', 'front', imageUrl, { scale: 0.5 })],
    }, MAILER);
    const response = await get(`/projects/${id}/preview`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const k = 1024 / dieline.artboard.width;
    const raster = await decodePng(response.rawPayload, k);
    expect(raster.width).toBe(1024);
    const at = ([x, y]: Point) => pixel(raster, (x + 3) * k, (y + 3) * k);
    const front = panel('front');
    const h = (0.5 * front.frame.width * 400) / 600;
    const [cx, cy] = front.frame.center;
    expectColor(at([cx, cy + h / 4]), RED, 'red (upright top) below the centre');
    expectColor(at([cx, cy - h / 4]), BLUE, 'blue above the centre');
    expectColor(at(panel('bottom').frame.center), GREEN, 'background');
    // A preview pixel is ~0.8 mm here: lines and edges get 2 mm of room.
    const judged = checkBleedFill(dieline, at, GREEN, (p) => inFrontImage(p), 7, 2);
    expect(judged.inside).toBeGreaterThan(1000);
    expect(judged.outside).toBeGreaterThan(1000);

    const etag = String(response.headers.etag);
    expect((await get(`/projects/${id}/preview`, owner, { 'if-none-match': etag })).statusCode).toBe(304);
    const small = await get(`/projects/${id}/preview?width=64`);
    expect((await decodePng(small.rawPayload, 1)).width).toBe(64);
    expectApiError(await get(`/projects/${id}/preview?width=63`), 400);
    expectApiError(await get(`/projects/${id}/preview?width=2049`), 400);
  });

  it('leaves missing images out instead of failing', async () => {
    const id = await createProject(app, owner, 'mailer-box', {
      background: { kind: 'color', value: '#00ff00' },
      artworks: [artwork('gone', 'front', '/files/doesnotexist000000000000.png'), artwork('far', 'front', 'https://example.com/a.png')],
    }, MAILER);
    const response = await get(`/projects/${id}/preview?width=512`);
    expect(response.statusCode).toBe(200);
    const k = 512 / dieline.artboard.width;
    const raster = await decodePng(response.rawPayload, k);
    const [cx, cy] = panel('front').frame.center;
    expectColor(pixel(raster, (cx + 3) * k, (cy + 3) * k), GREEN, 'no image, background shows');
  });
});

// Last in the file: its jobs must not overlap another test's requests.
describe('concurrency', () => {
  it("one account's burst of 12 previews queues behind its own running one and every preview completes", async () => {
    const sharp = (await import('sharp')).default;
    const noisy = await sharp({
      create: { width: 2400, height: 1600, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    const url = await uploadJpeg(app, owner, noisy);
    const id = await createProject(app, owner, 'mailer-box', { artworks: [artwork('art-1', 'front', url, { scale: 0.3 })] }, MAILER);
    // Distinct widths: no request can use another's downsampled copy. At most 16 wait per account.
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => get(`/projects/${id}/preview?width=${1000 + i}`)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 12 }, () => 200));
  }, 240_000);
});
