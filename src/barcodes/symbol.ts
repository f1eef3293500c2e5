/**
 * The symbol as an SVG sized in millimetres. bwip-js (BWIPP) encodes the data and lays out the
 * bars, modules and human-readable digits (as outlined glyph paths of its bundled OCR-B); this
 * module only measures and finishes its drawing: the viewBox set to the GS1 nominal size with the
 * quiet zones, every bar a filled rectangle narrowed by the bar width reduction (2D symbols: every
 * dark region's outline moved inwards by half of it), and the ITF-14 bearer frame drawn around the
 * quiet zones. The result has filled black paths only: no strokes, no text, no background.
 */
import bwipjs from 'bwip-js';
import { BarcodeInputError, type BarcodeFacts, type BarcodeSpec, type BarcodeType } from './types.js';

/** bwip-js units per module of a linear symbol (BWIPP draws one module per point at scale 1). */
const LINEAR_SCALE = 10;
/** bwip-js units per module of a 2D symbol at scale 1 (BWIPP draws matrix modules two points wide). */
const MATRIX_UNITS_PER_MODULE = 2;
/** Points per millimetre: bwip-js takes the bar height in mm and draws it in points × scale. */
const POINTS_PER_MM = 72 / 25.4;

interface LinearLayout {
  bcid: string;
  /** Quiet zones left and right, in modules. */
  quiet: [number, number];
  /** Height of the (normal) bars, in modules. */
  barHeight: number;
  /** The whole symbol's height with the human-readable line, in modules; without it, bars + guard extension. */
  height: number;
  heightWithoutText: number;
  /** ITF-14: the bearer frame's thickness, in modules. */
  bearer?: number;
}

/**
 * GS1 nominal sizes in modules (GS1 General Specifications §5.2 and §5.3; EAN/UPC at X = 0.33 mm:
 * EAN-13 and UPC-A 37.29 × 25.93 mm with bars 22.85 mm, EAN-8 26.73 × 21.31 mm with bars 18.23 mm,
 * UPC-E 22.11 × 25.93 mm; ITF-14 bars 31.75 mm at X = 1.016 mm, GS1-128 bars 31.75 mm at X = 0.495 mm,
 * both scaling with X).
 */
const LINEAR: Partial<Record<BarcodeType, LinearLayout>> = {
  ean13: { bcid: 'ean13', quiet: [11, 7], barHeight: 22.85 / 0.33, height: 25.93 / 0.33, heightWithoutText: 22.85 / 0.33 + 5 },
  upca: { bcid: 'upca', quiet: [9, 9], barHeight: 22.85 / 0.33, height: 25.93 / 0.33, heightWithoutText: 22.85 / 0.33 + 5 },
  upce: { bcid: 'upce', quiet: [9, 7], barHeight: 22.85 / 0.33, height: 25.93 / 0.33, heightWithoutText: 22.85 / 0.33 + 5 },
  ean8: { bcid: 'ean8', quiet: [7, 7], barHeight: 18.23 / 0.33, height: 21.31 / 0.33, heightWithoutText: 18.23 / 0.33 + 5 },
  itf14: {
    bcid: 'itf14',
    quiet: [10, 10],
    barHeight: 31.75 / 1.016,
    height: 31.75 / 1.016 + 8 + 12,
    heightWithoutText: 31.75 / 1.016 + 8,
    bearer: 4,
  },
  'gs1-128': { bcid: 'gs1-128', quiet: [10, 10], barHeight: 31.75 / 0.495, height: 31.75 / 0.495 + 12, heightWithoutText: 31.75 / 0.495 },
};

/** 2D symbols: BWIPP's name and the quiet zone on every side, in modules. */
const MATRIX: Partial<Record<BarcodeType, { bcid: string; quiet: number }>> = {
  'gs1-datamatrix': { bcid: 'gs1datamatrix', quiet: 1 },
  qrcode: { bcid: 'qrcode', quiet: 4 },
};

export interface BarcodeSymbol {
  svg: string;
  facts: BarcodeFacts;
}

type Box = { x: number; y: number; width: number; height: number };

const fmt = (n: number) => String(Math.round(n * 1000) / 1000);
const rectPath = ({ x, y, width, height }: Box) => `M${fmt(x)} ${fmt(y)}H${fmt(x + width)}V${fmt(y + height)}H${fmt(x)}Z`;

