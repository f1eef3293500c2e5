/**
 * Where a piece carries ink, as 1-bit masks the PDF paints in a spot colour: a raster artwork's
 * own mask (alpha ≥ 50 %) for its effect plate, and a piece's inked area, choked, for the White
 * plate. Vector artworks' effect plates stay vector (svg.ts draws them in the plate's ink, the
 * images inside them as stencils of their alpha); only the White plate, which needs a choke no
 * vector offset does reliably, is rasterised, by libvips, at up to WHITE_MASK_PX_PER_MM.
 */
import { deflateSync } from 'node:zlib';
import { boundsOf } from '../dielines/geometry.js';
import { formatNumber as n, pathData } from '../dielines/format.js';
import type { Bounds, Point } from '../dielines/index.js';
import { downsampled, loadSharp } from './images.js';
import type { PieceLayers, PlacedImage, ResolvedAsset } from './types.js';
import { withinCostModel } from '../render/svg-filters.js';

const SVG_MIME = 'image/svg+xml';

/** A binary mask, one byte a pixel (0 or 1), rows top to bottom. */
export interface BitMask {
  width: number;
  height: number;
  bits: Uint8Array;
}

/** The White plate's resolution: 0.1 mm a pixel, coarser only for pieces over MAX_MASK_PIXELS. */
export const WHITE_MASK_PX_PER_MM = 10;
const MAX_MASK_PIXELS = 16_000_000;
/** A raster effect plate follows its artwork to about 600 dpi, never beyond its own pixels. */
const EFFECT_MASK_PX_PER_MM = 24;
const MAX_EFFECT_MASK_SIDE = 8192;
const ALPHA_THRESHOLD = 128;

/** The raster artwork's own mask, at the resolution it prints at; null when it has no alpha (all of it paints). */
export async function rasterArtworkMask(asset: ResolvedAsset, printedWidthMm: number): Promise<BitMask | null> {
  const sharp = await loadSharp();
  const bytes = await asset.load();
  const { hasAlpha } = await sharp(bytes, { limitInputPixels: false }).metadata();
  if (!hasAlpha) return null;
  const scale = Math.min(
    1,
    (printedWidthMm * EFFECT_MASK_PX_PER_MM) / asset.widthPx,
    MAX_EFFECT_MASK_SIDE / Math.max(asset.widthPx, asset.heightPx),
  );
  const width = Math.max(1, Math.round(asset.widthPx * scale));
  const height = Math.max(1, Math.round(asset.heightPx * scale));
  const alpha = await sharp(bytes, { limitInputPixels: false })
    .rotate()
    .resize({ width, height, fit: 'fill' })
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer();
  return { width, height, bits: alphaBits(alpha) };
}

/** An 8-bit alpha channel as a mask: 1 where it is at least 50 %. */
export function alphaBits(alpha: Uint8Array): Uint8Array {
  const bits = new Uint8Array(alpha.length);
  for (let i = 0; i < alpha.length; i++) bits[i] = alpha[i]! >= ALPHA_THRESHOLD ? 1 : 0;
  return bits;
}

export interface PieceMask extends BitMask {
  /** The rectangle of the blank the mask covers, mm. */
  window: Bounds;
  pxPerMm: number;
}

/**
 * Where the piece carries ink: its background and the artworks `inked` keeps, inside its bleed
 * outline and outside `holes` (glue areas that stay blank), choked by `chokeMm`.
 */
