/**
 * SVG assets drawn as vector paths into the print PDF (never rasterised): resvg first normalises
 * the file (CSS resolved, `use` expanded, text converted to outlines, colours as #rrggbb), then
 * svg-to-pdfkit writes the paths. Colours go through the file's colour handling: in cmyk each
 * #rrggbb is converted with the condition's profile beforehand (the callback is synchronous), a
 * neutral one to K only; in rgb they stay RGB under the page's DefaultRGB (sRGB), neutral ones
 * DeviceGray (overprint.ts). Text keeps its role through the outlining (svg-paint-roles.ts), so
 * dark text overprints; with richBlack, large #000 fills are rich black in cmyk. PNG and JPEG
 * images embedded in the SVG as data: URIs are placed as images, prepared like placed assets
 * (images.ts); every other image reference was dropped before resvg read the file (svg-text.ts),
 * and pdfkit's own image loading is replaced while the SVG draws, so no file the SVG names is ever
 * opened. Links are left out: PDF/X forbids annotations.
 */
import type SVGtoPDFFunction from 'svg-to-pdfkit';
import type { PrintCondition } from './conditions.js';
import { RICH_BLACK, RICH_BLACK_MIN_AREA_MM2 } from './black.js';
import { rgbToCmyk } from './cmyk.js';
import { markText } from './overprint.js';
import { markPaintRoles, paintRole, tagTextElements } from './svg-paint-roles.js';
import type { FontFace } from './fonts.js';
import { loadSharp, pdfImage, type ImageTarget, type PdfImageData } from './images.js';
import { outlineSvg } from './svg-text.js';
import type { Rgb } from './types.js';

type Cmyk = [number, number, number, number];

// Loaded on first use, like pdfkit: only print files with an SVG need it.
let svgToPdfModule: Promise<typeof SVGtoPDFFunction> | undefined;
const loadSvgToPdf = () => (svgToPdfModule ??= import('svg-to-pdfkit').then((module) => module.default));

const hexToRgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb;
const rgbKey = ([r, g, b]: readonly number[]) => `${r},${g},${b}`;

