/**
 * The preview PNG: the printed blank (background and artworks, clipped to each piece's bleed, from
 * the placement's layers) with the cut and crease lines over it, at `width` pixels across the
 * artboard. Each image is embedded as a copy downsampled to the size it shows at, so a 24-megapixel
 * photo costs a JPEG shrink-on-load, never a full decode. Images that cannot be read are left out,
 * and so are SVGs over the cost model (render/svg-filters.ts) that were stored before it refused them.
 * The whole picture is one SVG rasterised by libvips (librsvg): no external resource is loaded.
 * Where nothing prints the substrate shows (`substrate`); foil shows as its flat colour over the
 * print and spot UV as a light hatch (`effects`). The same drawing, painted as material values
 * instead of colours, gives a 3D model's metallic-roughness and relief maps (`paint`).
 * An SVG asset's text is outlined first, as in the print (svg-text.ts): librsvg never sees text,
 * so the machine's fonts play no part.
 */
import { LRUCache } from 'lru-cache';
import { boundsOf } from '../dielines/geometry.js';
import { formatNumber as n, pathData } from '../dielines/format.js';
import type { Bounds, DielinePathType } from '../dielines/index.js';
import { eyeMarks } from './containers.js';
import { EFFECT_PLATES, type Effect } from './effects.js';
import { gradientLine } from './background.js';
import type { FontFace } from './fonts.js';
import { downsampled, loadSharp } from './images.js';
import { boundedSvg } from '../render/svg-filters.js';
import { outlineSvg } from './svg-text.js';
import type { TextureAtlas } from './atlas.js';
import type { BackgroundPaint, PieceLayers, PlacedImage, Placement, PrintSurface, ResolvedAsset } from './types.js';

export const PREVIEW_MIN_WIDTH = 64;
export const PREVIEW_MAX_WIDTH = 2048;
export const PREVIEW_DEFAULT_WIDTH = 1024;
/** No embedded copy is larger than this on its longer side, whatever the placement's scale. */
const MAX_IMAGE_SIDE_PX = 4096;
/** The lines drawn over the print: colour, and dash and gap in line widths ×4. */
const LINES: Partial<Record<DielinePathType, { colour: string; dash?: [number, number] }>> = {
  cut: { colour: '#e4007c' },
  /** A wrap's folds over board edges (not creasing rules), as the SVG draws them. */
  fold: { colour: '#662d91', dash: [1.5, 1.5] },
  /** Containers' marked zones (seals, overlaps, shrink, neck and base, zipper). */
  zone: { colour: '#f7941d', dash: [2, 1] },
  crease: { colour: '#00a0e9', dash: [3, 1.5] },
};

const rgb = (c: readonly number[]) => `rgb(${c[0]},${c[1]},${c[2]})`;

/**
 * Downsampled copies by stored name, byte size and pixel size. A stored name never changes its
 * bytes, so a copy stays valid; the cache is bounded in entries and bytes.
 */
const SVG_MIME = 'image/svg+xml';
const copies = new LRUCache<string, string>({ max: 256, maxSize: 64 * 1024 * 1024, sizeCalculation: (href) => href.length });

