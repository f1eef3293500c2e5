/**
 * SVG assets drawn as vector paths into the print PDF (never rasterised): resvg first normalises
 * the file (CSS resolved, `use` expanded, text converted to outlines, colours as #rrggbb), then
 * svg-to-pdfkit writes the paths. Colours go through the file's colour handling: in cmyk each
 * #rrggbb is converted with the condition's profile beforehand (the callback is synchronous), in
 * rgb they stay RGB under the page's DefaultRGB (sRGB). Raster images inside an SVG and links are
 * left out: an SVG may name files on this machine, and PDF/X forbids annotations.
 */
import type SVGtoPDFFunction from 'svg-to-pdfkit';
import type { PrintCondition } from './conditions.js';
import { rgbToCmyk } from './cmyk.js';
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
}

/** Prepared once per asset: the normalised SVG and, in cmyk, its palette. */
export interface PreparedSvg {
  svg: string;
  palette: Map<string, Cmyk> | null;
  draw: typeof SVGtoPDFFunction;
}

export async function prepareSvg(bytes: Buffer, target: SvgTarget): Promise<PreparedSvg> {
  const svg = await normaliseSvg(bytes);
  const { SVGtoPDF } = await loadModules();
  return { svg, palette: target.colorSpace === 'cmyk' ? await cmykPalette(svg, target.condition) : null, draw: SVGtoPDF };
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
    prepared.draw(doc as never, prepared.svg, 0, 0, {
      width,
      height,
      assumePt: true,
      imageCallback: () => '',
      documentCallback: () => '',
      warningCallback: () => undefined,
      ...(target.ink !== undefined
        ? {
            colorCallback: (color) => {
              if (!color) return color;
              return [target.ink, color[1] > 0 ? 1 : 0] as unknown as SVGtoPDFFunction.Color;
            },
          }
        : prepared.palette
        ? {
            colorCallback: (color) => {
              if (!color) return color;
              // svg-to-pdfkit passes pdfkit colours through; a CMYK array is one pdfkit accepts.
              const cmykColor = prepared.palette!.get(rgbKey(color[0])) ?? [0, 0, 0, 100];
              return [cmykColor, color[1]] as unknown as SVGtoPDFFunction.Color;
            },
          }
        : {}),
    });
  } finally {
    writable.ref = originalRef;
  }
  delete (doc.page as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary.data.Annots;
}
