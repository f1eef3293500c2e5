/**
 * Paint roles in an SVG asset that the press rules (black.ts) need and that resvg's normalised
 * tree no longer shows: which paths were text, and which #000 fills are large. They travel to the
 * PDF writer in the colour notation itself, which svg-to-pdfkit hands to its colour callback as
 * written: resvg writes every colour as `#rrggbb`, so a text paint is rewritten as `rgb(r,g,b)` and
 * a large black fill as `rgb(0%,0%,0%)` (both parse to the same colour), and paintRole() reads
 * the role back from that notation.
 */
import { IDENTITY, multiply, type Matrix } from './svg-tree.js';

export type PaintRole = 'text' | 'large-black' | 'plain';

const TEXT_ID_PREFIX = 'pf-text-';

/**
 * Gives every `<text>` element of the source an id (those without one get `pf-text-N`), so its
 * outlines stay recognisable after resvg converts it: resvg keeps an element's id on the group it
 * outlines the text into.
 */
export function tagTextElements(source: string): { svg: string; textIds: Set<string> } {
  const textIds = new Set<string>();
  let next = 0;
  const svg = source.replace(/<text\b([^>]*)>/g, (tag: string, attributes: string) => {
    const existing = /\sid\s*=\s*("([^"]*)"|'([^']*)')/.exec(attributes);
    if (existing) {
      textIds.add(existing[2] ?? existing[3] ?? '');
      return tag;
    }
    let id = `${TEXT_ID_PREFIX}${next++}`;
    while (source.includes(`"${id}"`)) id = `${TEXT_ID_PREFIX}${next++}`;
    textIds.add(id);
    return `<text id="${id}"${attributes}>`;
  });
  return { svg, textIds };
}

export function paintRole(raw: string | undefined): PaintRole {
  const value = (raw ?? '').trim();
  if (/^rgb\(\s*0%\s*,\s*0%\s*,\s*0%\s*\)$/i.test(value)) return 'large-black';
  if (/^rgb\(/i.test(value)) return 'text';
  return 'plain';
}

const hexToRgbNotation = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(',')})`;

/** resvg writes transforms as one `matrix(a b c d e f)`. */
function transformOf(attributes: string): Matrix {
  const match = /\stransform="matrix\(([^)]*)\)"/.exec(attributes);
  if (!match) return IDENTITY;
  const values = match[1]!.split(/[\s,]+/).filter(Boolean).map(Number);
  return values.length === 6 && values.every(Number.isFinite) ? (values as Matrix) : IDENTITY;
}

/** The filled area of resvg path data (absolute M, L, Q, C, Z), curves sampled, holes subtracted by winding. */
export function pathArea(d: string): number {
  const tokens = d.match(/[MLQCZ]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi) ?? [];
  let area = 0;
  let start: [number, number] | null = null;
  let current: [number, number] = [0, 0];
  let i = 0;
  const num = () => Number(tokens[i++]);
  const edge = (to: [number, number]) => {
    area += current[0] * to[1] - to[0] * current[1];
    current = to;
  };
  const close = () => {
    if (start) edge(start);
    start = null;
  };
  let command = 'M';
  while (i < tokens.length) {
    if (/^[MLQCZ]$/i.test(tokens[i]!)) command = tokens[i++]!.toUpperCase();
    if (command === 'Z') {
      close();
      continue;
    }
    if (command === 'M') {
      close();
      current = [num(), num()];
      start = current;
      command = 'L';
    } else if (command === 'L') {
      edge([num(), num()]);
    } else if (command === 'Q') {
      const [p0, p1, p2] = [current, [num(), num()], [num(), num()]] as [number, number][];
      for (const t of [0.25, 0.5, 0.75, 1]) {
        const u = 1 - t;
        edge([u * u * p0![0] + 2 * u * t * p1![0] + t * t * p2![0], u * u * p0![1] + 2 * u * t * p1![1] + t * t * p2![1]]);
      }
    } else if (command === 'C') {
      const [p0, p1, p2, p3] = [current, [num(), num()], [num(), num()], [num(), num()]] as [number, number][];
      for (const t of [0.25, 0.5, 0.75, 1]) {
        const u = 1 - t;
        const b = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
        edge([
          b[0]! * p0![0] + b[1]! * p1![0] + b[2]! * p2![0] + b[3]! * p3![0],
          b[0]! * p0![1] + b[1]! * p1![1] + b[2]! * p2![1] + b[3]! * p3![1],
        ]);
      }
    } else {
      i++;
    }
    if (!Number.isFinite(current[0]) || !Number.isFinite(current[1])) return 0;
  }
  close();
  return Math.abs(area) / 2;
}

/**
 * Rewrites the paints of a resvg-normalised SVG: inside the groups of `textIds` as text, and (when
 * `largeBlackMinArea` is set, in the SVG's user units²) every #000000 fill outside text covering at
 * least that area as a large black fill. A fill that covers nothing (a straight line's, which SVG
 * fills by default) is dropped: a PDF renderer paints a hairline for it, knocking out what the
 * line's stroke overprints.
 */
const TAG = /<(\/?)([a-zA-Z]+)\b([^>]*?)(\/?)>/g;

export function markPaintRoles(svg: string, textIds: ReadonlySet<string>, largeBlackMinArea: number | null): string {
  const stack: { text: boolean; matrix: Matrix }[] = [{ text: false, matrix: IDENTITY }];
  return svg.replace(TAG, (tag: string, closing: string, name: string, attributes: string, selfClosing: string) => {
    const parent = stack[stack.length - 1]!;
    if (closing) {
      if (name === 'g' && stack.length > 1) stack.pop();
      return tag;
    }
    const matrix = multiply(parent.matrix, transformOf(attributes));
    const id = /\sid="([^"]*)"/.exec(attributes)?.[1];
    const text = parent.text || (name === 'g' && id !== undefined && textIds.has(id));
    if (name === 'g' && !selfClosing) stack.push({ text, matrix });
    if (name !== 'path') return tag;
    const d = /\sd="([^"]*)"/.exec(attributes)?.[1] ?? '';
    if (/\sfill="(?!none")/.test(attributes) && pathArea(d) === 0) tag = tag.replace(/\sfill="[^"]*"/, ' fill="none"');
    if (text) {
      return tag.replace(/\s(fill|stroke)="(#[0-9a-fA-F]{6})"/g, (_m, key: string, hex: string) => ` ${key}="${hexToRgbNotation(hex)}"`);
    }
    if (largeBlackMinArea === null || !/\sfill="#000000"/.test(tag)) return tag;
    const scale = Math.abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]);
    if (pathArea(d) * scale < largeBlackMinArea) return tag;
    return tag.replace(/\sfill="#000000"/, ' fill="rgb(0%,0%,0%)"');
  });
}
