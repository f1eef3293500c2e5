/**
 * SVG assets drawn as vector paths into the print PDF (never rasterised): resvg first normalises
 * the file (CSS resolved, `use` expanded, text converted to outlines, colours as #rrggbb), then
 * svg-to-pdfkit writes the paths. Colours go through the file's colour handling: in cmyk each
 * #rrggbb is converted with the condition's profile beforehand (the callback is synchronous), a
 * neutral one to K only; in rgb they stay RGB under the page's DefaultRGB (sRGB), neutral ones
 * DeviceGray (overprint.ts). Text keeps its role through the outlining (svg-paint-roles.ts), so
 * dark text overprints; with richBlack, large #000 fills are rich black in cmyk. Raster images
 * inside an SVG and links are left out: an SVG may name files on this machine, and PDF/X forbids
 * annotations.
 */
import type SVGtoPDFFunction from 'svg-to-pdfkit';
import type { PrintCondition } from './conditions.js';
import { RICH_BLACK, RICH_BLACK_MIN_AREA_MM2 } from './black.js';
import { rgbToCmyk } from './cmyk.js';
import { markText } from './overprint.js';
import { markPaintRoles, paintRole, tagTextElements } from './svg-paint-roles.js';
import type { Rgb } from './types.js';

type Cmyk = [number, number, number, number];

/**
 * The SVG with text as outlines and every colour as #rrggbb. The root keeps its viewBox but loses
 * its width and height, so the drawing fills the rectangle it is placed in.
 */
// Loaded on first use, like pdfkit: only print files with an SVG need them.
let modules: Promise<{ Resvg: typeof import('@resvg/resvg-js').Resvg; SVGtoPDF: typeof SVGtoPDFFunction }> | undefined;
const loadModules = () =>
  (modules ??= Promise.all([import('@resvg/resvg-js'), import('svg-to-pdfkit')]).then(([resvg, svgToPdf]) => ({ Resvg: resvg.Resvg, SVGtoPDF: svgToPdf.default })));

export async function normaliseSvg(bytes: Buffer): Promise<string> {
  const { Resvg } = await loadModules();
  const svg = new Resvg(bytes, { font: { loadSystemFonts: true }, imageRendering: 0 }).toString();
  return svg.replace(/<svg\b[^>]*>/, (root) => root.replace(/\s(?:width|height)="[^"]*"/g, ''));
}

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
}

/** Prepared once per asset: the normalised SVG (text paints marked) and, in cmyk, its palette. */
export interface PreparedSvg {
  svg: string;
  textIds: ReadonlySet<string>;
  palette: Map<string, Cmyk> | null;
  draw: typeof SVGtoPDFFunction;
}

export async function prepareSvg(bytes: Buffer, target: SvgTarget): Promise<PreparedSvg> {
  const tagged = tagTextElements(bytes.toString('utf8'));
  const normalised = await normaliseSvg(Buffer.from(tagged.svg));
  const { SVGtoPDF } = await loadModules();
  return {
    svg: markPaintRoles(normalised, tagged.textIds, null),
    textIds: tagged.textIds,
    palette: target.colorSpace === 'cmyk' ? await cmykPalette(normalised, target.condition) : null,
    draw: SVGtoPDF,
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

interface RefData {
  data: Record<string, unknown> & { Group?: Record<string, unknown>; Resources?: { data: Record<string, unknown> }; SMask?: Record<string, unknown> };
}

/**
 * Draws the SVG into the rectangle (0, 0, width, height) of the current user space (y down).
 * Transparency groups svg-to-pdfkit creates get the file's blending space (sRGB or DeviceCMYK) and,
 * in rgb, DefaultRGB in their resources, as the page has.
 */
export function drawSvg(doc: PDFKit.PDFDocument, prepared: PreparedSvg, width: number, height: number, target: SvgTarget): void {
  const cmyk = target.colorSpace === 'cmyk';
  const groupSpace = cmyk ? 'DeviceCMYK' : target.srgb;
  const writable = doc as unknown as { ref(data?: Record<string, unknown>): RefData };
  const originalRef = writable.ref;
  writable.ref = function (this: unknown, data?: Record<string, unknown>) {
    const ref = originalRef.call(doc, data);
    const dict = ref.data;
    if (dict.Group && dict.Group.CS === 'DeviceRGB') dict.Group.CS = groupSpace;
    if (dict.Resources && !cmyk && target.srgb) dict.Resources.data.ColorSpace = { DefaultRGB: target.srgb };
    const smask = dict.SMask as { BC?: number[] } | undefined;
    if (cmyk && smask?.BC?.length === 3) smask.BC = smask.BC[0] === 0 ? [0, 0, 0, 1] : [0, 0, 0, 0];
    return ref;
  };
  try {
    prepared.draw(doc as never, svgAtSize(prepared, width, height, target), 0, 0, {
      width,
      height,
      assumePt: true,
      imageCallback: () => '',
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
  }
  delete (doc.page as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary.data.Annots;
}