/** BWIPP's refusals (a GS1 linter finding, data too long) as the client's 400. */
function bwipp<T>(draw: () => T): T {
  try {
    return draw();
  } catch (error) {
    const text = String(error instanceof Error ? error.message : error);
    const match = /^bwipp\.(\w+?)(?:#\d+)?: (.*)$/s.exec(text);
    if (!match) throw error;
    const [, code, message] = match;
    const ai = /^AI (\d{2,4}): (.*)$/s.exec(message!);
    if (code === 'GS1unknownAI' && ai) throw new BarcodeInputError('data', `(${ai[1]}) is not a GS1 Application Identifier.`);
    if (ai) throw new BarcodeInputError('data', `(${ai[1]}) ${lowerFirst(ai[2]!)}${ai[2]!.endsWith('.') ? '' : '.'}`);
    throw new BarcodeInputError('data', `${lowerFirst(message!)}${message!.endsWith('.') ? '' : '.'}`);
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function svgDocument(viewBox: Box, widthMm: number, heightMm: number, paths: readonly string[]): string {
  const body = paths.map((d) => `<path d="${d}" fill="#000000" fill-rule="evenodd"/>`).join('\n');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${fmt(widthMm)}mm" height="${fmt(heightMm)}mm" ` +
    `viewBox="${fmt(viewBox.x)} ${fmt(viewBox.y)} ${fmt(viewBox.width)} ${fmt(viewBox.height)}">\n${body}\n</svg>\n`
  );
}

/** The stroked bar lines bwip-js writes, as boxes in its units. */
function barsOf(svg: string): Box[] {
  const bars: Box[] = [];
  for (const [, width, d] of svg.matchAll(/<path stroke="#[0-9a-fA-F]{6}" stroke-width="([\d.]+)" d="([^"]*)"/g)) {
    const lw = Number(width);
    for (const [, x0, y0, x1, y1] of d!.matchAll(/M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)/g)) {
      const [ax, ay, bx, by] = [x0, y0, x1, y1].map(Number) as [number, number, number, number];
      if (ax === bx) bars.push({ x: ax - lw / 2, y: Math.min(ay, by), width: lw, height: Math.abs(by - ay) });
      else bars.push({ x: Math.min(ax, bx), y: ay - lw / 2, width: Math.abs(bx - ax), height: lw });
    }
  }
  return bars;
}

/** The filled paths bwip-js writes (glyphs, ITF-14's bearer frame, 2D modules). */
function filledPathsOf(svg: string): { d: string; evenOdd: boolean }[] {
  return [...svg.matchAll(/<path d="([^"]*)"([^>]*)\/>/g)].map(([, d, rest]) => ({ d: d!, evenOdd: rest!.includes('evenodd') }));
}

function linearSymbol(spec: BarcodeSpec, layout: LinearLayout): BarcodeSymbol {
  const s = LINEAR_SCALE;
  const source = bwipp(() =>
    bwipjs.toSVG({
      bcid: layout.bcid,
      text: spec.data,
      scale: s,
      height: layout.barHeight / POINTS_PER_MM,
      includetext: spec.humanReadable,
      ...(layout.bearer ? { showborder: false } : {}),
    }),
  );
  const bars = barsOf(source).filter((bar) => bar.height > bar.width);
  const left = Math.min(...bars.map((bar) => bar.x));
  const right = Math.max(...bars.map((bar) => bar.x + bar.width));
  const top = Math.min(...bars.map((bar) => bar.y));
  const bottom = Math.max(...bars.map((bar) => bar.y + bar.height));
  const reduction = (spec.barWidthReductionMm / spec.moduleMm) * s;
  const paths = bars.map((bar) => rectPath({ ...bar, x: bar.x + reduction / 2, width: bar.width - reduction }));
  // Glyphs only: bwip-js's own border (ITF-14) is switched off and drawn below, around the quiet zones.
  paths.push(...filledPathsOf(source).map((path) => path.d));
  const bearer = (layout.bearer ?? 0) * s;
  const viewBox: Box = {
    x: left - layout.quiet[0] * s - bearer,
    y: top - bearer,
    width: right - left + (layout.quiet[0] + layout.quiet[1]) * s + 2 * bearer,
    height: (spec.humanReadable ? layout.height : layout.heightWithoutText) * s,
  };
  if (bearer > 0) {
    const outer: Box = { x: viewBox.x, y: viewBox.y, width: viewBox.width, height: bottom - top + 2 * bearer };
    const inner: Box = { x: outer.x + bearer, y: top, width: outer.width - 2 * bearer, height: bottom - top };
    paths.push(`${rectPath(outer)}${rectPath(inner)}`);
  }
  return finish(spec, viewBox, s, paths);
}

