// What a stored image is (pixel size, recorded resolution, colour space, transparency) and its
// thumbnail, read with sharp (libvips). It runs in a render child (src/render/, task
// `image.analyse`), never in the web process, within the analysis deadline.
// The pixel limit is checked from the header, before any pixel is decoded. A stored file on local
// disk is read by libvips itself from its path (no copy of it passes through JavaScript); other
// storage hands over its bytes. SVG is always handed over as bytes and rasterised by librsvg,
// which loads no external resource: a buffer input has no base URL (from a path, relative
// references would resolve to the files beside it), and librsvg refuses http(s) references.
import { open } from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { SVG_IMAGE } from './image-type.js';
import { exifResolution, jfifResolution, PNG_HEAD_BYTES, pngResolution } from './recorded-resolution.js';
import { lowerLibvipsWorkerPriority } from './worker-priority.js';

/** More pixels than this (width × height of one frame) is a decompression bomb. */
export const MAX_INPUT_PIXELS = 100_000_000;
/** The thumbnail's longer side at most; smaller images keep their size. */
export const THUMBNAIL_MAX_PX = 512;

export type ColorSpaceName = 'srgb' | 'cmyk' | 'gray' | 'other';

export interface ImageFacts {
  widthPx: number | null;
  heightPx: number | null;
  dpi: number | null;
  colorSpace: ColorSpaceName;
  hasAlpha: boolean;
}

export interface ImageAnalysis {
  facts: ImageFacts;
  /** WebP, EXIF orientation applied, first frame only. */
  thumbnail: Buffer;
}

/** The header declares more than MAX_INPUT_PIXELS. */
export class ImageTooLargeError extends Error {
  constructor() {
    super(`The image declares more than ${MAX_INPUT_PIXELS} pixels.`);
    this.name = 'ImageTooLargeError';
  }
}

/** libvips could not read the image: truncated, corrupt or not what its header claims. */
export class ImageUnreadableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The image could not be decoded.', options);
    this.name = 'ImageUnreadableError';
  }
}

// libvips holds decoded pixels; its operation cache would keep them after the request.
sharp.cache(false);

const COLOR_SPACES: Readonly<Record<string, ColorSpaceName>> = {
  srgb: 'srgb',
  rgb: 'srgb',
  rgb16: 'srgb',
  scrgb: 'srgb',
  cmyk: 'cmyk',
  'b-w': 'gray',
  grey16: 'gray',
};

const PIXEL_LIMIT_MESSAGE = /exceeds pixel limit/i;
/** sharp's words for a path input with no file behind it: a storage fault, not the client's image. */
const MISSING_FILE_MESSAGE = /^Input file is missing/;

/** The image's bytes, or the path of a local file holding them (never for SVG). */
export type ImageInput = Buffer | { path: string };

/**
 * Checks the header, then decodes once for the thumbnail (from thumbnailFrom when given). Throws ImageTooLargeError or
 * ImageUnreadableError. The work runs on libuv's thread pool of the render child that calls it.
 */
export async function analyseImage(input: ImageInput, mimeType: string, thumbnailFrom?: Buffer): Promise<ImageAnalysis> {
  if (!Buffer.isBuffer(input) && mimeType === SVG_IMAGE.mime) throw new Error('An SVG is analysed from its bytes, never from a path.');
  const options = {
    limitInputPixels: MAX_INPUT_PIXELS,
    // A truncated or corrupt file is refused, not thumbnailed half grey.
    failOn: 'warning',
    pages: 1,
  } as const;
  const image = sharp(Buffer.isBuffer(input) ? input : input.path, options);
  try {
    const metadata = await image.metadata();
    const { width, height } = metadata;
    if (width !== undefined && height !== undefined && width * height > MAX_INPUT_PIXELS) throw new ImageTooLargeError();
    // thumbnailFrom: the same picture prepared for rasterising (an SVG with its text outlined).
    const thumbnail = await (thumbnailFrom ? sharp(thumbnailFrom, options) : image)
      .rotate()
      .resize({ width: THUMBNAIL_MAX_PX, height: THUMBNAIL_MAX_PX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    const facts = factsOf(metadata, mimeType, await recordedDpi(input, metadata));
    // libvips decodes every GIF with an alpha channel: whether it is used shows in the pixels.
    if (facts.hasAlpha && metadata.format === 'gif') facts.hasAlpha = !(await sharp(thumbnail).stats()).isOpaque;
    return { facts, thumbnail };
  } catch (error) {
    if (error instanceof ImageTooLargeError) throw error;
    if (error instanceof Error && PIXEL_LIMIT_MESSAGE.test(error.message)) throw new ImageTooLargeError();
    if (!Buffer.isBuffer(input) && error instanceof Error && MISSING_FILE_MESSAGE.test(error.message)) throw error;
    throw new ImageUnreadableError({ cause: error });
  } finally {
    lowerLibvipsWorkerPriority();
  }
}

/**
 * The resolution the file records, never libvips' default (72 for a JPEG without one, pHYs
 * without a unit read as pixels per millimetre): PNG from its pHYs chunk; JPEG from its EXIF
 * block, else its JFIF header; WebP from its EXIF chunk; GIF and AVIF record none.
 */
async function recordedDpi(input: ImageInput, metadata: Metadata): Promise<number | null> {
  switch (metadata.format) {
    case 'png':
      return pngResolution(await leadingBytes(input, PNG_HEAD_BYTES));
    case 'jpeg':
      return exifResolution(metadata.exif) ?? jfifResolution(await leadingBytes(input, 18));
    case 'webp':
      return exifResolution(metadata.exif);
    default:
      return null;
  }
}

async function leadingBytes(input: ImageInput, count: number): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input.subarray(0, count);
  const file = await open(input.path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(count), 0, count, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

function factsOf(metadata: Metadata, mimeType: string, dpi: number | null): ImageFacts {
  // EXIF orientation 5–8 turns the image a quarter: the size is the one it is shown at.
  const oriented = metadata.autoOrient ?? { width: metadata.width, height: metadata.height };
  const isSvg = mimeType === SVG_IMAGE.mime;
  return {
    widthPx: positiveInteger(oriented.width),
    heightPx: positiveInteger(oriented.height),
    // For SVG libvips reports the density it rasterised at, not one the file records.
    dpi: isSvg || dpi === null ? null : Math.round(dpi * 100) / 100,
    colorSpace: COLOR_SPACES[metadata.space ?? ''] ?? 'other',
    hasAlpha: metadata.hasAlpha === true,
  };
}

const positiveInteger = (value: number | undefined) => (value !== undefined && value > 0 ? Math.round(value) : null);
