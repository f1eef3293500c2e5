// dpi is the resolution the file records, in its own fields, or null: never libvips' default.
// Each format with and without a recorded resolution, uploaded through POST /assets.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { exifResolution, jfifResolution } from '../../src/lib/recorded-resolution.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { pngChunk } from '../../test-proxy/png.js';
import { uploadFile } from './helpers.js';

const plain = () => sharp({ create: { width: 40, height: 30, channels: 3, background: '#c03' } });

/** A PNG whose pHYs chunk (libvips writes one) says `perUnit` pixels per unit (1 = metre, 0 = aspect ratio only). */
async function pngWithPhys(perUnit: number, unit: 0 | 1): Promise<Buffer> {
  const png = await plain().png().toBuffer();
  const at = png.indexOf('pHYs', 8, 'latin1') - 4;
  expect(at).toBeGreaterThan(0);
  const data = Buffer.alloc(9);
  data.writeUInt32BE(perUnit, 0);
  data.writeUInt32BE(perUnit, 4);
  data[8] = unit;
  return Buffer.concat([png.subarray(0, at), pngChunk('pHYs', data), png.subarray(at + 21)]);
}

/** An EXIF block: "Exif\0\0", a little-endian TIFF header, IFD0 with XResolution and ResolutionUnit. */
function exifBlock(numerator: number, denominator: number, unit: number): Buffer {
  const block = Buffer.alloc(6 + 8 + 2 + 2 * 12 + 4 + 8);
  block.write('Exif\0\0', 0, 'latin1');
  const tiff = block.subarray(6);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(2, 8);
  const rational = 8 + 2 + 2 * 12 + 4;
  tiff.writeUInt16LE(0x011a, 10); // XResolution, RATIONAL, 1, at `rational`
  tiff.writeUInt16LE(5, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt32LE(rational, 18);
  tiff.writeUInt16LE(0x0128, 22); // ResolutionUnit, SHORT, 1, inline
  tiff.writeUInt16LE(3, 24);
  tiff.writeUInt32LE(1, 26);
  tiff.writeUInt16LE(unit, 30);
  tiff.writeUInt32LE(numerator, rational);
  tiff.writeUInt32LE(denominator, rational + 4);
  return block;
}

/** A JPEG (libvips writes neither JFIF nor EXIF by default) with an EXIF APP1 segment after SOI. */
async function jpegWithExif(exif: Buffer): Promise<Buffer> {
  const jpeg = await plain().jpeg().toBuffer();
  const app1 = Buffer.alloc(4);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(exif.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), app1, exif, jpeg.subarray(2)]);
}

/** A JPEG whose JFIF APP0 says `units` (0 aspect ratio, 1 per inch, 2 per cm) and `density`. */
async function jpegWithJfif(units: 0 | 1 | 2, density: number): Promise<Buffer> {
  const jpeg = await plain().jpeg().toBuffer();
  const app0 = Buffer.alloc(18);
  app0.writeUInt16BE(0xffe0, 0);
  app0.writeUInt16BE(16, 2);
  app0.write('JFIF\0', 4, 'latin1');
  app0.writeUInt16BE(0x0102, 9);
  app0[11] = units;
  app0.writeUInt16BE(density, 12);
  app0.writeUInt16BE(density, 14);
  return Buffer.concat([jpeg.subarray(0, 2), app0, jpeg.subarray(2)]);
}


describe(`recorded resolution (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
  });
  afterAll(() => app.close());

  async function dpiOf(data: Buffer, contentType: string): Promise<number | null> {
    const response = await uploadFile(app, owner, data, { contentType, filename: 'image' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ asset: { dpi: number | null } }>().asset.dpi;
  }

  it('PNG: pHYs in pixels per metre, converted to dpi; none, or an aspect ratio only, is null', async () => {
    expect(await dpiOf(await pngWithPhys(5906, 1), 'image/png')).toBe(150.01);
    expect(await dpiOf(await pngWithPhys(11811, 1), 'image/png')).toBe(300);
    expect(await dpiOf(await pngWithPhys(2, 0), 'image/png')).toBeNull();
    // libvips writes 1000 px/m (its placeholder) into every PNG it makes without a resolution.
    expect(await dpiOf(await plain().png().toBuffer(), 'image/png')).toBeNull();
    const withoutPhys = await pngWithPhys(1, 1);
    const at = withoutPhys.indexOf('pHYs', 8, 'latin1') - 4;
    expect(await dpiOf(Buffer.concat([withoutPhys.subarray(0, at), withoutPhys.subarray(at + 21)]), 'image/png')).toBeNull();
  });

  it('JPEG: JFIF per inch or per cm; JFIF density units 0 (an aspect ratio) and no header at all are null', async () => {
    expect(await dpiOf(await jpegWithJfif(1, 200), 'image/jpeg')).toBe(200);
    expect(await dpiOf(await jpegWithJfif(2, 118), 'image/jpeg')).toBe(299.72);
    expect(await dpiOf(await jpegWithJfif(0, 1), 'image/jpeg')).toBeNull();
    // libvips reports 72 for this file: a default, not a recorded value.
    const bare = await plain().jpeg().toBuffer();
    expect((await sharp(bare).metadata()).density).toBe(72);
    expect(await dpiOf(bare, 'image/jpeg')).toBeNull();
  });

  it('JPEG: EXIF XResolution in its ResolutionUnit (inch, cm); unit 1 (none) is null', async () => {
    expect(await dpiOf(await jpegWithExif(exifBlock(240, 1, 2)), 'image/jpeg')).toBe(240);
    expect(await dpiOf(await jpegWithExif(exifBlock(100, 1, 3)), 'image/jpeg')).toBe(254);
    expect(await dpiOf(await jpegWithExif(exifBlock(300, 1, 1)), 'image/jpeg')).toBeNull();
  });

  it('WebP: its EXIF chunk; none is null', async () => {
    expect(await dpiOf(await plain().webp().withMetadata({ density: 240 }).toBuffer(), 'image/webp')).toBe(240);
    expect(await dpiOf(await plain().webp().toBuffer(), 'image/webp')).toBeNull();
  });

  it('TIFF fields (the EXIF reader): XResolution and ResolutionUnit of a TIFF file', async () => {
    // Uploads take no TIFF; its fields are those of an EXIF block. 11.811 px/mm is 300 dpi.
    const tiff = await plain().tiff({ xres: 11.811, yres: 11.811, resolutionUnit: 'inch' }).toBuffer();
    expect(exifResolution(tiff)).toBeCloseTo(300, 1);
    const perCm = await plain().tiff({ xres: 11.811, yres: 11.811, resolutionUnit: 'cm' }).toBuffer();
    expect(exifResolution(perCm)).toBeCloseTo(300, 1);
  });

  it('GIF and AVIF record none', async () => {
    expect(await dpiOf(await plain().gif().toBuffer(), 'image/gif')).toBeNull();
    expect(await dpiOf(await plain().avif().toBuffer(), 'image/avif')).toBeNull();
  });

  it('reads neither a truncated EXIF block nor a foreign APP0 segment', () => {
    expect(exifResolution(Buffer.from('Exif\0\0II*\0\x08\0\0\0\x05\0', 'latin1'))).toBeNull();
    expect(exifResolution(Buffer.from('not exif'))).toBeNull();
    expect(jfifResolution(Buffer.from('ffd8ffe00010414246580001020000c800c80000', 'hex'))).toBeNull();
  });
});
