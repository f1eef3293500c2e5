/**
 * Image preparation with sharp (libvips, off the event loop): the PDF's image XObject data at the
 * stored resolution, CMYK conversion with libvips' built-in CMYK profile, and downsampled copies
 * for the preview. Compression runs on the thread pool too (zlib's async deflate).
 */
import { promisify } from 'node:util';
import { deflate as deflateCallback } from 'node:zlib';
import type { Sharp } from 'sharp';
import type { ResolvedAsset, Rgb } from './types.js';

const deflate = promisify(deflateCallback);

// sharp (libvips) loads on first use: only print, preview and preflight need it.
let sharpModule: Promise<typeof import('sharp')['default']> | undefined;
export const loadSharp = () => (sharpModule ??= import('sharp').then((module) => module.default));

export type PrintColorSpace = 'rgb' | 'cmyk';

/** What an image XObject needs: dictionary values and the already-encoded stream. */
export interface PdfImageData {
  width: number;
  height: number;
  colorSpace: 'DeviceRGB' | 'DeviceCMYK' | 'DeviceGray';
  filter: 'DCTDecode' | 'FlateDecode';
  /** Adobe CMYK JPEGs are stored inverted. */
  decode?: number[];
  data: Buffer;
  /** The alpha channel as a Flate-encoded DeviceGray soft mask, when the image has one. */
  smask?: Buffer;
}

const CMYK_JPEG_QUALITY = 95;
const INVERTED_CMYK = [1, 0, 1, 0, 1, 0, 1, 0];

/** Never more than the upload limit's bound; sharp refuses bigger images before decoding. */
const LIMIT_INPUT_PIXELS = 100_000_000;

const open = async (bytes: Buffer) => (await loadSharp())(bytes, { limitInputPixels: LIMIT_INPUT_PIXELS, failOn: 'error' });

/** The image at its stored resolution, ready to embed. A baseline sRGB/grey JPEG goes in unchanged. */
export async function pdfImage(asset: ResolvedAsset, bytes: Buffer, colorSpace: PrintColorSpace): Promise<PdfImageData> {
  const meta = await (await open(bytes)).metadata();
  const oriented = (meta.orientation ?? 1) === 1;
  if (asset.mimeType === 'image/jpeg' && oriented && colorSpace === 'rgb' && (meta.channels === 3 || meta.channels === 1) && meta.space !== 'cmyk') {
    return {
      width: meta.width,
      height: meta.height,
      colorSpace: meta.channels === 1 ? 'DeviceGray' : 'DeviceRGB',
      filter: 'DCTDecode',
      data: bytes,
    };
  }
  const base = (await open(bytes)).rotate();
  const smask = meta.hasAlpha ? await alphaMask(base.clone()) : undefined;
  if (colorSpace === 'cmyk') {
    const { data, info } = await base
      .clone()
      .removeAlpha()
      .withIccProfile('cmyk')
      .jpeg({ quality: CMYK_JPEG_QUALITY, chromaSubsampling: '4:4:4' })
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, colorSpace: 'DeviceCMYK', filter: 'DCTDecode', decode: INVERTED_CMYK, data, ...(smask ? { smask } : {}) };
  }
  const { data, info } = await base.clone().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    colorSpace: 'DeviceRGB',
    filter: 'FlateDecode',
    data: await deflate(data),
    ...(smask ? { smask } : {}),
  };
}

async function alphaMask(image: Sharp): Promise<Buffer> {
  const alpha = await image.extractChannel('alpha').raw().toBuffer();
  return deflate(alpha);
}

/**
 * A copy of the image no larger than `maxWidth` × `maxHeight` pixels (never upscaled), upright,
 * as PNG when it has alpha, else JPEG. JPEG sources shrink on load, so the full image is never
 * decoded when a small copy is needed.
 */
export async function downsampled(bytes: Buffer, maxWidth: number, maxHeight: number): Promise<{ data: Buffer; mime: string }> {
  const image = (await open(bytes)).rotate().resize({
    width: Math.max(1, Math.round(maxWidth)),
    height: Math.max(1, Math.round(maxHeight)),
    fit: 'inside',
    withoutEnlargement: true,
  });
  const { hasAlpha } = await (await open(bytes)).metadata();
  if (hasAlpha) return { data: await image.png({ compressionLevel: 3 }).toBuffer(), mime: 'image/png' };
  return { data: await image.toColourspace('srgb').jpeg({ quality: 90 }).toBuffer(), mime: 'image/jpeg' };
}

/** An sRGB colour through the CMYK profile, as percentages for the PDF. */
export async function rgbToCmyk(color: Rgb): Promise<[number, number, number, number]> {
  const [r, g, b] = color;
  const sharp = await loadSharp();
  const data = await sharp({ create: { width: 1, height: 1, channels: 3, background: { r, g, b } } })
    .withIccProfile('cmyk')
    .raw()
    .toBuffer();
  return [0, 1, 2, 3].map((i) => Math.round((data[i]! / 255) * 1000) / 10) as [number, number, number, number];
}

let cmykProfile: Promise<Buffer> | undefined;

/** libvips' built-in CMYK profile, for the PDF's OutputIntent. */
export function cmykIccProfile(): Promise<Buffer> {
  cmykProfile ??= (async () => {
    const sharp = await loadSharp();
    const jpeg = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).withIccProfile('cmyk').jpeg().toBuffer();
    const { icc } = await sharp(jpeg).metadata();
    if (!icc) throw new Error('libvips has no built-in CMYK profile');
    return icc;
  })();
  return cmykProfile;
}
