import { DielineSizeError, type DielineParameter } from './errors.js';
import { formatNumber } from './format.js';
import type { BoxDimensions } from './types.js';

export interface Range {
  min: number;
  max: number;
}

/** Outer bounds per parameter. A style may still reject combinations inside them. */
export interface StyleLimits {
  widthMm: Range;
  heightMm: Range;
  depthMm: Range;
  thicknessMm: Range;
}

export const BLEED_LIMITS: Range = { min: 0, max: 20 };

export function requireFinite(parameter: DielineParameter, value: number, allowZero = false): void {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new DielineSizeError(
      parameter,
      `${parameter} must be a ${allowZero ? 'non-negative' : 'positive'} number of millimetres.`,
      'invalid',
    );
  }
}

export function requireInRange(parameter: DielineParameter, value: number, range: Range, subject: string): void {
  requireFinite(parameter, value, range.min === 0);
  if (value < range.min) {
    throw new DielineSizeError(
      parameter,
      `${parameter} ${formatNumber(value)} mm is too small for ${subject}: the minimum is ${formatNumber(range.min)} mm.`,
      'min',
      range.min,
    );
  }
  if (value > range.max) {
    throw new DielineSizeError(
      parameter,
      `${parameter} ${formatNumber(value)} mm is too large for ${subject}: the maximum is ${formatNumber(range.max)} mm.`,
      'max',
      range.max,
    );
  }
}

export function checkStaticLimits(inside: BoxDimensions, thicknessMm: number, limits: StyleLimits, subject: string): void {
  requireInRange('thicknessMm', thicknessMm, limits.thicknessMm, subject);
  requireInRange('widthMm', inside.widthMm, limits.widthMm, subject);
  requireInRange('depthMm', inside.depthMm, limits.depthMm, subject);
  requireInRange('heightMm', inside.heightMm, limits.heightMm, subject);
}

/**
 * Throws when `value` is below a limit that depends on other parameters; `reason` completes
 * "… is too small for <subject>: <reason>".
 */
export function requireAtLeast(
  parameter: DielineParameter,
  value: number,
  min: number,
  subject: string,
  reason: string,
): void {
  if (value < min - 1e-9) {
    throw new DielineSizeError(
      parameter,
      `${parameter} ${formatNumber(value)} mm is too small for ${subject}: ${reason}`,
      'min',
      Math.ceil(min * 10) / 10,
    );
  }
}