/** Loads and downsamples each asset once, at the largest size any of its uses needs. */
class PreviewImages {
  constructor(private readonly fonts: readonly FontFace[]) {}
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
        const svg = asset.mimeType === SVG_MIME;
        // An SVG's text is outlined with the owner's fonts: its copy depends on which they are.
        const key = `${asset.name}:${asset.sizeBytes}:${width}x${height}${svg ? `:${this.fonts.map((face) => face.path).join('|')}` : ''}`;
        try {
          let href = copies.get(key);
          if (!href) {
            const bytes = await asset.load();
            // An SVG over the cost model (a file stored before the model refused it) is left out.
            const source = svg ? Buffer.from((await outlineSvg(boundedSvg(bytes), this.fonts)).svg) : bytes;
            const { data, mime } = await downsampled(source, width, height);
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
      `<linearGradient id="bg${index}" gradientUnits="userSpaceOnUse" x1="${n(x1)}" ` +
      `y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}">${stops}</linearGradient>` +
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
  /**
   * Draw the sheet into a texture atlas instead (src/print/atlas.ts): `sizePx` square, each cell its
   * region of the sheet at the atlas's density (turned when the cell is); `area` and the width are then unused.
   */
  atlas?: TextureAtlas;
  /** Draw the cut and crease lines over the print (default true). */
  dielineLines?: boolean;
  /** `png` (default), or `jpeg` at TEXTURE_JPEG_QUALITY: the sheet is opaque (on `substrate`, white when transparent). */
  encoding?: 'png' | 'jpeg';
  /** What shows where nothing prints: an sRGB colour, or null for a clear substrate (transparent). Default white. */
  substrate?: string | null;
  /** `preview`: foil flat, spot UV hatched over the print; `texture`: foil flat only (its gloss is the model's); `none`. */
  effects?: 'preview' | 'texture' | 'none';
  /** `color` (default); `surface`: the metallic-roughness map of `surface`; `relief`: emboss up, deboss down, as grey heights. */
  paint?: 'color' | 'surface' | 'relief';
  /** Ink without white under it on a clear substrate lets the substrate through: drawn at INK_ON_CLEAR_OPACITY. */
  translucentInk?: boolean;
  /** For `paint: surface`: the substrate's and finish's metallic and roughness outside the effects, 0–1. */
  surface?: { metallic: number; roughness: number };
}

/** Metallic and roughness inside an effect's mask on a model. */
export const EFFECT_SURFACES: Readonly<Partial<Record<Effect, { metallic: number | null; roughness: number }>>> = {
  'foil-gold': { metallic: 1, roughness: 0.2 },
  'foil-silver': { metallic: 1, roughness: 0.2 },
  // Varnish: the surface's own metal, much glossier.
  'spot-uv': { metallic: null, roughness: 0.08 },
};

/** How much of a clear film a print without a white underlay hides, as the preview shows it. */
export const INK_ON_CLEAR_OPACITY = 0.75;

const byte = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 255);
/** A metallic-roughness texel: glTF reads roughness from G and metallic from B. */
const surfaceColor = (metallic: number, roughness: number) => `rgb(0,${byte(roughness)},${byte(metallic)})`;

/** Filters that paint an image's alpha in one colour, by id. */
function flatFilters(colors: ReadonlyMap<string, string>): string {
  return [...colors]
    .map(
      ([id, color]) =>
        `<filter id="${id}" x="0" y="0" width="1" height="1"><feFlood flood-color="${color}"/>` +
          `<feComposite in2="SourceAlpha" operator="in"/></filter>`,
    )
    .join('');
}

/** How each placed image is painted in the mode: its own pixels, a flat filter over them, or nothing. */
function effectLayers(image: PlacedImage, options: PreviewOptions): { draw: boolean; overlay: string | null; hatch: boolean } {
  const paint = options.paint ?? 'color';
  const effect = image.effect;
  if (paint === 'surface') return { draw: false, overlay: effect && EFFECT_SURFACES[effect] ? `fx-surface-${effect}` : null, hatch: false };
  if (paint === 'relief') {
    return { draw: false, overlay: effect === 'emboss' || effect === 'deboss' ? `fx-relief-${effect}` : null, hatch: false };
  }
  const mode = options.effects ?? 'none';
  if (!effect || mode === 'none') return { draw: true, overlay: null, hatch: false };
  const foil = EFFECT_PLATES[effect].replacesInk;
  return { draw: !foil, overlay: foil ? `fx-color-${effect}` : null, hatch: effect === 'spot-uv' && mode === 'preview' };
}

/** A 3D texture's JPEG quality: 4:4:4 (no colour subsampling), so small print stays crisp. */
export const TEXTURE_JPEG_QUALITY = 85;

export async function renderPreviewPng(placement: Placement<PrintSurface>, widthPx: number, options: PreviewOptions = {}): Promise<Buffer> {
  const { dieline } = placement;
  const { atlas } = options;
  const board: Bounds = atlas
    ? { x: 0, y: 0, width: atlas.sizePx, height: atlas.sizePx }
    : typeof options.area === 'object'
      ? options.area
      : options.area === 'blank'
        ? { x: 0, y: 0, ...dieline.blank }
        : dieline.artboard;
  // Pixels per sheet millimetre.
  const k = atlas ? atlas.pxPerMm : widthPx / board.width;
  const heightPx = atlas ? atlas.sizePx : Math.max(1, Math.round(board.height * k));
  widthPx = atlas ? atlas.sizePx : Math.max(1, Math.round(widthPx));
  const images = new PreviewImages(placement.fonts ?? []);
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

  const paint = options.paint ?? 'color';
  const surface = options.surface ?? { metallic: 0, roughness: 1 };
  const base =
    paint === 'surface'
      ? surfaceColor(surface.metallic, surface.roughness)
      : paint === 'relief'
        ? 'rgb(128,128,128)'
        : options.substrate === undefined
          ? '#fff'
          : options.substrate;
  const filters = new Map<string, string>([
    ['fx-color-foil-gold', EFFECT_PLATES['foil-gold'].previewColor],
    ['fx-color-foil-silver', EFFECT_PLATES['foil-silver'].previewColor],
    ['fx-silhouette', '#fff'],
    ['fx-relief-emboss', '#fff'],
    ['fx-relief-deboss', '#000'],
  ]);
  for (const [effect, look] of Object.entries(EFFECT_SURFACES)) {
    filters.set(`fx-surface-${effect}`, surfaceColor(look.metallic ?? surface.metallic, look.roughness));
  }
  const boardRect = `x="${n(board.x)}" y="${n(board.y)}" width="${n(board.width)}" height="${n(board.height)}"`;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${heightPx}" ` +
      `viewBox="${n(board.x)} ${n(board.y)} ${n(board.width)} ${n(board.height)}" preserveAspectRatio="none">`,
    `<defs>${flatFilters(filters)}<pattern id="fx-hatch" width="1.5" height="1.5" patternUnits="userSpaceOnUse">` +
      `<path d="M0 1.5L1.5 0" stroke="${EFFECT_PLATES['spot-uv'].previewColor}" stroke-width="0.35"/></pattern></defs>`,
    base === null ? '' : `<rect ${boardRect} fill="${base}"/>`,
  ];
  const inkOpacity = options.translucentInk && paint === 'color' ? ` opacity="${INK_ON_CLEAR_OPACITY}"` : '';
  // The sheet's drawing; an atlas shows it once per cell.
  const sheet: string[] = [];
  placement.pieces.forEach((layers, index) => {
    sheet.push(
      `<clipPath id="clip${index}"><path d="${pathData(layers.bleed, true)}"/></clipPath><g clip-path="url(#clip${index})"${inkOpacity}>`,
    );
    if (layers.background && paint === 'color') sheet.push(backgroundSvg(layers, layers.background, index, images));
    layers.images.forEach((image, imageIndex) => {
      const href = images.href(image.asset);
      if (!href) return;
      const look = effectLayers(image, options);
      const box = `x="${n(-image.width / 2)}" y="${n(-image.height / 2)}" width="${n(image.width)}" height="${n(image.height)}"`;
      const placed = `${box} preserveAspectRatio="none" ` +
        `transform="translate(${n(image.center[0])} ${n(image.center[1])}) rotate(${n(image.rotationDeg)})" href="${href}"`;
      const tag =
        (look.draw ? `<image ${placed}/>` : '') +
        (look.overlay ? `<image ${placed} filter="url(#${look.overlay})"/>` : '') +
        (look.hatch
          ? `<mask id="uv${index}-${imageIndex}"><image ${placed} filter="url(#fx-silhouette)"/></mask>` +
            `<rect ${boardRect} fill="url(#fx-hatch)" mask="url(#uv${index}-${imageIndex})"/>`
          : '');
      if (!tag) return;
      const period = dieline.wrapWidth;
      if (!period) {
        sheet.push(tag);
        return;
      }
      // A wrapping label: the image again one period to either side (as often as its extent
      // needs), each copy a <use> of the one embedded image.
      const id = `img${index}-${imageIndex}`;
      const a = (image.rotationDeg * Math.PI) / 180;
      const halfSpan = (Math.abs(image.width * Math.cos(a)) + Math.abs(image.height * Math.sin(a))) / 2;
      const copies = Math.ceil(halfSpan / period);
      sheet.push(`<g id="${id}">${tag}</g>`);
      for (let k = -copies; k <= copies; k++) {
        if (k !== 0) sheet.push(`<use href="#${id}" transform="translate(${n(k * period)} 0)"/>`);
      }
    });
    if (paint === 'color') for (const mark of eyeMarks(dieline)) sheet.push(`<path d="${mark.d}" fill="#000"/>`);
    sheet.push('</g>');
  });
  const line = Math.max(0.25, 1 / k);
  for (const path of options.dielineLines === false ? [] : dieline.paths) {
    const style = LINES[path.type];
    if (!style) continue;
    const dash = style.dash ? ` stroke-dasharray="${n(style.dash[0] * line * 4)} ${n(style.dash[1] * line * 4)}"` : '';
    sheet.push(`<path d="${path.d}" fill="none" stroke="${style.colour}" stroke-width="${n(line)}"${dash}/>`);
  }
  if (atlas) parts.push(`<defs><g id="sheet">${sheet.join('')}</g></defs>`, ...atlas.cells.map(atlasCell(atlas)));
  else parts.push(...sheet);
  parts.push('</svg>');
  const sharp = await loadSharp();
  const raster = sharp(Buffer.from(parts.join('')), { limitInputPixels: false });
  return options.encoding === 'jpeg'
    ? raster.flatten({ background: base ?? '#ffffff' }).jpeg({ quality: TEXTURE_JPEG_QUALITY, chromaSubsampling: '4:4:4' }).toBuffer()
    : raster.png({ compressionLevel: 6 }).toBuffer();
}

