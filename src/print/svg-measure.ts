/**
 * What preflight measures in an SVG's source, in the SVG's own user units after its transforms
 * (outlines keep no font size, so this reads the source): each run of text (font size, fill), each
 * stroke (width, colour) and each embedded PNG/JPEG (drawn width and its pixel width). Elements in
 * defs, clip paths, masks, patterns and markers are measured only where a `<use>` draws them.
 */
import { EMBEDDED_IMAGE } from './svg-text.js';
import {
  IDENTITY,
  lengthScale,
  multiply,
  ownValue,
  parseSvg,
  parseTransform,
  styleRules,
  userLength,
  type Matrix,
  type SvgElement,
} from './svg-tree.js';
import type { Rgb } from './types.js';

/** A paint: an opaque colour, or null for a gradient, pattern or anything else this cannot read. */
export type Paint = Rgb | null;

export interface SvgMeasures {
  /** The user-unit width the artwork's printed width stands for. */
  unitsWide: number;
  texts: { size: number; fill: Paint }[];
  strokes: { width: number; color: Paint }[];
  images: { width: number; pixelsWide: number }[];
}

const SHAPES = new Set(['path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon']);
const NOT_DRAWN = new Set([
  'defs', 'symbol', 'clipPath', 'mask', 'pattern', 'marker', 'metadata', 'title', 'desc', 'style', 'script',
  'linearGradient', 'radialGradient', 'filter',
]);
const MAX_USE_DEPTH = 8;
/** resvg's default font size. */
const DEFAULT_FONT_SIZE = 12;

const NAMED: Readonly<Record<string, Rgb>> = {
  black: [0, 0, 0],
  white: [255, 255, 255],
  red: [255, 0, 0],
  lime: [0, 255, 0],
  green: [0, 128, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
  cyan: [0, 255, 255],
  magenta: [255, 0, 255],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  silver: [192, 192, 192],
  navy: [0, 0, 128],
  maroon: [128, 0, 0],
  orange: [255, 165, 0],
};

/** A paint value: 'none' → undefined (nothing painted); a colour; null when it cannot be read. */
export function parsePaint(value: string): Paint | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'none' || v === 'transparent') return undefined;
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(v)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as unknown as Rgb;
  }
  const rgb = /^rgba?\(\s*([\d.]+)(%?)\s*,?\s*([\d.]+)(%?)\s*,?\s*([\d.]+)(%?)/.exec(v);
  if (rgb) {
    const channel = (n: string, percent: string) => Math.max(0, Math.min(255, Math.round(percent ? (Number(n) * 255) / 100 : Number(n))));
    return [channel(rgb[1]!, rgb[2]!), channel(rgb[3]!, rgb[4]!), channel(rgb[5]!, rgb[6]!)];
  }
  return NAMED[v] ?? null;
}

/** The pixel width of a PNG or JPEG, from its header; null when it cannot be read. */
export function pixelWidth(bytes: Buffer): number | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return bytes.readUInt32BE(16);
  let i = 2;
  while (bytes[0] === 0xff && bytes[1] === 0xd8 && i + 9 < bytes.length && bytes[i] === 0xff) {
    const marker = bytes[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return bytes.readUInt16BE(i + 7);
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  return null;
}

interface Inherited {
  ctm: Matrix;
  fontSize: number;
  fill: Paint | undefined;
  stroke: Paint | undefined;
  strokeWidth: number;
}

export function measureSvg(text: string): SvgMeasures | null {
  const root = parseSvg(text);
  if (!root) return null;
  const rules = styleRules(root);
  const ids = new Map<string, SvgElement>();
  const index = (element: SvgElement) => {
    if (element.attributes.id) ids.set(element.attributes.id, element);
    element.children.forEach(index);
  };
  index(root);
  const viewBox = (root.attributes.viewBox ?? '').split(/[\s,]+/).map(Number);
  const unitsWide = viewBox.length === 4 && viewBox[2]! > 0 ? viewBox[2]! : (userLength(root.attributes.width, 0) ?? 0);
  const measures: SvgMeasures = { unitsWide, texts: [], strokes: [], images: [] };

  const visit = (element: SvgElement, parent: Inherited, depth: number, viaUse: boolean) => {
    if (NOT_DRAWN.has(element.name) && !(viaUse && element.name === 'symbol')) return;
    const value = (property: string) => ownValue(element, rules, property);
    if (value('display') === 'none') return;
    const fontSize = userLength(value('font-size'), parent.fontSize) ?? parent.fontSize;
    const fillValue = value('fill');
    const strokeValue = value('stroke');
    const state: Inherited = {
      ctm: multiply(parent.ctm, parseTransform(element.name === 'svg' && element !== root ? undefined : element.attributes.transform)),
      fontSize,
      fill: fillValue === undefined ? parent.fill : parsePaint(fillValue),
      stroke: strokeValue === undefined ? parent.stroke : parsePaint(strokeValue),
      strokeWidth: userLength(value('stroke-width'), parent.strokeWidth) ?? parent.strokeWidth,
    };
    if (element.name === 'svg' && element !== root) {
      state.ctm = multiply(parent.ctm, [1, 0, 0, 1, userLength(element.attributes.x, 0) ?? 0, userLength(element.attributes.y, 0) ?? 0]);
    }
    const scale = lengthScale(state.ctm);
    if (
      (element.name === 'text' || element.name === 'tspan' || element.name === 'textPath') &&
      element.text.trim() &&
      state.fill !== undefined
    ) {
      measures.texts.push({ size: state.fontSize * scale, fill: state.fill });
    }
    if ((SHAPES.has(element.name) || element.name === 'text') && state.stroke !== undefined && state.strokeWidth > 0) {
      measures.strokes.push({ width: state.strokeWidth * scale, color: state.stroke });
    }
    if (element.name === 'image') {
      const href = element.attributes.href ?? element.attributes['xlink:href'] ?? '';
      const width = userLength(element.attributes.width, 0);
      const match = EMBEDDED_IMAGE.test(href) ? /;base64,(.*)$/s.exec(href.replace(/\s+/g, '')) : null;
      const pixels = match ? pixelWidth(Buffer.from(match[1]!.slice(0, 65536), 'base64')) : null;
      if (width && pixels) measures.images.push({ width: width * Math.hypot(state.ctm[0], state.ctm[1]), pixelsWide: pixels });
    }
    if (element.name === 'use' && depth < MAX_USE_DEPTH) {
      const target = ids.get((element.attributes.href ?? element.attributes['xlink:href'] ?? '').replace(/^#/, ''));
      const offset: Matrix = [1, 0, 0, 1, userLength(element.attributes.x, 0) ?? 0, userLength(element.attributes.y, 0) ?? 0];
      if (target) visit(target, { ...state, ctm: multiply(state.ctm, offset) }, depth + 1, true);
      return;
    }
    for (const child of element.children) visit(child, state, depth, false);
  };
  visit(root, { ctm: IDENTITY, fontSize: DEFAULT_FONT_SIZE, fill: [0, 0, 0], stroke: undefined, strokeWidth: 1 }, 0, false);
  return measures;
}
