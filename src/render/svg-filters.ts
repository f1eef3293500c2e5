// How costly an SVG's filters are, read from its text before librsvg rasterises anything. The
// primitives whose cost grows with a parameter (a blur's deviation, a morphology's radius, a
// turbulence's octaves, a convolution's kernel) are capped in pixels of the SVG's own size (its
// user units times the root's width/viewBox scale), and a filtered SVG's raster is capped. A value
// this scan cannot read as a number is refused. Entities cannot hide a filter from it: an upload
// with an internal DTD subset is not taken for an SVG at all (image-type.ts). What still gets past
// (a scale set deep in a transform) is bounded by the render's deadline.

/** feGaussianBlur and feDropShadow stdDeviation, in pixels of the SVG's size. */
export const MAX_BLUR_PX = 100;
/** feMorphology radius, in pixels: its cost grows with the radius for every pixel. */
export const MAX_MORPHOLOGY_PX = 25;
export const MAX_TURBULENCE_OCTAVES = 4;
export const MAX_CONVOLVE_ORDER = 9;
/** Filter primitives in one document. */
export const MAX_FILTER_PRIMITIVES = 100;
/** An SVG that uses filters at all is at most this many pixels (4096 × 4096). */
const MAX_FILTERED_SIDE = 4096;
export const MAX_FILTERED_PIXELS = MAX_FILTERED_SIDE * MAX_FILTERED_SIDE;

/** The SVG's filters cost more than a render may spend; the message names the first reason. */
export class SvgTooCostlyError extends Error {
  constructor(readonly reason: string) {
    super(`The SVG's filters are too costly to render: ${reason}.`);
    this.name = 'SvgTooCostlyError';
  }
}

/** A start tag's attributes, quoted values holding `>` included. */
const ATTRIBUTES = `((?:[^>"']|"[^"]*"|'[^']*')*)`;
const PRIMITIVE = new RegExp(`<(?:[\\w.-]+:)?(fe[A-Z][A-Za-z]*)\\b${ATTRIBUTES}>`, 'g');
const ROOT = new RegExp(`<(?:[\\w.-]+:)?svg\\b${ATTRIBUTES}>`);
/** Units at libvips' default SVG density (72 dpi). */
const UNIT_PX: Readonly<Record<string, number>> = { '': 1, px: 1, pt: 1, pc: 12, in: 72, cm: 72 / 2.54, mm: 7.2 / 2.54 };

function attribute(attributes: string, name: string): string | null {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(["'])([\\s\\S]*?)\\1`).exec(attributes);
  return match ? match[2]!.trim() : null;
}

function numbers(value: string): number[] | null {
  const parts = value.split(/[\s,]+/).filter(Boolean);
  const parsed = parts.map(Number);
  return parsed.length > 0 && parsed.every(Number.isFinite) ? parsed : null;
}

function lengthPx(value: string | null): number | null {
  if (value === null) return null;
  const match = /^([0-9.eE+-]+)\s*([a-z]*)$/.exec(value);
  const factor = match ? UNIT_PX[match[2]!] : undefined;
  const number = match ? Number(match[1]) : NaN;
  return factor !== undefined && Number.isFinite(number) && number > 0 ? number * factor : null;
}

/** The root's size in pixels and the pixels per user unit (1 without a viewBox). */
function rootGeometry(text: string): { width: number; height: number; scale: number } {
  const attributes = ROOT.exec(text)?.[1] ?? '';
  const viewBox = numbers(attribute(attributes, 'viewBox') ?? '');
  const box = viewBox && viewBox.length === 4 && viewBox[2]! > 0 && viewBox[3]! > 0 ? { width: viewBox[2]!, height: viewBox[3]! } : null;
  const width = lengthPx(attribute(attributes, 'width')) ?? box?.width ?? 0;
  const height = lengthPx(attribute(attributes, 'height')) ?? box?.height ?? 0;
  const scale = box ? Math.max(width / box.width, height / box.height) : 1;
  return { width, height, scale };
}

function capped(name: string, parameter: string, values: number[] | null, max: number, unit: string, factor = 1): void {
  if (!values) throw new SvgTooCostlyError(`${name} ${parameter} is not a number`);
  const largest = Math.max(...values.map((value) => Math.abs(value) * factor));
  if (largest > max) throw new SvgTooCostlyError(`${name} ${parameter} is ${Math.round(largest)}${unit}, at most ${max}${unit} is rendered`);
}

/** Throws SvgTooCostlyError when the SVG's filters exceed the caps above; returns otherwise. */
export function assertSvgFiltersBounded(svg: Buffer | string): void {
  const text = typeof svg === 'string' ? svg : svg.toString('utf8');
  const primitives = [...text.matchAll(PRIMITIVE)];
  if (primitives.length === 0) return;
  if (primitives.length > MAX_FILTER_PRIMITIVES) {
    throw new SvgTooCostlyError(`${primitives.length} filter primitives, at most ${MAX_FILTER_PRIMITIVES} are rendered`);
  }
  const { width, height, scale } = rootGeometry(text);
  if (width * height > MAX_FILTERED_PIXELS) {
    throw new SvgTooCostlyError(`a filtered image of ${Math.round(width)} × ${Math.round(height)} px, at most ${MAX_FILTERED_SIDE} × ${MAX_FILTERED_SIDE} px is rendered with filters`);
  }
  for (const [, name, attributes] of primitives) {
    const value = (parameter: string) => attribute(attributes!, parameter);
    switch (name) {
      case 'feGaussianBlur':
      case 'feDropShadow': {
        const deviation = value('stdDeviation');
        if (deviation !== null) capped(name, 'stdDeviation', numbers(deviation), MAX_BLUR_PX, ' px', scale);
        break;
      }
      case 'feMorphology': {
        const radius = value('radius');
        if (radius !== null) capped(name, 'radius', numbers(radius), MAX_MORPHOLOGY_PX, ' px', scale);
        break;
      }
      case 'feTurbulence': {
        const octaves = value('numOctaves');
        if (octaves !== null) capped(name, 'numOctaves', numbers(octaves), MAX_TURBULENCE_OCTAVES, '');
        break;
      }
      case 'feConvolveMatrix': {
        const order = value('order');
        if (order !== null) capped(name, 'order', numbers(order), MAX_CONVOLVE_ORDER, '');
        break;
      }
    }
  }
}
