/**
 * The preview PNG: the printed blank (background and artworks, clipped to each piece's bleed, from
 * the placement's layers) with the cut and crease lines over it, at `width` pixels across the
 * artboard. Each image is embedded as a copy downsampled to the size it shows at, so a 24-megapixel
 * photo costs a JPEG shrink-on-load, never a full decode. Images that cannot be read are left out.
 * The whole picture is one SVG rasterised by libvips (librsvg): no external resource is loaded.
 */
import { boundsOf } from '../dielines/geometry.js';
import type { Bounds, Point } from '../dielines/index.js';
import { eyeMarks } from './containers.js';
import { createLruCache } from '../lib/lru-cache.js';
import { gradientLine } from './background.js';
import { downsampled, loadSharp } from './images.js';
import type { BackgroundPaint, PieceLayers, Placement, PrintSurface, ResolvedAsset } from './types.js';

export const PREVIEW_MIN_WIDTH = 64;
export const PREVIEW_MAX_WIDTH = 2048;
export const PREVIEW_DEFAULT_WIDTH = 1024;
/** No embedded copy is larger than this on its longer side, whatever the placement's scale. */
const MAX_IMAGE_SIDE_PX = 4096;
const CUT_COLOUR = '#e4007c';
const CREASE_COLOUR = '#00a0e9';
/** A wrap's folds over board edges (not creasing rules), as the SVG draws them. */
const FOLD_COLOUR = '#662d91';
/** Containers' marked zones (seals, overlaps, shrink, neck and base, zipper). */
const ZONE_COLOUR = '#f7941d';

const n = (value: number) => (Math.round(value * 1000) / 1000).toString();
const rgb = (c: readonly number[]) => `rgb(${c[0]},${c[1]},${c[2]})`;
const pathData = (points: readonly Point[], closed: boolean) =>
  points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${n(x)} ${n(y)}`).join('') + (closed ? 'Z' : '');

/**
 * Downsampled copies by stored name, byte size and pixel size. A stored name never changes its
 * bytes, so a copy stays valid; the cache is bounded in entries and bytes.
 */
const copies = createLruCache<string>({ maxEntries: 256, maxBytes: 64 * 1024 * 1024, sizeOf: (href) => href.length });

/** Loads and downsamples each asset once, at the largest size any of its uses needs. */
class PreviewImages {
  private readonly wanted = new Map<string, { asset: ResolvedAsset; width: number; height: number }>();
  private readonly ready = new Map<string, string | null>();

  want(asset: ResolvedAsset, widthPx: number, heightPx: number): void {
    const entry = this.wanted.get(asset.name) ?? { asset, width: 1, height: 1 };
    entry.width = Math.min(MAX_IMAGE_SIDE_PX, Math.max(entry.width, Math.ceil(widthPx)));
    entry.height = Math.min(MAX_IMAGE_SIDE_PX, Math.max(entry.height, Math.ceil(heightPx)));
    this.wanted.set(asset.name, entry);
  }

  /** Decodes in parallel on libvips' threads; a copy made for an earlier preview is reused. */
  async load(): Promise<void> {
    await Promise.all(
      [...this.wanted.values()].map(async ({ asset, width, height }) => {
        const key = `${asset.name}:${asset.sizeBytes}:${width}x${height}`;
        try {
          let href = copies.get(key);
          if (!href) {
            const { data, mime } = await downsampled(await asset.load(), width, height);
            href = `data:${mime};base64,${data.toString('base64')}`;
            copies.set(key, href);
          }
          this.ready.set(asset.name, href);
        } catch {
          this.ready.set(asset.name, null);
        }
      }),
    );
  }

  href(asset: ResolvedAsset): string | null {
    return this.ready.get(asset.name) ?? null;
  }
}

function backgroundSvg(layers: PieceLayers, background: BackgroundPaint, index: number, images: PreviewImages): string {
  const box = boundsOf(layers.bleed);
  const rect = `x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}"`;
  if (background.kind === 'color') return `<rect ${rect} fill="${rgb(background.color)}"/>`;
  if (background.kind === 'gradient') {
    const [[x1, y1], [x2, y2]] = gradientLine(background.angleDeg, box);
    const stops = background.stops.map((s) => `<stop offset="${n(s.offset)}" stop-color="${rgb(s.color)}"/>`).join('');
    return (
      `<linearGradient id="bg${index}" gradientUnits="userSpaceOnUse" x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}">${stops}</linearGradient>` +
      `<rect ${rect} fill="url(#bg${index})"/>`
    );
  }
  const href = images.href(background.asset);
  return href ? `<image ${rect} preserveAspectRatio="xMidYMid slice" href="${href}"/>` : '';
}

export interface PreviewOptions {
  /**
   * `artboard` (default): the blank with its margins; `blank`: exactly the cut blank, origin at its
   * corner (a 3D texture); or a region of the blank in mm (a container's texture window).
   */
  area?: 'artboard' | 'blank' | Bounds;
  /** Draw the cut and crease lines over the print (default true). */
  dielineLines?: boolean;
  /** `png` (default), or `jpeg` at TEXTURE_JPEG_QUALITY: the sheet is opaque (printed on white). */
  encoding?: 'png' | 'jpeg';
}

/** A 3D texture's JPEG quality: 4:4:4 (no colour subsampling), so small print stays crisp. */
export const TEXTURE_JPEG_QUALITY = 85;

