// Converted photos kept between prints (src/print/image-cache.ts): a second cmyk print of the same
// photo reads the stored conversion instead of converting again, an entry that does not read back
// whole is never used (it is converted and written again), and the directory stays within its
// budget, least recently used first. The files are read back with qpdf, Ghostscript and poppler.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { openImageCache } from '../../src/print/image-cache.js';
import type { PdfImageData } from '../../src/print/images.js';
import { uploadAsset } from '../assets/helpers.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, catalogDieline, createProject, rasterisePdf } from './harness.js';
import { qpdfCheck, readPdf, separations, streamBytes } from './pdf-reader.js';

const CARTON = { widthMm: 60, heightMm: 120, depthMm: 40 };
const ORANGE = { r: 230, g: 120, b: 30 };

let app: App;
let owner: TestAccount;
let cacheDir: string;

/** A 1600 × 1200 photograph-like JPEG: an orange field with grain, so it does not compress to nothing. */
async function photo(): Promise<Buffer> {
  const noise = { type: 'gaussian', mean: 128, sigma: 20 } as const;
  const grain = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#000', noise } }).raw().toBuffer();
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: ORANGE } })
    .composite([{ input: grain, raw: { width: 1600, height: 1200, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

const entries = () => readdirSync(cacheDir).filter((name) => name.endsWith('.img'));

async function cmykPrint(id: string, query = ''): Promise<Buffer> {
  const response = await app.inject({ method: 'GET', url: `/projects/${id}/print?colorSpace=cmyk${query}`, headers: owner.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

/** The one image stream of the file (the photo), as stored. */
function photoStream(pdf: Buffer): Buffer {
  const images = readPdf(pdf).streams((dict) => dict['/Subtype'] === '/Image');
  expect(images).toHaveLength(1);
  expect(images[0]!.dict['/ColorSpace']).toBe('/DeviceCMYK');
  return streamBytes(pdf, images[0]!.ref, true);
}

/**
 * The file opens in qpdf, Ghostscript and poppler, and the photo prints orange at the back panel's
 * centre (the page is the blank and its 3 mm bleed): magenta and yellow, little cyan.
 */
async function expectReadableOrange(pdf: Buffer): Promise<void> {
  expect(qpdfCheck(pdf).status, qpdfCheck(pdf).output).toBe(0);
  const dpi = 20;
  const plates = await separations(pdf, dpi);
  const [x, y] = catalogDieline('reverse-tuck-carton', CARTON).panels.find((panel) => panel.id === 'back')!.frame.center;
  const ink = (name: string) => {
    const plate = plates.find((p) => p.name === name)!;
    return plate.ink[Math.round(((y! + 3) * dpi) / 25.4) * plate.width + Math.round(((x! + 3) * dpi) / 25.4)]!;
  };
  expect(ink('Magenta'), 'magenta').toBeGreaterThan(100);
  expect(ink('Yellow'), 'yellow').toBeGreaterThan(150);
  expect(ink('Cyan'), 'cyan').toBeLessThan(40);
  const [page] = await rasterisePdf(pdf, 10);
  expect(page!.width * page!.height).toBeGreaterThan(0);
}

beforeAll(async () => {
  cacheDir = path.join(mkdtempSync(path.join(tmpdir(), 'pf-image-cache-')), 'cache');
  app = await createTestApp({ PRINT_IMAGE_CACHE_DIR: cacheDir });
  owner = await registerProAccount(app);
}, 120_000);

afterAll(async () => {
  await app.close();
});

describe('converted images cached between prints', () => {
  it('the second print reads the stored conversion; an entry cut short is converted and written again', async () => {
    const asset = await uploadAsset(app, owner, await photo(), { filename: 'photo.jpg', contentType: 'image/jpeg' });
    const design = { artworks: [artwork('photo', 'back', `/files/${asset.name}`, { scale: 0.9 })] };
    const id = await createProject(app, owner, 'reverse-tuck-carton', design, CARTON);

    const first = await cmykPrint(id, '&marks=false&dieline=false');
    expect(entries()).toHaveLength(1);
    const [name] = entries();
    const entry = path.join(cacheDir, name!);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(entry).mode & 0o777).toBe(0o600);
    await expectReadableOrange(first);

    // Read, not written again: the same file (a new entry is a new file renamed over it) with its
    // last use renewed, and the same stream.
    const before = statSync(entry);
    utimesSync(entry, new Date('2001-01-01'), new Date('2001-01-01'));
    const second = await cmykPrint(id, '&marks=false&dieline=false');
    const after = statSync(entry);
    expect(after.ino).toBe(before.ino);
    expect(after.mtime.getFullYear()).toBeGreaterThan(2001);
    expect(photoStream(second).equals(photoStream(first))).toBe(true);
    expect(second.equals(first)).toBe(true);

    // An entry cut short, as a writer killed mid-write would leave it without the rename: a miss.
    truncateSync(entry, Math.floor(before.size / 2));
    const third = await cmykPrint(id, '&marks=false&dieline=false');
    expect(photoStream(third).equals(photoStream(first))).toBe(true);
    await expectReadableOrange(third);
    expect(entries()).toEqual([name]);
    expect(statSync(entry).size).toBe(before.size);

    // Another printing condition is another conversion, kept beside the first.
    const gracol = await cmykPrint(id, '&marks=false&dieline=false&condition=gracol2006');
    expect(photoStream(gracol).equals(photoStream(first))).toBe(false);
    expect(entries()).toHaveLength(2);
  }, 180_000);

  it('an rgb print of an upright JPEG converts nothing and keeps nothing', async () => {
    const asset = await uploadAsset(app, owner, await photo(), { filename: 'other.jpg', contentType: 'image/jpeg' });
    const design = { artworks: [artwork('photo', 'front', `/files/${asset.name}`)] };
    const id = await createProject(app, owner, 'reverse-tuck-carton', design, CARTON);
    const held = entries().length;
    const response = await app.inject({ method: 'GET', url: `/projects/${id}/print?colorSpace=rgb`, headers: owner.auth });
    expect(response.statusCode, response.body).toBe(200);
    expect(entries()).toHaveLength(held);
  }, 120_000);
});

describe('the image cache directory', () => {
  const image = (fill: number, bytes = 1000): PdfImageData => ({
    width: 10,
    height: 10,
    colorSpace: 'DeviceCMYK',
    filter: 'DCTDecode',
    decode: [1, 0, 1, 0, 1, 0, 1, 0],
    data: Buffer.alloc(bytes, fill),
  });
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);

  it('keeps at most its budget, dropping the least recently used entries and stale temporary files', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'pf-image-cache-')), 'entries');
    const cache = openImageCache({ dir, maxBytes: 3500 });
    for (const [key, minutes] of [['a', 30], ['b', 20], ['c', 10]] as const) {
      await cache.put(key, image(key.charCodeAt(0)));
      utimesSync(path.join(dir, `${key}.img`), ago(minutes), ago(minutes));
    }
    // A killed writer's temporary files: an old one is removed, a recent one (a writer still at work) kept.
    writeFileSync(path.join(dir, 'x.1.aa.tmp'), 'partial');
    utimesSync(path.join(dir, 'x.1.aa.tmp'), ago(120), ago(120));
    writeFileSync(path.join(dir, 'y.2.bb.tmp'), 'partial');

    const used = await cache.get('a');
    expect(used?.data.equals(image(97).data)).toBe(true);
    expect(used?.decode).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
    await cache.put('d', image(100));
    expect(readdirSync(dir).sort()).toEqual(['a.img', 'c.img', 'd.img', 'y.2.bb.tmp']);
    expect(await cache.get('b')).toBeNull();

    // An entry bigger than the whole budget is not kept, and evicts nothing.
    await cache.put('huge', image(1, 5000));
    expect(readdirSync(dir).filter((name) => name.endsWith('.img')).sort()).toEqual(['a.img', 'c.img', 'd.img']);
  });

  it('a file in the directory\'s place turns the cache off; a directory open to others is made owner-only', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'pf-image-cache-'));
    writeFileSync(path.join(root, 'file'), 'not a directory');
    const onFile = openImageCache({ dir: path.join(root, 'file'), maxBytes: 1e6 });
    await onFile.put('a', image(1));
    expect(await onFile.get('a')).toBeNull();
    expect(readFileSync(path.join(root, 'file'), 'utf8')).toBe('not a directory');

    // Opened up to the group and others: made owner-only before anything is written.
    const loose = path.join(root, 'loose');
    mkdirSync(loose, { mode: 0o777 });
    const cache = openImageCache({ dir: loose, maxBytes: 1e6 });
    await cache.put('a', image(1));
    expect(statSync(loose).mode & 0o777).toBe(0o700);
    expect((await cache.get('a'))?.data.equals(image(1).data)).toBe(true);
  });
});
