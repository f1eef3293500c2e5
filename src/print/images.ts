/**
 * Image preparation with sharp (libvips, off the event loop): the PDF's image XObject data at the
 * stored resolution or converted to the printing condition's CMYK, and downsampled copies
 * for the preview. Compression runs on the thread pool too (zlib's async deflate). A conversion is
 * one libvips pipeline (decode, one ICC transform, encode) and is kept in the image cache
 * (image-cache.ts) when the print gives one.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { deflate as deflateCallback } from 'node:zlib';
import type { Sharp } from 'sharp';
import type { ImageCache } from './image-cache.js';
import type { ResolvedAsset } from './types.js';

const deflate = promisify(deflateCallback);

// sharp (libvips) loads on first use: only print, preview and preflight need it.
let sharpModule: Promise<typeof import('sharp')['default']> | undefined;
export const loadSharp = () => (sharpModule ??= import('sharp').then((module) => module.default));

export type PrintColorSpace = 'rgb' | 'cmyk';

import type { PdfImageData } from './types.js';
import { kept } from './memo.js';

export type { PdfImageData };

/** How images are prepared for one print file. */
export interface ImageTarget {
  colorSpace: PrintColorSpace;
  /** The condition's profile on disk (cmyk only). */
  cmykProfilePath?: string;
  /** JPEG quality of photographs converted to CMYK. */
  jpegQuality: number;
  /** Conversions made before, and where new ones are kept; without it every print converts. */
  cache?: ImageCache;
}

/** A converted image printed finer than this many pixels per inch is first resampled ... */
export const RESAMPLE_ABOVE_PPI = 450;
/** ... to this resolution (as prepress PDF/X presets do). Pass-through images keep their bytes. */
export const RESAMPLE_TO_PPI = 300;
export const CMYK_JPEG_QUALITY = 90;
const INVERTED_CMYK = [1, 0, 1, 0, 1, 0, 1, 0];

/** Never more than the upload limit's bound; sharp refuses bigger images before decoding. */
const LIMIT_INPUT_PIXELS = 100_000_000;

/** ignoreIcc: no transform from the profile the image carries to sRGB on load (the output transform starts from it). */
const open = async (bytes: Buffer, ignoreIcc = false) =>
  (await loadSharp())(bytes, { limitInputPixels: LIMIT_INPUT_PIXELS, failOn: 'error', ...(ignoreIcc ? { ignoreIcc } : {}) });

/**
 * What a conversion's output depends on besides its inputs: raise it when pdfImage converts the
 * same bytes to anything else, so entries of the image cache made before are no longer found.
 */
export const CONVERSION_VERSION = 1;
/** Smaller images convert in less time than their cache entry takes to write and read back. */
export const CACHED_FROM_PIXELS = 1_000_000;

/** True when a JPEG carries Adobe's APP14 marker: its CMYK samples are stored inverted. */
export function hasAdobeMarker(jpeg: Buffer): boolean {
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff) {
    const marker = jpeg[i + 1]!;
    if (marker === 0xda || marker === 0xd9) return false;
    const length = jpeg.readUInt16BE(i + 2);
    if (marker === 0xee && jpeg.toString('latin1', i + 4, i + 9) === 'Adobe') return true;
    i += 2 + length;
  }
  return false;
}

const ICC_HEADER_BYTES = 128;
/** Profile classes an RGB image may carry into a PDF/X-4 file: input, display, colour space. */
const EMBEDDABLE_PROFILE_CLASSES = new Set(['scnr', 'mntr', 'spac']);

/**
 * True when `profile` is a well-formed ICC profile (version 2 to 4) for RGB data that PDF/X-4
 * accepts as an ICC-based colour space.
 */
export function isEmbeddableRgbProfile(profile: Buffer): boolean {
  if (profile.length < ICC_HEADER_BYTES + 4 || profile.readUInt32BE(0) !== profile.length) return false;
  const text = (start: number) => profile.toString('latin1', start, start + 4);
  const major = profile[8]!;
  return (
    text(36) === 'acsp' &&
    major >= 2 &&
    major <= 4 &&
    EMBEDDABLE_PROFILE_CLASSES.has(text(12)) &&
    text(16) === 'RGB ' &&
    (text(20) === 'XYZ ' || text(20) === 'Lab ')
  );
}

/** The pixel width to embed a converted image at, given the widest it is printed (mm). */
export function convertedWidth(widthPx: number, printedWidthMm: number): number {
  const ppi = widthPx / (printedWidthMm / 25.4);
  if (!(ppi > RESAMPLE_ABOVE_PPI)) return widthPx;
  return Math.max(1, Math.round((RESAMPLE_TO_PPI * printedWidthMm) / 25.4));
}

