// The resolution an image file records, read from its own fields: a PNG's pHYs chunk, a JPEG's
// JFIF header (APP0) and an EXIF block's TIFF fields (XResolution with ResolutionUnit). Never a default: a file that
// records no resolution, or only an aspect ratio (JFIF density units 0, EXIF unit 1), has none.
// Pure: bytes in, dots per inch (or null) out.

const CM_PER_INCH = 2.54;
const METRES_PER_INCH = 0.0254;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** pHYs comes before the first IDAT: the chunks ahead of it (a colour profile, text) rarely reach this. */
export const PNG_HEAD_BYTES = 256 * 1024;

/**
 * libvips (and so sharp) writes 1 pixel per millimetre into every PNG it makes without a
 * resolution: 25.4 dpi, a placeholder no design tool sets, so it counts as none.
 */
const LIBVIPS_PLACEHOLDER_PER_METRE = 1000;

/**
 * Dots per inch from a PNG's pHYs chunk, found in its leading bytes before IDAT: pixels per metre
 * (unit 1); unit 0 is an aspect ratio only.
 */
export function pngResolution(head: Buffer): number | null {
  if (!head.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  let offset = 8;
  while (offset + 8 <= head.length) {
    const length = head.readUInt32BE(offset);
    const type = head.toString('latin1', offset + 4, offset + 8);
    if (type === 'IDAT' || type === 'IEND') return null;
    if (type === 'pHYs') {
      if (length !== 9 || offset + 17 > head.length) return null;
      const perUnit = head.readUInt32BE(offset + 8);
      if (head[offset + 16] !== 1 || perUnit === 0 || perUnit === LIBVIPS_PLACEHOLDER_PER_METRE) return null;
      return perUnit * METRES_PER_INCH;
    }
    offset += 12 + length;
  }
  return null;
}

/** Dots per inch from a JFIF APP0 segment at the start of a JPEG (its first 18 bytes suffice). */
export function jfifResolution(head: Buffer): number | null {
  if (head.length < 18 || head.readUInt16BE(0) !== 0xffd8 || head.readUInt16BE(2) !== 0xffe0) return null;
  if (head.toString('latin1', 6, 11) !== 'JFIF\0') return null;
  const units = head[13];
  const density = head.readUInt16BE(14);
  if (density === 0) return null;
  if (units === 1) return density;
  if (units === 2) return density * CM_PER_INCH;
  return null; // 0: an aspect ratio only.
}

const TAG_X_RESOLUTION = 0x011a;
const TAG_RESOLUTION_UNIT = 0x0128;
const TYPE_SHORT = 3;
const TYPE_RATIONAL = 5;
const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');

/**
 * Dots per inch from an EXIF block (with or without its "Exif\0\0" prefix) or a TIFF file: IFD0's
 * XResolution in its ResolutionUnit.
 */
export function exifResolution(exif: Buffer | undefined): number | null {
  if (!exif) return null;
  const tiff = exif.subarray(0, EXIF_PREFIX.length).equals(EXIF_PREFIX) ? exif.subarray(EXIF_PREFIX.length) : exif;
  try {
    return tiffResolution(tiff);
  } catch (error) {
    // A truncated or inconsistent block records nothing we can read.
    if (error instanceof RangeError) return null;
    throw error;
  }
}

function tiffResolution(tiff: Buffer): number | null {
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const little = order === 'II';
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  const entries = u16(ifd);
  let resolution: number | null = null;
  // TIFF 6.0: ResolutionUnit defaults to 2 (inch) when absent.
  let unit = 2;
  for (let index = 0; index < entries; index++) {
    const entry = ifd + 2 + index * 12;
    const tag = u16(entry);
    const type = u16(entry + 2);
    if (tag === TAG_X_RESOLUTION && type === TYPE_RATIONAL) {
      const value = u32(entry + 8);
      const denominator = u32(value + 4);
      resolution = denominator === 0 ? null : u32(value) / denominator;
    } else if (tag === TAG_RESOLUTION_UNIT && type === TYPE_SHORT) {
      unit = u16(entry + 8);
    }
  }
  if (resolution === null || !(resolution > 0)) return null;
  if (unit === 2) return resolution;
  if (unit === 3) return resolution * CM_PER_INCH;
  return null; // 1: no absolute unit.
}