export async function renderPreviewPng(placement: Placement<PrintSurface>, widthPx: number, options: PreviewOptions = {}): Promise<Buffer> {
  const { dieline } = placement;
  const board = typeof options.area === 'object' ? options.area : options.area === 'blank' ? { x: 0, y: 0, ...dieline.blank } : dieline.artboard;
  const k = widthPx / board.width;
  const heightPx = Math.max(1, Math.round(board.height * k));
  widthPx = Math.max(1, Math.round(widthPx));
  const images = new PreviewImages();
  for (const layers of placement.pieces) {
    if (layers.background?.kind === 'image') {
      const box = boundsOf(layers.bleed);
      const { asset } = layers.background;
      const cover = Math.max((box.width * k) / asset.widthPx, (box.height * k) / asset.heightPx);
      images.want(asset, asset.widthPx * cover, asset.heightPx * cover);
    }
    for (const image of layers.images) images.want(image.asset, image.width * k, image.height * k);
  }
  await images.load();

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${heightPx}" viewBox="${n(board.x)} ${n(board.y)} ${n(board.width)} ${n(board.height)}" preserveAspectRatio="none">`,
    `<rect x="${n(board.x)}" y="${n(board.y)}" width="${n(board.width)}" height="${n(board.height)}" fill="#fff"/>`,
  ];
  placement.pieces.forEach((layers, index) => {
    parts.push(`<clipPath id="clip${index}"><path d="${pathData(layers.bleed, true)}"/></clipPath><g clip-path="url(#clip${index})">`);
    if (layers.background) parts.push(backgroundSvg(layers, layers.background, index, images));
    layers.images.forEach((image, imageIndex) => {
      const href = images.href(image.asset);
      if (!href) return;
      const tag =
        `<image x="${n(-image.width / 2)}" y="${n(-image.height / 2)}" width="${n(image.width)}" height="${n(image.height)}" preserveAspectRatio="none" ` +
        `transform="translate(${n(image.center[0])} ${n(image.center[1])}) rotate(${n(image.rotationDeg)})" href="${href}"/>`;
      const period = dieline.wrapWidth;
      if (!period) {
        parts.push(tag);
        return;
      }
      // A wrapping label: the image again one period to either side (as often as its extent
      // needs), each copy a <use> of the one embedded image.
      const id = `img${index}-${imageIndex}`;
      const a = (image.rotationDeg * Math.PI) / 180;
      const halfSpan = (Math.abs(image.width * Math.cos(a)) + Math.abs(image.height * Math.sin(a))) / 2;
      const copies = Math.ceil(halfSpan / period);
      parts.push(`<g id="${id}">${tag}</g>`);
      for (let k = -copies; k <= copies; k++) {
        if (k !== 0) parts.push(`<use href="#${id}" transform="translate(${n(k * period)} 0)"/>`);
      }
    });
    for (const mark of eyeMarks(dieline)) parts.push(`<path d="${mark.d}" fill="#000"/>`);
    parts.push('</g>');
  });
  const line = Math.max(0.25, 1 / k);
  for (const path of options.dielineLines === false ? [] : dieline.paths) {
    if (path.type === 'cut') parts.push(`<path d="${path.d}" fill="none" stroke="${CUT_COLOUR}" stroke-width="${n(line)}"/>`);
    if (path.type === 'fold') {
      parts.push(`<path d="${path.d}" fill="none" stroke="${FOLD_COLOUR}" stroke-width="${n(line)}" stroke-dasharray="${n(1.5 * line * 4)} ${n(1.5 * line * 4)}"/>`);
    }
    if (path.type === 'zone') {
      parts.push(`<path d="${path.d}" fill="none" stroke="${ZONE_COLOUR}" stroke-width="${n(line)}" stroke-dasharray="${n(2 * line * 4)} ${n(line * 4)}"/>`);
    }
    if (path.type === 'crease') {
      parts.push(`<path d="${path.d}" fill="none" stroke="${CREASE_COLOUR}" stroke-width="${n(line)}" stroke-dasharray="${n(3 * line * 4)} ${n(1.5 * line * 4)}"/>`);
    }
  }
  parts.push('</svg>');
  const sharp = await loadSharp();
  const raster = sharp(Buffer.from(parts.join('')), { limitInputPixels: false });
  return options.encoding === 'jpeg'
    ? raster.flatten({ background: '#ffffff' }).jpeg({ quality: TEXTURE_JPEG_QUALITY, chromaSubsampling: '4:4:4' }).toBuffer()
    : raster.png({ compressionLevel: 6 }).toBuffer();
}

/**
 * A 3D model's texture: exactly the printed sheet (a box's cut blank, a container's label), no
 * margins or dieline lines, `sizePx` on its longer side, as a JPEG; `window`: only that region of the
 * sheet. The sheet is printed on white, so it never needs transparency (and no UV samples the blank's
 * margins).
 */
export function renderTextureJpeg(placement: Placement<PrintSurface>, sizePx: number, window?: Bounds): Promise<Buffer> {
  const { width, height } = window ?? placement.dieline.blank;
  const widthPx = width >= height ? sizePx : (sizePx * width) / height;
  return renderPreviewPng(placement, widthPx, { area: window ?? 'blank', dielineLines: false, encoding: 'jpeg' });
}