export async function inkedAreaMask(
  layers: PieceLayers,
  inked: (image: PlacedImage) => boolean,
  holes: readonly Point[][],
  chokeMm: number,
): Promise<PieceMask> {
  const window = boundsOf(layers.bleed);
  const pxPerMm = Math.min(WHITE_MASK_PX_PER_MM, Math.sqrt(MAX_MASK_PIXELS / (window.width * window.height)));
  const width = Math.max(1, Math.round(window.width * pxPerMm));
  const height = Math.max(1, Math.round(window.height * pxPerMm));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="${n(window.x)} ${n(window.y)} ${n(window.width)} ${n(window.height)}" preserveAspectRatio="none">`,
    `<clipPath id="piece"><path clip-rule="evenodd" ` +
      `d="${pathData(layers.bleed, true)}${holes.map((hole) => pathData(hole, true)).join('')}"/></clipPath><g clip-path="url(#piece)">`,
  ];
  if (layers.background) {
    parts.push(`<rect x="${n(window.x)}" y="${n(window.y)}" width="${n(window.width)}" height="${n(window.height)}" fill="#000"/>`);
  }
  const sharp = await loadSharp();
  for (const image of layers.images.filter(inked)) {
    const loaded = await image.asset.load();
    // An SVG over the cost model is left out of the print, so out of the White plate too.
    const bytes = image.asset.mimeType === SVG_MIME ? withinCostModel(loaded) : loaded;
    if (!bytes) continue;
    const box = `x="${n(-image.width / 2)}" y="${n(-image.height / 2)}" width="${n(image.width)}" height="${n(image.height)}"`;
    const transform = `transform="translate(${n(image.center[0])} ${n(image.center[1])}) rotate(${n(image.rotationDeg)})"`;
    // An image without alpha inks its whole rectangle: no need to decode it.
    if (!(await sharp(bytes, { limitInputPixels: false }).metadata()).hasAlpha) {
      parts.push(`<rect ${box} ${transform} fill="#000"/>`);
      continue;
    }
    const { data, mime } = await downsampled(bytes, image.width * pxPerMm, image.height * pxPerMm);
    parts.push(`<image ${box} preserveAspectRatio="none" ${transform} href="data:${mime};base64,${data.toString('base64')}"/>`);
  }
  parts.push('</g></svg>');
  const alpha = await sharp(Buffer.from(parts.join('')), { limitInputPixels: false })
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer();
  const radius = Math.max(chokeMm > 0 ? 1 : 0, Math.round(chokeMm * pxPerMm));
  return { window, pxPerMm, width, height, bits: erode(alphaBits(alpha), width, height, radius) };
}

/** Binary erosion by a (2r+1)² square, as two separable passes; outside the image counts as empty. */
export function erode(bits: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return bits;
  const pass = (source: Uint8Array, horizontal: boolean): Uint8Array => {
    const out = new Uint8Array(source.length);
    const [lines, length] = horizontal ? [height, width] : [width, height];
    const index = (line: number, i: number) => (horizontal ? line * width + i : i * width + line);
    for (let line = 0; line < lines; line++) {
      // Length of the run of set pixels ending at i: a pixel survives when the run through it spans 2r+1.
      let run = 0;
      const runs = new Int32Array(length);
      for (let i = 0; i < length; i++) {
        run = source[index(line, i)] ? run + 1 : 0;
        runs[i] = run;
      }
      for (let i = radius; i < length - radius; i++) if (runs[i + radius]! >= 2 * radius + 1) out[index(line, i)] = 1;
    }
    return out;
  };
  return pass(pass(bits, true), false);
}

/** Binary dilation by a (2r+1)² square, as two separable passes. */
export function dilate(bits: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return bits;
  const pass = (source: Uint8Array, horizontal: boolean): Uint8Array => {
    const out = new Uint8Array(source.length);
    const [lines, length] = horizontal ? [height, width] : [width, height];
    const index = (line: number, i: number) => (horizontal ? line * width + i : i * width + line);
    for (let line = 0; line < lines; line++) {
      // Distance to the nearest set pixel behind, then ahead; within r either way sets the pixel.
      let last = -Infinity;
      for (let i = 0; i < length; i++) {
        if (source[index(line, i)]) last = i;
        if (i - last <= radius) out[index(line, i)] = 1;
      }
      let next = Infinity;
      for (let i = length - 1; i >= 0; i--) {
        if (source[index(line, i)]) next = i;
        if (next - i <= radius) out[index(line, i)] = 1;
      }
    }
    return out;
  };
  return pass(pass(bits, true), false);
}

/** True when the mask has no set pixel. */
export function isEmpty(mask: BitMask): boolean {
  return !mask.bits.some((bit) => bit === 1);
}

/**
 * The mask as a PDF stencil (`/ImageMask true`): painted in the current fill colour where a bit is
 * set. Rows are packed to whole bytes, a 0 sample marks paint (the default Decode [0 1]).
 */
export function stencilXObject(doc: PDFKit.PDFDocument, mask: BitMask): PDFKit.PDFKitReference {
  const rowBytes = Math.ceil(mask.width / 8);
  const packed = Buffer.alloc(rowBytes * mask.height, 0xff);
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      if (mask.bits[y * mask.width + x]) packed[y * rowBytes + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
  }
  const ref = doc.ref({
    Type: 'XObject',
    Subtype: 'Image',
    Width: mask.width,
    Height: mask.height,
    ImageMask: true,
    BitsPerComponent: 1,
    Filter: 'FlateDecode',
  });
  ref.end(deflateSync(packed));
  return ref;
}