/** Six decimals: a cell's scale and offset must hold to a fraction of a texel across a metre of sheet. */
const precise = (value: number) => (Math.round(value * 1e6) / 1e6).toString();

/** One atlas cell: the sheet drawn at the atlas's density, moved (and turned) so its region fills the cell. */
function atlasCell(atlas: TextureAtlas) {
  return (cell: TextureAtlas['cells'][number]): string => {
    const turn = cell.rotated ? `translate(${cell.width} 0) rotate(90) ` : '';
    return (
      `<svg x="${cell.x}" y="${cell.y}" width="${cell.width}" height="${cell.height}" viewBox="0 0 ${cell.width} ${cell.height}" ` +
      `overflow="hidden"><g transform="${turn}scale(${precise(atlas.pxPerMm)}) ` +
      `translate(${precise(-cell.source.x)} ${precise(-cell.source.y)})"><use href="#sheet"/></g></svg>`
    );
  };
}

export interface TextureLook {
  /** The unprinted colour (effects.ts substrateColor); null: clear, white in the JPEG. */
  substrate: string | null;
  /** Metallic and roughness of the printed surface outside any effect. */
  surface: { metallic: number; roughness: number };
  /**
   * Clear film without white ink: the print keeps its alpha (a PNG), transparent where nothing
   * prints and the ink at INK_ON_CLEAR_OPACITY, so the container shows through.
   */
  clear?: boolean;
}