function matrixSymbol(spec: BarcodeSpec, bcid: string, quiet: number): BarcodeSymbol {
  const source = bwipp(() => bwipjs.toSVG({ bcid, text: spec.data, scale: 1 }));
  const size = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(source)!;
  const unit = MATRIX_UNITS_PER_MODULE;
  const reduction = (spec.barWidthReductionMm / spec.moduleMm) * unit;
  const paths = filledPathsOf(source).map((path) => shrinkOutline(path.d, reduction / 2));
  // bwip-js draws the modules alone, from (0, 0): the quiet zone is added around them.
  const viewBox: Box = {
    x: -quiet * unit,
    y: -quiet * unit,
    width: Number(size[1]) + 2 * quiet * unit,
    height: Number(size[2]) + 2 * quiet * unit,
  };
  return finish(spec, viewBox, unit, paths);
}

function finish(spec: BarcodeSpec, viewBox: Box, unitsPerModule: number, paths: readonly string[]): BarcodeSymbol {
  const mmPerUnit = spec.moduleMm / unitsPerModule;
  const widthMm = viewBox.width * mmPerUnit;
  const heightMm = viewBox.height * mmPerUnit;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    svg: svgDocument(viewBox, widthMm, heightMm, paths),
    facts: {
      type: spec.type,
      data: spec.data,
      magnification: spec.magnification,
      moduleMm: round(spec.moduleMm),
      widthMm: round(widthMm),
      heightMm: round(heightMm),
    },
  };
}

/**
 * Moves every edge of orthogonal, non-crossing outlines (bwip-js's 2D modules, filled even-odd)
 * by `inset` towards the dark side. The dark side is the same hand of every edge: outer outlines
 * and holes run in opposite directions; the largest outline (an outer one) tells which hand.
 */
export function shrinkOutline(d: string, inset: number): string {
  if (inset <= 0) return d;
  const contours = d
    .split('Z')
    .map((part) => [...part.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map(([, x, y]) => [Number(x), Number(y)] as [number, number]))
    .map(dropRepeats)
    .filter((points) => points.length >= 4);
  const area = (points: readonly [number, number][]) =>
    points.reduce((sum, [x1, y1], i) => {
      const [x2, y2] = points[(i + 1) % points.length]!;
      return sum + x1 * y2 - x2 * y1;
    }, 0);
  const largest = contours.reduce((best, points) => (Math.abs(area(points)) > Math.abs(area(best)) ? points : best), contours[0] ?? []);
  // (dy, -dx) points inwards of a contour whose shoelace sum is negative.
  const hand = area(largest) < 0 ? 1 : -1;
  const normal = (a: [number, number], b: [number, number]): [number, number] => {
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    return [(hand * (b[1] - a[1])) / length, (-hand * (b[0] - a[0])) / length];
  };
  return contours
    .map((points) => {
      const moved = points.map((p, i) => {
        const previous = points[(i - 1 + points.length) % points.length]!;
        const next = points[(i + 1) % points.length]!;
        const n1 = normal(previous, p);
        const n2 = normal(p, next);
        const same = Math.abs(n1[0] - n2[0]) < 1e-9 && Math.abs(n1[1] - n2[1]) < 1e-9;
        return same ? [p[0] + inset * n1[0], p[1] + inset * n1[1]] : [p[0] + inset * (n1[0] + n2[0]), p[1] + inset * (n1[1] + n2[1])];
      });
      return `M${moved.map(([x, y]) => `${fmt(x!)} ${fmt(y!)}`).join('L')}Z`;
    })
    .join('');
}

function dropRepeats(points: [number, number][]): [number, number][] {
  const out = points.filter((p, i) => i === 0 || p[0] !== points[i - 1]![0] || p[1] !== points[i - 1]![1]);
  while (out.length > 1 && out[0]![0] === out.at(-1)![0] && out[0]![1] === out.at(-1)![1]) out.pop();
  return out;
}

/** The finished symbol of a checked request; BarcodeInputError when BWIPP refuses the data. */
export function makeSymbol(spec: BarcodeSpec): BarcodeSymbol {
  const linear = LINEAR[spec.type];
  if (linear) return linearSymbol(spec, linear);
  const matrix = MATRIX[spec.type]!;
  return matrixSymbol(spec, matrix.bcid, matrix.quiet);
}

/** makeSymbol with a refusal as a plain value: what a render child hands back (structured clone keeps no class). */
export type SymbolOutcome = { ok: true; symbol: BarcodeSymbol } | { ok: false; field: BarcodeInputError['field']; reason: string };

export function symbolOutcome(spec: BarcodeSpec): SymbolOutcome {
  try {
    return { ok: true, symbol: makeSymbol(spec) };
  } catch (error) {
    if (error instanceof BarcodeInputError) return { ok: false, field: error.field, reason: error.reason };
    throw error;
  }
}
