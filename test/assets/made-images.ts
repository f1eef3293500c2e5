// Images made at run time with sharp, for the metadata, thumbnail and bad-input tests.
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

const solid = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: channels === 4 ? { r: 200, g: 40, b: 40, alpha: 0.5 } : '#2a7' } });

export const jpeg = (width: number, height: number, options: { density?: number; orientation?: number } = {}) =>
  solid(width, height).withMetadata(options).jpeg().toBuffer();

export const png = (width: number, height: number, channels: 3 | 4 = 3, density?: number) =>
  (density ? solid(width, height, channels).withMetadata({ density }) : solid(width, height, channels)).png().toBuffer();

export const png16 = (width: number, height: number) => solid(width, height).toColourspace('rgb16').png().toBuffer();
export const grayPng = (width: number, height: number) => solid(width, height).toColourspace('b-w').png().toBuffer();
export const cmykJpeg = (width: number, height: number) => solid(width, height).toColourspace('cmyk').jpeg().toBuffer();
export const webp = (width: number, height: number) => solid(width, height, 4).webp().toBuffer();
export const avif = (width: number, height: number) => solid(width, height).avif().toBuffer();
export const gif = (width: number, height: number) => solid(width, height).gif().toBuffer();

/** An animated GIF: `frames` frames of width × height, each one solid colour (green, then redder). */
export function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const frameBytes = width * height * 3;
  const strip = Buffer.alloc(frameBytes * frames);
  for (let frame = 0; frame < frames; frame++) {
    const colour = [Math.min(255, 120 * frame), 255 - Math.min(255, 120 * frame), 0];
    for (let pixel = 0; pixel < width * height; pixel++) strip.set(colour, frame * frameBytes + pixel * 3);
  }
  return sharp(strip, { raw: { width, height: height * frames, channels: 3, pageHeight: height } }).gif({ loop: 0 }).toBuffer();
}

/** The first `fraction` of data. */
export const truncated = (data: Buffer, fraction = 0.5) => data.subarray(0, Math.max(1, Math.floor(data.length * fraction)));

/** A copy with `count` bytes from `at` (a fraction of the length) overwritten with 0xA5. */
export function corrupted(data: Buffer, at = 0.5, count = 64): Buffer {
  const copy = Buffer.from(data);
  const start = Math.floor(copy.length * at);
  copy.fill(0xa5, start, Math.min(copy.length, start + count));
  return copy;
}

/** A PNG whose IHDR declares width × height (CRC fixed, so only the size lies). */
export function pngDeclaring(data: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(data);
  // Signature (8) + length (4) + "IHDR" (4): width at 16, height at 20; CRC over type + data at 29.
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  copy.writeUInt32BE(crc32(copy.subarray(12, 29)), 29);
  return copy;
}