/** A model's textures: the print, and where effects change the surface, its metallic-roughness and normal maps (PNG). */
export interface TextureMaps {
  baseColor: Buffer;
  metallicRoughness?: Buffer;
  normal?: Buffer;
}

/** How high an embossed mask stands in the normal map's height field, in texels of slope. */
const RELIEF_STRENGTH = 2;

/**
 * The sheet's textures (see renderTextureJpeg), with a metallic-roughness map when foil or spot UV
 * is on it and a normal map when emboss or deboss is: the same placement painted as material values.
 * With an `atlas` (a box) every map is that atlas, its cells where the model's UVs point.
 */
export async function renderTextureMaps(
  placement: Placement<PrintSurface>,
  sizePx: number,
  window: Bounds | undefined,
  look: TextureLook,
  atlas?: TextureAtlas,
): Promise<TextureMaps> {
  const { width, height } = window ?? placement.dieline.blank;
  const widthPx = atlas ? atlas.sizePx : width >= height ? sizePx : (sizePx * width) / height;
  const common: PreviewOptions = { area: window ?? 'blank', dielineLines: false, ...(atlas ? { atlas } : {}) };
  const effects = new Set(placement.pieces.flatMap((piece) => piece.images.map((image) => image.effect)));
  const maps: TextureMaps = {
    baseColor: await renderPreviewPng(
      placement,
      widthPx,
      look.clear
        ? { ...common, encoding: 'png', substrate: null, translucentInk: true, effects: 'texture' }
        : { ...common, encoding: 'jpeg', substrate: look.substrate, effects: 'texture' },
    ),
  };
  if (effects.has('foil-gold') || effects.has('foil-silver') || effects.has('spot-uv')) {
    maps.metallicRoughness = await renderPreviewPng(placement, widthPx, { ...common, paint: 'surface', surface: look.surface });
  }
  if (effects.has('emboss') || effects.has('deboss')) {
    maps.normal = await normalMap(await renderPreviewPng(placement, widthPx, { ...common, paint: 'relief' }));
  }
  return maps;
}

/** A tangent-space normal map (PNG) from a grey height field (PNG), softened so edges read as a bevel. */
async function normalMap(heights: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(heights).greyscale().blur(1.5).raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const at = (x: number, y: number) => data[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]! / 255;
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Central differences; the texture's v runs down the image, glTF's tangent space has +Y up.
      const dx = (at(x + 1, y) - at(x - 1, y)) * RELIEF_STRENGTH;
      const dy = (at(x, y - 1) - at(x, y + 1)) * RELIEF_STRENGTH;
      const length = Math.hypot(dx, dy, 1);
      const i = (y * width + x) * 3;
      out[i] = Math.round(((-dx / length) * 0.5 + 0.5) * 255);
      out[i + 1] = Math.round(((-dy / length) * 0.5 + 0.5) * 255);
      out[i + 2] = Math.round(((1 / length) * 0.5 + 0.5) * 255);
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 6 }).toBuffer();
}

/**
 * A 3D model's texture as a JPEG, no dieline lines: a box's printed blank drawn into its model's
 * `atlas`, or a container's label (`window`: only that region of the sheet), `sizePx` on its longer
 * side. The sheet is printed on white, so it never needs transparency.
 */
export function renderTextureJpeg(
  placement: Placement<PrintSurface>,
  sizePx: number,
  window?: Bounds,
  atlas?: TextureAtlas,
): Promise<Buffer> {
  const { width, height } = window ?? placement.dieline.blank;
  const widthPx = width >= height ? sizePx : (sizePx * width) / height;
  const area = window ?? 'blank';
  return renderPreviewPng(placement, widthPx, { area, dielineLines: false, encoding: 'jpeg', ...(atlas ? { atlas } : {}) });
}
