// What an uploaded font is, read from its own bytes: TrueType or OpenType (CFF) as it is, WOFF2
// decompressed to the font it holds (wawoff2); family, style and weight from its name and OS/2
// tables (fontkit). A collection, a font without a family name, or anything else is refused with
// the reason.
import { create as openFont, type Font as FontkitFont } from 'fontkit';
import { decompress as decompressWoff2 } from 'wawoff2';

export type FontFormat = 'truetype' | 'opentype';
export type FontStyle = 'normal' | 'italic' | 'oblique';

export interface FontFacts {
  family: string;
  style: FontStyle;
  /** OS/2 usWeightClass, 1–1000 (400 when the font has no OS/2 table). */
  weight: number;
  format: FontFormat;
}

export interface ReadFont extends FontFacts {
  /** The font as stored: a WOFF2 upload's decompressed TrueType or OpenType bytes. */
  bytes: Buffer;
}

/** Not a TrueType, OpenType or WOFF2 font (415). */
export class NotAFontError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Unsupported font file.', options);
    this.name = 'NotAFontError';
  }
}

/** A font this service cannot use, with the reason (422). */
export class UnusableFontError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnusableFontError';
  }
}

/** A WOFF2 whose font would be larger than this is refused before it is decompressed. */
export const MAX_DECOMPRESSED_FONT_BYTES = 64 * 1024 * 1024;
const SFNT_HEADER_BYTES = 12;
const WOFF2_HEADER_BYTES = 48;

const tag = (bytes: Buffer, at = 0) => bytes.toString('latin1', at, at + 4);

/** The sfnt kind of the first four bytes, or null when they start no font this service takes. */
function sfntFormat(bytes: Buffer): FontFormat | 'collection' | null {
  if (bytes.length < SFNT_HEADER_BYTES) return null;
  const magic = tag(bytes);
  if (magic === 'OTTO') return 'opentype';
  if (magic === 'true' || bytes.readUInt32BE(0) === 0x00010000) return 'truetype';
  if (magic === 'ttcf') return 'collection';
  return null;
}

export const FONT_COLLECTION_MESSAGE = 'The file is a font collection; upload each font of it on its own.';

/** The font inside a WOFF2, refusing one that would decompress beyond the bound. */
async function unwrapWoff2(bytes: Buffer): Promise<Buffer> {
  if (bytes.length < WOFF2_HEADER_BYTES) throw new NotAFontError();
  const flavor = tag(bytes, 4);
  if (flavor === 'ttcf') throw new UnusableFontError(FONT_COLLECTION_MESSAGE);
  if (flavor !== 'OTTO' && flavor !== 'true' && bytes.readUInt32BE(4) !== 0x00010000) throw new NotAFontError();
  const totalSfntSize = bytes.readUInt32BE(16);
  if (totalSfntSize > MAX_DECOMPRESSED_FONT_BYTES) {
    throw new UnusableFontError(`The WOFF2 font decompresses to more than ${MAX_DECOMPRESSED_FONT_BYTES} bytes.`);
  }
  try {
    return Buffer.from(await decompressWoff2(bytes));
  } catch (error) {
    throw new NotAFontError({ cause: error });
  }
}

function styleOf(font: FontkitFont): FontStyle {
  const selection = font['OS/2']?.fsSelection;
  if (selection?.oblique) return 'oblique';
  if (selection?.italic || font.italicAngle !== 0) return /oblique/i.test(font.subfamilyName ?? '') ? 'oblique' : 'italic';
  return 'normal';
}

function weightOf(font: FontkitFont): number {
  const weight = font['OS/2']?.usWeightClass;
  return typeof weight === 'number' && weight >= 1 && weight <= 1000 ? weight : 400;
}

/** Reads an uploaded font. Throws NotAFontError or UnusableFontError. */
export async function readFontFile(upload: Buffer): Promise<ReadFont> {
  const bytes = tag(upload) === 'wOF2' ? await unwrapWoff2(upload) : upload;
  const format = sfntFormat(bytes);
  if (format === 'collection') throw new UnusableFontError(FONT_COLLECTION_MESSAGE);
  if (!format) throw new NotAFontError();
  let font: FontkitFont;
  try {
    const opened = openFont(bytes);
    if (!('familyName' in opened)) throw new UnusableFontError(FONT_COLLECTION_MESSAGE);
    font = opened;
    // Reading the tables a renderer needs proves the directory points at real data.
    void font.numGlyphs;
    void font['OS/2'];
  } catch (error) {
    if (error instanceof UnusableFontError) throw error;
    throw new NotAFontError({ cause: error });
  }
  let family: string | null;
  try {
    family = font.familyName?.trim() || null;
  } catch (error) {
    throw new NotAFontError({ cause: error });
  }
  if (!family) throw new UnusableFontError('The font has no family name in its name table.');
  if (family.length > 200) throw new UnusableFontError('The font\'s family name is longer than 200 characters.');
  return { bytes, family, style: styleOf(font), weight: weightOf(font), format };
}
