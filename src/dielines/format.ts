import type { Point } from './types.js';

/** Rounds to 3 decimals (1 µm) and normalises -0 to 0, so output is stable across runs. */
export function round3(value: number): number {
  const rounded = Math.round(value * 1000) / 1000;
  return rounded === 0 ? 0 : rounded;
}

export function formatNumber(value: number): string {
  return String(round3(value));
}

/** SVG path data for a polyline, in the units of the points. */
export function pathData(points: readonly Point[], closed: boolean): string {
  let d = '';
  points.forEach(([x, y], index) => {
    d += `${index === 0 ? 'M' : 'L'}${formatNumber(x)} ${formatNumber(y)}`;
  });
  return closed && points.length > 0 ? `${d}Z` : d;
}

/** Rounds a limit up to 0.1 mm, for messages that state a minimum. */
export function ceilTenth(value: number): number {
  return Math.ceil(round3(value) * 10) / 10;
}
