// Metadata, thumbnails and the bad-input matrix of POST /assets, with images made here by sharp.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { WORKER_NICE } from '../../src/lib/worker-priority.js';
import { thumbnailNameOf } from '../../src/services/assets.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { imageFixture } from '../helpers/images.js';
import { assetCount, expectApiError, uploadDirEntries, uploadFile, type AssetBody } from './helpers.js';
import * as made from './made-images.js';

interface AssetWithMetadata extends AssetBody {
  widthPx: number | null;
  heightPx: number | null;
  dpi: number | null;
  colorSpace: string;
  hasAlpha: boolean;
  sha256: string | null;
  thumbnailUrl: string | null;
}

const UNREADABLE = 'The image could not be decoded: it is truncated or corrupt.';
const TOO_MANY_PIXELS = 'Images larger than 100 megapixels are not supported.';
// libpng and libjpeg report a damaged file; the GIF, WebP and AVIF decoders may recover part of one.
const STRICT_DECODERS = [
  ['PNG', () => made.png(400, 300, 4), 'image/png'],
  ['JPEG', () => made.jpeg(400, 300), 'image/jpeg'],
] as const;
const LENIENT_DECODERS = [
  ['GIF', () => made.gif(400, 300), 'image/gif'],
  ['WebP', () => made.webp(400, 300), 'image/webp'],
  ['AVIF', () => made.avif(400, 300), 'image/avif'],
] as const;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe(`asset metadata and thumbnails (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function stored(data: Buffer, contentType: string, filename = 'image'): Promise<AssetWithMetadata> {
    const response = await uploadFile(app, owner, data, { contentType, filename });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ asset: AssetWithMetadata }>().asset;
  }

  /** The thumbnail as GET /files serves it, with its decoded size. */
  async function thumbnailOf(asset: AssetWithMetadata) {
    expect(asset.thumbnailUrl).toBe(`/files/${thumbnailNameOf(asset.name)}`);
    const response = await app.inject({ method: 'GET', url: asset.thumbnailUrl! });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    const info = await sharp(response.rawPayload, { animated: true }).metadata();
    return { response, info };
  }

  describe('what an upload records', () => {
    it('a JPEG: pixel size, the dpi it records, sRGB, no alpha, the SHA-256 of its bytes', async () => {
      const data = await made.jpeg(300, 200, { density: 300 });
      const asset = await stored(data, 'image/jpeg');
      expect(asset).toMatchObject({ widthPx: 300, heightPx: 200, dpi: 300, colorSpace: 'srgb', hasAlpha: false, sha256: sha256(data) });
      const { info } = await thumbnailOf(asset);
      expect([info.format, info.width, info.height]).toEqual(['webp', 300, 200]);
    });

    it('a PNG with alpha and no recorded resolution: dpi null, hasAlpha true; the thumbnail is at most 512 px', async () => {
      const data = await made.png(1200, 800, 4);
      const asset = await stored(data, 'image/png');
      expect(asset).toMatchObject({ widthPx: 1200, heightPx: 800, dpi: null, colorSpace: 'srgb', hasAlpha: true, sha256: sha256(data) });
      const { info } = await thumbnailOf(asset);
      expect([info.width, info.height, info.hasAlpha]).toEqual([512, 341, true]);
    });

    it('a tall image keeps its aspect ratio with its longer side at 512', async () => {
      const asset = await stored(await made.png(600, 2400, 3, 150), 'image/png');
      // Written as 5906 pixels per metre: 150.01 dpi.
      expect(asset).toMatchObject({ widthPx: 600, heightPx: 2400, dpi: 150.01 });
      const { info } = await thumbnailOf(asset);
      expect([info.width, info.height]).toEqual([128, 512]);
    });

    it('a 1×1 image: never upscaled', async () => {
      const asset = await stored(await made.png(1, 1), 'image/png');
      expect(asset).toMatchObject({ widthPx: 1, heightPx: 1 });
      const { info } = await thumbnailOf(asset);
      expect([info.width, info.height]).toEqual([1, 1]);
    });

    it('a 16-bit PNG is sRGB', async () => {
      const asset = await stored(await made.png16(64, 48), 'image/png');
      expect(asset).toMatchObject({ widthPx: 64, heightPx: 48, colorSpace: 'srgb', hasAlpha: false });
      await thumbnailOf(asset);
    });

    it('a greyscale PNG is gray', async () => {
      const asset = await stored(await made.grayPng(20, 10), 'image/png');
      expect(asset).toMatchObject({ widthPx: 20, heightPx: 10, colorSpace: 'gray' });
    });

    it('a CMYK JPEG is cmyk, and still gets a thumbnail', async () => {
      const asset = await stored(await made.cmykJpeg(80, 60), 'image/jpeg');
      expect(asset).toMatchObject({ widthPx: 80, heightPx: 60, colorSpace: 'cmyk', hasAlpha: false });
      const { info } = await thumbnailOf(asset);
      expect([info.width, info.height]).toEqual([80, 60]);
    });

    it('an EXIF-rotated JPEG (orientation 6): the size as shown, and an upright thumbnail', async () => {
      const asset = await stored(await made.jpeg(300, 200, { orientation: 6 }), 'image/jpeg');
      expect(asset).toMatchObject({ widthPx: 200, heightPx: 300 });
      const { info } = await thumbnailOf(asset);
      expect([info.width, info.height, info.orientation]).toEqual([200, 300, undefined]);
    });

    it('an animated GIF: the size of one frame; the thumbnail is its first frame only', async () => {
      const data = await made.animatedGif(40, 30, 3);
      const asset = await stored(data, 'image/gif');
      expect(asset).toMatchObject({ widthPx: 40, heightPx: 30 });
      const { response, info } = await thumbnailOf(asset);
      expect([info.width, info.height, info.pages ?? 1]).toEqual([40, 30, 1]);
      // Its mean colour is the first frame's, not the others' (lossy WebP: compared within a margin).
      const meanOf = async (image: Sharp) => (await image.stats()).channels.slice(0, 3).map((channel) => channel.mean);
      const thumbnail = await meanOf(sharp(response.rawPayload));
      const distance = (a: number[], b: number[]) => Math.hypot(...a.map((value, index) => value - b[index]!));
      const frames = await Promise.all([0, 1, 2].map((page) => meanOf(sharp(data, { page }))));
      expect(distance(thumbnail, frames[0]!)).toBeLessThan(12);
      expect(Math.max(...frames.slice(1).map((frame) => distance(thumbnail, frame)))).toBeGreaterThan(40);
    });

    it.each([
      ['WebP', () => made.webp(50, 40), 'image/webp', true],
      ['AVIF', () => made.avif(50, 40), 'image/avif', false],
      ['GIF', () => made.gif(50, 40), 'image/gif', false],
    ] as const)('a %s', async (_label, make, type, alpha) => {
      const asset = await stored(await make(), type);
      expect(asset).toMatchObject({ widthPx: 50, heightPx: 40, colorSpace: 'srgb', hasAlpha: alpha });
      await thumbnailOf(asset);
    });

    it('an SVG: its rounded width and height, dpi null, rasterised thumbnail', async () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100.6" height="50"><rect width="100" height="50" fill="#f80"/></svg>';
      const asset = await stored(Buffer.from(svg), 'image/svg+xml');
      expect(asset).toMatchObject({ widthPx: 101, heightPx: 50, dpi: null, hasAlpha: true });
      const { info } = await thumbnailOf(asset);
      expect([info.format, info.width, info.height]).toEqual(['webp', 101, 50]);
    });

    it('an SVG with only a viewBox: the viewBox size', async () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480"><circle cx="320" cy="240" r="200"/></svg>';
      const asset = await stored(Buffer.from(svg), 'image/svg+xml');
      expect(asset).toMatchObject({ widthPx: 640, heightPx: 480 });
      const { info } = await thumbnailOf(asset);
      expect([info.width, info.height]).toEqual([512, 384]);
    });

    it('the thumbnail is served like any file: ETag, 304, immutable cache, nosniff, sandbox CSP', async () => {
      const asset = await stored(await made.png(10, 10), 'image/png');
      const { response } = await thumbnailOf(asset);
      const original = await app.inject({ method: 'GET', url: asset.url });
      for (const header of ['cache-control', 'x-content-type-options', 'content-security-policy']) {
        expect(response.headers[header]).toBe(original.headers[header]);
      }
      expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      expect(response.headers.etag).not.toBe(original.headers.etag);
      const again = await app.inject({
        method: 'GET',
        url: asset.thumbnailUrl!,
        headers: { 'if-none-match': String(response.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      const head = await app.inject({ method: 'HEAD', url: asset.thumbnailUrl! });
      expect([head.statusCode, head.headers['content-length']]).toEqual([200, String(response.rawPayload.length)]);
    });

    it('thumbnailUrl and url follow PUBLIC_BASE_URL', async () => {
      const based = await createTestApp({ PUBLIC_BASE_URL: 'https://cdn.example.com/' });
      try {
        const account = await registerAccount(based);
        const response = await uploadFile(based, account, await made.png(4, 4));
        const { asset } = response.json<{ asset: AssetWithMetadata }>();
        expect(asset.url).toBe(`https://cdn.example.com/files/${asset.name}`);
        expect(asset.thumbnailUrl).toBe(`https://cdn.example.com/files/${thumbnailNameOf(asset.name)}`);
      } finally {
        await based.close();
      }
    });

    it('a name that only looks like a thumbnail is a 404', async () => {
      const asset = await stored(await made.png(4, 4), 'image/png');
      for (const name of [
        `${asset.name}-thumb.webp`,
        thumbnailNameOf(asset.name).replace('-thumb', '-thumbs'),
        'abcdefghijklmnopqrstuvwx-thumb.webp',
      ]) {
        expectApiError(await app.inject({ method: 'GET', url: `/files/${name}` }), 404, 'File not found.');
      }
    });
  });

  describe('SVG never loads an external resource', () => {
    let listener: http.Server;
    let requests: string[];
    let port: number;

    beforeAll(async () => {
      requests = [];
      listener = http.createServer((request, response) => {
        requests.push(request.url ?? '');
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(imageFixture('tiny.png'));
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => listener.close(resolve));
    });

    it('stores an SVG with scripts, http and file: references, and the listener sees no request', async () => {
      const base = `http://127.0.0.1:${port}`;
      const svg = [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100">',
        '<script>fetch("' + base + '/script")</script>',
        `<style>@import url("${base}/style.css"); rect { fill: url("${base}/fill.svg#p"); }</style>`,
        `<image href="${base}/href.png" x="0" y="0" width="100" height="100"/>`,
        `<image xlink:href="${base}/xlink.png" x="100" y="0" width="100" height="100"/>`,
        '<image href="file:///etc/passwd" width="10" height="10"/>',
        `<image href="file://127.0.0.1:${port}/file-host.png" width="10" height="10"/>`,
        `<use href="${base}/use.svg#shape"/>`,
        '<rect x="0" y="0" width="20" height="20"/>',
        '</svg>',
      ].join('\n');
      const asset = await stored(Buffer.from(svg), 'image/svg+xml');
      expect(asset).toMatchObject({ widthPx: 200, heightPx: 100 });
      const { info } = await thumbnailOf(asset);
      expect([info.width, info.height]).toEqual([200, 100]);
      // Give a late fetch every chance to arrive.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(requests).toEqual([]);
    });

    it('a file: reference to a readable local image is not embedded: the thumbnail stays empty', async () => {
      const directory = await mkdtemp(path.join(tmpdir(), 'pf-svg-'));
      const local = path.join(directory, 'secret.png');
      await writeFile(local, await sharp({ create: { width: 50, height: 50, channels: 3, background: '#f00' } }).png().toBuffer());
      const svg = [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="50" height="50">',
        `<image href="${pathToFileURL(local).href}" width="50" height="50"/>`,
        '<image xlink:href="secret.png" width="50" height="50"/>',
        '</svg>',
      ].join('');
      const asset = await stored(Buffer.from(svg), 'image/svg+xml');
      const { response } = await thumbnailOf(asset);
      // The largest red value: 0 when nothing was drawn (transparent black), 255 where the red square is.
      const redMax = async (thumbnail: Buffer) => (await sharp(thumbnail).stats()).channels[0]!.max;
      expect(await redMax(response.rawPayload)).toBe(0);
      // The measure can fail: the same image inlined as a data: URL is drawn.
      const inline = `data:image/png;base64,${(await readFile(local)).toString('base64')}`;
      const control = await stored(Buffer.from(svg.replace(pathToFileURL(local).href, inline)), 'image/svg+xml');
      expect(await redMax((await thumbnailOf(control)).response.rawPayload)).toBeGreaterThan(250);
    });

    it('the listener itself answers (the proof above could fail)', async () => {
      const response = await fetch(`http://127.0.0.1:${port}/probe`);
      expect(response.status).toBe(200);
      expect(requests).toEqual(['/probe']);
      requests.length = 0;
    });
  });

  describe('bad input: a clear 4xx, no row, no file left', () => {
    async function expectRefused(data: Buffer, contentType: string, statusCode: number, message?: string) {
      const account = await registerAccount(app);
      const before = await uploadDirEntries(app);
      const response = await uploadFile(app, account, data, { contentType });
      expectApiError(response, statusCode, message);
      expect(await uploadDirEntries(app)).toEqual(before);
      expect(await assetCount(app, account.id)).toBe(0);
    }

    /** Either stored with its metadata and thumbnail, or refused as above: never a 500. */
    async function expectStoredOrRefused(data: Buffer, contentType: string) {
      const account = await registerAccount(app);
      const before = await uploadDirEntries(app);
      const response = await uploadFile(app, account, data, { contentType });
      if (response.statusCode === 201) {
        const { asset } = response.json<{ asset: AssetWithMetadata }>();
        expect(asset.widthPx).toBeGreaterThan(0);
        expect(await uploadDirEntries(app)).toEqual([...before, asset.name, thumbnailNameOf(asset.name)].sort());
        await thumbnailOf(asset);
      } else {
        expect([400, 413, 415]).toContain(response.statusCode);
        expectApiError(response, response.statusCode);
        expect(await uploadDirEntries(app)).toEqual(before);
        expect(await assetCount(app, account.id)).toBe(0);
      }
    }

    it.each(STRICT_DECODERS)('a truncated %s → 400', async (_label, make, type) => {
      await expectRefused(made.truncated(await make()), type, 400, UNREADABLE);
    });

    it.each(LENIENT_DECODERS)('a truncated %s → refused (or, where the decoder recovers, ' +
      'stored with its metadata)', async (_label, make, type) => {
      await expectStoredOrRefused(made.truncated(await make()), type);
    });

    it('a truncated SVG → 400', async () => {
      await expectRefused(
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="'),
        'image/svg+xml',
        400,
        UNREADABLE,
      );
    });

    it.each(STRICT_DECODERS)('a corrupt %s (bytes overwritten in the middle) → 400', async (_label, make, type) => {
      await expectRefused(made.corrupted(await make()), type, 400, UNREADABLE);
    });

    it.each(LENIENT_DECODERS)('a corrupt %s → refused or stored, never a 500', async (_label, make, type) => {
      await expectStoredOrRefused(made.corrupted(await make()), type);
    });

    it('an SVG that is not well-formed XML → 400', async () => {
      await expectRefused(
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g></svg>'),
        'image/svg+xml',
        400,
        UNREADABLE,
      );
    });

    it('a PNG whose header claims 200,000 × 200,000 pixels → 413 before decoding', async () => {
      await expectRefused(made.pngDeclaring(await made.png(8, 8), 200_000, 200_000), 'image/png', 413, TOO_MANY_PIXELS);
    });

    it('a PNG whose header claims just over 100 megapixels (10,001 × 10,000) → 413', async () => {
      await expectRefused(made.pngDeclaring(await made.png(8, 8), 10_001, 10_000), 'image/png', 413, TOO_MANY_PIXELS);
    });

    it('an SVG declaring 20,000 × 20,000 px → 413', async () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"><rect width="1" height="1"/></svg>';
      await expectRefused(Buffer.from(svg), 'image/svg+xml', 413, TOO_MANY_PIXELS);
    });

    it('a PNG whose header claims fewer pixels than its data holds → refused or stored, never a 500', async () => {
      await expectStoredOrRefused(made.pngDeclaring(await made.png(64, 64), 8, 8), 'image/png');
    });

    it('a zero-byte file → 415', async () => {
      await expectRefused(Buffer.alloc(0), 'image/png', 415);
    });

    it('the service still answers after all of the above', async () => {
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    });
  });

  describe('libvips works below the event loop', () => {
    // Linux: nice is per thread, read from /proc (the service runs on Linux).
    const threadsOf = async (pid: number) => {
      const tids = await readdir(`/proc/${pid}/task`);
      return Promise.all(
        tids.map(async (tid) => ({
          tid: Number(tid),
          comm: (await readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(() => '')).trim(),
          nice: getPriority(Number(tid)),
        })),
      );
    };

    it('an upload is analysed in a render child whose every thread (libvips included) ' +
      'runs at nice WORKER_NICE; the web process keeps its own', async () => {
      const before = getPriority(process.pid);
      await stored(await made.png(1200, 900), 'image/png');
      const [pid] = app.services.renderer.stats().analysis.pids;
      expect(pid).toBeGreaterThan(0);
      expect(pid).not.toBe(process.pid);
      const threads = await threadsOf(pid!);
      expect(threads.some((thread) => thread.comm.startsWith('libvips'))).toBe(true);
      for (const thread of threads) expect(thread.nice, `thread ${thread.tid} (${thread.comm})`).toBeGreaterThanOrEqual(WORKER_NICE);
      expect(getPriority(process.pid)).toBe(before);
    });
  });
});