/** Every colour the normalised SVG uses, in the condition's CMYK. */
async function cmykPalette(svg: string, condition: PrintCondition): Promise<Map<string, Cmyk>> {
  const palette = new Map<string, Cmyk>();
  const colours = new Set(svg.match(/#[0-9a-f]{6}\b/gi) ?? []);
  colours.add('#000000').add('#ffffff');
  for (const hex of colours) {
    const rgb = hexToRgb(hex);
    palette.set(rgbKey(rgb), await rgbToCmyk(rgb, condition));
  }
  return palette;
}

export interface SvgTarget {
  colorSpace: 'rgb' | 'cmyk';
  condition: PrintCondition;
  /** `[/ICCBased sRGB]` of the document (rgb). */
  srgb: unknown[] | null;
  /**
   * One ink for every colour the SVG paints: a spot colour's name (an effect plate of its shapes)
   * or a process colour (the paper's, to knock out under foil). Unpainted stays unpainted.
   */
  ink?: string | number[];
  /** cmyk: #000 fills of at least RICH_BLACK_MIN_AREA_MM2 (placed) print as RICH_BLACK. */
  richBlack?: boolean;
  /** The owner's fonts; the bundled ones are always there. */
  fonts: readonly FontFace[];
  /** How images inside the SVG are prepared: as the file's other images. */
  images: ImageTarget;
}

/** Prepared once per asset: the normalised SVG (text paints marked) and, in cmyk, its palette. */
export interface PreparedSvg {
  svg: string;
  textIds: ReadonlySet<string>;
  palette: Map<string, Cmyk> | null;
  draw: typeof SVGtoPDFFunction;
  /** Embedded PNG and JPEG images by key, ready to embed. */
  images: Map<string, SvgImage>;
}

/** An image inside an SVG: its pixel size (upright) and its XObject data. */
export interface SvgImage {
  width: number;
  height: number;
  data: PdfImageData;
}

/** A pixel bound for images inside an SVG, as for uploads. */
const MAX_EMBEDDED_PIXELS = 100_000_000;

export async function prepareSvg(bytes: Buffer, target: SvgTarget): Promise<PreparedSvg> {
  // Text is tagged before resvg outlines it (the outlines keep the ids), so its paint keeps its role.
  const tagged = tagTextElements(bytes.toString('utf8'));
  // Text outlined by the owner's and the bundled fonts (svg-text.ts), every colour as #rrggbb. The
  // root keeps its viewBox but loses its width and height, so the drawing fills the rectangle it is placed in.
  const outlined = await outlineSvg(Buffer.from(tagged.svg), target.fonts);
  const normalised = outlined.svg.replace(/<svg\b[^>]*>/, (root) => root.replace(/\s(?:width|height)="[^"]*"/g, ''));
  return {
    svg: markPaintRoles(normalised, tagged.textIds, null),
    textIds: tagged.textIds,
    palette: target.colorSpace === 'cmyk' ? await cmykPalette(normalised, target.condition) : null,
    draw: await loadSvgToPdf(),
    images: await embeddedImages(normalised, target),
  };
}

/** The SVG to draw at `width` × `height` mm: with richBlack, its large #000 fills marked. */
function svgAtSize(prepared: PreparedSvg, width: number, height: number, target: SvgTarget): string {
  if (target.colorSpace !== 'cmyk' || !target.richBlack) return prepared.svg;
  const viewBox = /<svg\b[^>]*\sviewBox="([^"]*)"/.exec(prepared.svg)?.[1]?.split(/[\s,]+/).map(Number);
  if (!viewBox || viewBox.length !== 4 || !(viewBox[2]! > 0 && viewBox[3]! > 0)) return prepared.svg;
  // svg-to-pdfkit fits the viewBox into the rectangle keeping its aspect ratio (xMidYMid meet).
  const mmPerUnit = Math.min(width / viewBox[2]!, height / viewBox[3]!);
  return markPaintRoles(prepared.svg, prepared.textIds, RICH_BLACK_MIN_AREA_MM2 / (mmPerUnit * mmPerUnit));
}
/** The image's key: its href without whitespace (as svg-to-pdfkit hands it over). */
const imageKey = (href: string) => href.replace(/\s+/g, '');

/**
 * Every PNG or JPEG the normalised SVG embeds (svg-text.ts dropped every other href), prepared
 * as the file's other images are (images.ts: sRGB or the condition's CMYK), by key.
 */
async function embeddedImages(svg: string, target: SvgTarget): Promise<Map<string, SvgImage>> {
  const images = new Map<string, SvgImage>();
  for (const [, href] of svg.matchAll(/<image\b[^>]*?\s(?:xlink:)?href="([^"]*)"/g)) {
    const key = imageKey(href!);
    const match = /^data:image\/(png|jpe?g)(?:;[^,]*)?;base64,(.*)$/i.exec(key);
    if (!match || images.has(key)) continue;
    const bytes = Buffer.from(match[2]!, 'base64');
    try {
      const meta = await (await loadSharp())(bytes, { limitInputPixels: MAX_EMBEDDED_PIXELS }).metadata();
      const swap = (meta.orientation ?? 1) >= 5;
      const asset = {
        name: key.slice(0, 64),
        mimeType: match[1]!.toLowerCase() === 'png' ? 'image/png' : 'image/jpeg',
        widthPx: swap ? meta.height : meta.width,
        heightPx: swap ? meta.width : meta.height,
        sizeBytes: bytes.length,
        load: async () => bytes,
      };
      // Kept at full resolution: where it lands on the page is not known here.
      images.set(key, {
        width: asset.widthPx,
        height: asset.heightPx,
        data: await pdfImage(asset, bytes, target.images, Number.POSITIVE_INFINITY),
      });
    } catch {
      // Undecodable: drawn as nothing, like a broken image in a browser.
    }
  }
  return images;
}

