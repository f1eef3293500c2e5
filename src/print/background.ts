/**
 * CSS colours and linear gradients as the editor writes them: `#rgb`, `#rrggbb`, `rgb(r, g, b)`
 * (0–255 or percentages), and `linear-gradient(<angle>deg, <colour> [<stop>%], …)` with 2 to
 * `MAX_GRADIENT_STOPS` stops. Anything else is reported, never guessed.
 */
import type { GradientStop, Rgb } from './types.js';

export const MAX_GRADIENT_STOPS = 32;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const RGB = /^rgb\(\s*([0-9.]+%?)\s*,\s*([0-9.]+%?)\s*,\s*([0-9.]+%?)\s*\)$/i;

export function parseColor(text: string): Rgb | null {
  const value = text.trim();
  const hex = HEX.exec(value);
  if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d) : [0, 2, 4].map((i) => hex[1]!.slice(i, i + 2));
    return digits.map((d) => parseInt(d, 16)) as unknown as Rgb;
  }
  const rgb = RGB.exec(value);
  if (!rgb) return null;
  const channels: number[] = [];
  for (const part of rgb.slice(1, 4)) {
    const percent = part!.endsWith('%');
    const n = Number(percent ? part!.slice(0, -1) : part);
    if (!Number.isFinite(n)) return null;
    const channel = percent ? (n / 100) * 255 : n;
    if (channel < 0 || channel > 255) return null;
    channels.push(Math.round(channel));
  }
  return channels as unknown as Rgb;
}

/** Splits on commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
    if (depth < 0) return [];
  }
  parts.push(text.slice(start).trim());
  return parts;
}

export function parseLinearGradient(text: string): Parsed<{ angleDeg: number; stops: GradientStop[] }> {
  const match = /^linear-gradient\((.*)\)$/is.exec(text.trim());
  if (!match) return { ok: false, reason: 'is not a linear-gradient(…)' };
  const parts = splitTopLevel(match[1]!);
  const angle = /^(-?[0-9]+(?:\.[0-9]+)?)deg$/i.exec(parts[0] ?? '');
  if (!angle) return { ok: false, reason: 'does not start with an angle in deg' };
  const stopTexts = parts.slice(1);
  if (stopTexts.length < 2 || stopTexts.length > MAX_GRADIENT_STOPS) {
    return { ok: false, reason: `has ${stopTexts.length} colour stops; 2 to ${MAX_GRADIENT_STOPS} are supported` };
  }
  const raw: { color: Rgb; offset: number | null }[] = [];
  for (const stop of stopTexts) {
    const m = /^(.*?)(?:\s+(-?[0-9]+(?:\.[0-9]+)?)%)?$/s.exec(stop);
    const color = m ? parseColor(m[1]!) : null;
    if (!color) return { ok: false, reason: `has a colour stop that is not a colour: '${stop.slice(0, 40)}'` };
    const offset = m![2] === undefined ? null : Math.min(1, Math.max(0, Number(m![2]) / 100));
    raw.push({ color, offset });
  }
  // CSS: a missing first/last position is 0 %/100 %; missing ones between are spread evenly;
  // a position before an earlier one is moved up to it.
  raw[0]!.offset ??= 0;
  raw[raw.length - 1]!.offset ??= 1;
  for (let i = 1; i < raw.length; i++) {
    if (raw[i]!.offset === null) {
      let j = i;
      while (raw[j]!.offset === null) j++;
      const from = raw[i - 1]!.offset!;
      const to = Math.max(from, raw[j]!.offset!);
      for (let k = i; k < j; k++) raw[k]!.offset = from + ((to - from) * (k - i + 1)) / (j - i + 1);
    }
    raw[i]!.offset = Math.max(raw[i]!.offset!, raw[i - 1]!.offset!);
  }
  const angleDeg = ((Number(angle[1]) % 360) + 360) % 360;
  return { ok: true, value: { angleDeg, stops: raw.map((s) => ({ offset: s.offset!, color: s.color })) } };
}

/**
 * The CSS gradient line for a box: through its centre at `angleDeg` (0 = towards the top,
 * clockwise), long enough that the corners get the first and last colours.
 */
export function gradientLine(
  angleDeg: number,
  box: { x: number; y: number; width: number; height: number },
): [[number, number], [number, number]] {
  const a = (angleDeg * Math.PI) / 180;
  const dx = Math.sin(a);
  const dy = -Math.cos(a);
  const half = (Math.abs(box.width * dx) + Math.abs(box.height * dy)) / 2;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return [
    [cx - dx * half, cy - dy * half],
    [cx + dx * half, cy + dy * half],
  ];
}