/**
 * The image ready to embed. Passed through byte for byte: an upright baseline JPEG in RGB (rgb:
 * tagged with the profile it carries, sRGB when it carries none) or grey, and a CMYK JPEG in either
 * colour space. Everything else is decoded once, from the profile it carries (sRGB when none): to
 * sRGB (Flate), or through the condition's profile to CMYK (JPEG sources as one DCT stream at
 * `jpegQuality`, flat graphics Flate), resampled when printed finer than RESAMPLE_ABOVE_PPI; with
 * `target.cache`, a conversion made before is read from it instead.
 */
export async function pdfImage(asset: ResolvedAsset, bytes: Buffer, target: ImageTarget, printedWidthMm: number): Promise<PdfImageData> {
  const meta = await (await open(bytes)).metadata();
  const oriented = (meta.orientation ?? 1) === 1;
  const jpeg = asset.mimeType === 'image/jpeg' && meta.format === 'jpeg';
  if (jpeg && oriented) {
    if (meta.space === 'cmyk' && meta.channels === 4) {
      return {
        width: meta.width,
        height: meta.height,
        colorSpace: 'DeviceCMYK',
        filter: 'DCTDecode',
        data: bytes,
        ...(hasAdobeMarker(bytes) ? { decode: INVERTED_CMYK } : {}),
      };
    }
    const passed = { width: meta.width, height: meta.height, filter: 'DCTDecode', data: bytes } as const;
    if (meta.channels === 1) return { ...passed, colorSpace: 'DeviceGray' };
    if (target.colorSpace === 'rgb' && meta.channels === 3) {
      // Its numbers mean colours only in the profile it carries; with one PDF/X cannot hold, it is converted below.
      if (!meta.icc) return { ...passed, colorSpace: 'sRGB' };
      if (isEmbeddableRgbProfile(meta.icc)) return { ...passed, colorSpace: { icc: meta.icc } };
    }
  }
  const width = target.colorSpace === 'cmyk' ? convertedWidth(asset.widthPx, printedWidthMm) : asset.widthPx;
  const key = target.cache && meta.width * meta.height >= CACHED_FROM_PIXELS ? await conversionKey(asset, bytes, target, width) : null;
  const cached = key ? await target.cache!.get(key) : null;
  if (cached) return cached;
  const rgb8 = meta.space === 'srgb' && meta.depth === 'uchar';
  const direct = target.colorSpace === 'cmyk' && rgb8 && (!meta.icc || isEmbeddableRgbProfile(meta.icc));
  const converted = await convert({ asset, bytes, hasAlpha: meta.hasAlpha, jpeg }, target, width, direct);
  if (key) await target.cache!.put(key, converted);
  return converted;
}

/**
 * One pipeline from the file to the stream. To CMYK, `direct` makes it one ICC transform, from the
 * image's own profile (sRGB when none, or when lcms cannot read it) straight to the condition's;
 * otherwise the image is read into sRGB first, as sharp does by default. The CMYK JPEG's Huffman
 * tables are the standard ones: optimising them costs about as much as decoding and separating the
 * photo together, for files about 3 % smaller.
 */
async function convert(
  source: { asset: ResolvedAsset; bytes: Buffer; hasAlpha: boolean; jpeg: boolean },
  target: ImageTarget,
  width: number,
  direct: boolean,
): Promise<PdfImageData> {
  let base = (await open(source.bytes, direct)).rotate();
  if (width < source.asset.widthPx) base = base.resize({ width });
  const smask = source.hasAlpha ? await alphaMask(base.clone()) : undefined;
  if (target.colorSpace === 'cmyk') {
    const cmyk = base.clone().removeAlpha().withIccProfile(target.cmykProfilePath!, { attach: false });
    const encoded = source.jpeg
      ? cmyk.jpeg({ quality: target.jpegQuality, chromaSubsampling: '4:4:4', optimiseCoding: false })
      : cmyk.raw();
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const common = { width: info.width, height: info.height, colorSpace: 'DeviceCMYK', ...(smask ? { smask } : {}) } as const;
    if (source.jpeg) return { ...common, filter: 'DCTDecode', decode: INVERTED_CMYK, data };
    return { ...common, filter: 'FlateDecode', data: await deflate(data) };
  }
  const { data, info } = await base.clone().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    colorSpace: 'sRGB',
    filter: 'FlateDecode',
    data: await deflate(data),
    ...(smask ? { smask } : {}),
  };
}

const profileDigests = new Map<string, Promise<string>>();
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The image cache's key of a conversion: the file's digest and everything its output depends on. */
async function conversionKey(asset: ResolvedAsset, bytes: Buffer, target: ImageTarget, width: number): Promise<string> {
  const { versions } = await loadSharp();
  let profile = 'srgb';
  if (target.colorSpace === 'cmyk') {
    const file = target.cmykProfilePath!;
    profile = await kept(profileDigests, file, () => readFile(file).then(sha256));
  }
  const conversion = [CONVERSION_VERSION, versions.vips, versions.lcms ?? null];
  return sha256(JSON.stringify([...conversion, sha256(bytes), asset.mimeType, target.colorSpace, profile, width, target.jpegQuality]));
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