interface RefData {
  data: Record<string, unknown> & {
    Group?: Record<string, unknown>;
    Resources?: { data: Record<string, unknown> };
    SMask?: Record<string, unknown>;
  };
}

/**
 * Draws the SVG into the rectangle (0, 0, width, height) of the current user space (y down).
 * Transparency groups svg-to-pdfkit creates get the file's blending space (sRGB or DeviceCMYK) and,
 * in rgb, DefaultRGB in their resources, as the page has.
 */
export function drawSvg(
  doc: PDFKit.PDFDocument,
  prepared: PreparedSvg,
  width: number,
  height: number,
  target: SvgTarget,
  /** The image's XObject and its name, embedded once per document by key. */
  embed: (key: string, image: PdfImageData) => { ref: PDFKit.PDFKitReference; label: string },
): void {
  const cmyk = target.colorSpace === 'cmyk';
  // svg-to-pdfkit opens images through pdfkit, which would read a file named by the SVG: here it
  // only ever gets the images prepared above, embedded once per document.
  const opener = doc as unknown as { openImage(src: unknown): unknown };
  const originalOpenImage = opener.openImage;
  opener.openImage = (src: unknown) => {
    const image = typeof src === 'string' ? prepared.images.get(src) : undefined;
    if (!image) throw new Error('Only images embedded in the SVG are drawn.');
    const embedded = embed(src as string, image.data);
    return { width: image.width, height: image.height, obj: embedded.ref, label: embedded.label, embed: () => undefined };
  };
  const groupSpace = cmyk ? 'DeviceCMYK' : target.srgb;
  const writable = doc as unknown as { ref(data?: Record<string, unknown>): RefData };
  const originalRef = writable.ref;
  writable.ref = function (this: unknown, data?: Record<string, unknown>) {
    const ref = originalRef.call(doc, data);
    const dict = ref.data;
    if (dict.Group && dict.Group.CS === 'DeviceRGB') dict.Group.CS = groupSpace;
    // A pattern's resources are a plain dictionary, a form's a reference to one.
    const resources = dict.Resources ? (dict.Resources.data ?? (dict.Resources as unknown as Record<string, unknown>)) : undefined;
    if (resources && !cmyk && target.srgb) resources.ColorSpace = { DefaultRGB: target.srgb };
    const smask = dict.SMask as { BC?: number[] } | undefined;
    if (cmyk && smask?.BC?.length === 3) smask.BC = smask.BC[0] === 0 ? [0, 0, 0, 1] : [0, 0, 0, 0];
    return ref;
  };
  try {
    prepared.draw(doc as never, svgAtSize(prepared, width, height, target), 0, 0, {
      width,
      height,
      assumePt: true,
      imageCallback: (href) => imageKey(href),
      documentCallback: () => '',
      warningCallback: () => undefined,
      // svg-to-pdfkit calls it with the colour as written too (its typings declare one argument).
      colorCallback: ((color: SVGtoPDFFunction.Color | undefined, raw?: string) => {
        if (!color) return color;
        if (target.ink !== undefined) return [target.ink, color[1] > 0 ? 1 : 0] as unknown as SVGtoPDFFunction.Color;
        const role = paintRole(raw);
        // svg-to-pdfkit passes pdfkit colours through; a CMYK array is one pdfkit accepts.
        let paint: readonly number[] = prepared.palette ? (prepared.palette.get(rgbKey(color[0])) ?? [0, 0, 0, 100]) : color[0];
        if (role === 'large-black' && prepared.palette && target.richBlack) paint = RICH_BLACK;
        if (role === 'text') paint = markText(paint);
        return [paint, color[1]] as unknown as SVGtoPDFFunction.Color;
      }) as (color: SVGtoPDFFunction.Color) => SVGtoPDFFunction.Color,
    });
  } finally {
    writable.ref = originalRef;
    opener.openImage = originalOpenImage;
  }
  delete (doc.page as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary.data.Annots;
}
