/**
 * Press-safe black and grey (extensions §14): a neutral vector colour (R, G and B within
 * NEUTRAL_TOLERANCE of each other) prints as one ink, K only, with the K that alone gives the
 * colour's lightness in the condition's profile, relative colorimetric (paper white = sRGB white).
 * In rgb files the same ink is written as DeviceGray 1 − K. Text and thin strokes of at least
 * OVERPRINT_MIN_K overprint; large #000 fills may be rich black (richBlack=true, cmyk only).
 */
import { conditionProfile, type PrintCondition } from './conditions.js';
import { parseIccProfile } from './icc.js';
import type { Rgb } from './types.js';
import { kept } from './memo.js';

export const NEUTRAL_TOLERANCE = 3;
/** K (percent) from which text and thin strokes overprint. */
export const OVERPRINT_MIN_K = 95;
/** Strokes up to this width (points) overprint when dark enough. */
export const OVERPRINT_MAX_STROKE_PT = 2;
/** richBlack=true: a filled #000 area of at least this many mm² prints as RICH_BLACK. */
export const RICH_BLACK_MIN_AREA_MM2 = 400;
export const RICH_BLACK: readonly [number, number, number, number] = [60, 40, 40, 100];

export const isNeutral = ([r, g, b]: Rgb): boolean => Math.max(r, g, b) - Math.min(r, g, b) <= NEUTRAL_TOLERANCE;

/** CIE L* of an sRGB colour (its luminance; for a neutral colour the same under D65 and D50). */
export function srgbLightness([r, g, b]: Rgb): number {
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  const y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  return y > 216 / 24389 ? 116 * Math.cbrt(y) - 16 : (24389 / 27) * y;
}

/** L* of K 0, 1, …, 100 % alone (C = M = Y = 0) in a profile: falls from paper white to solid K. */
export type KRamp = readonly number[];

export function kRampOf(profile: Buffer): KRamp {
  const { toLab, channels } = parseIccProfile(profile);
  if (channels !== 4) throw new Error('a K ramp needs a CMYK profile');
  return Array.from({ length: 101 }, (_, k) => toLab([0, 0, 0, k / 100])[0]);
}

/** The K (percent, one decimal) whose lightness is `lightness`; 100 when even solid K is lighter. */
export function kForLightness(ramp: KRamp, lightness: number): number {
  if (lightness >= ramp[0]!) return 0;
  for (let k = 1; k < ramp.length; k++) {
    const lighter = ramp[k - 1]!;
    const darker = ramp[k]!;
    if (lightness >= darker) {
      const t = lighter === darker ? 0 : (lighter - lightness) / (lighter - darker);
      return Math.round((k - 1 + t) * 10) / 10;
    }
  }
  return 100;
}

const ramps = new Map<string, Promise<KRamp>>();

/** The condition's K ramp, read from its profile once per process. */
export function conditionKRamp(condition: PrintCondition): Promise<KRamp> {
  return kept(ramps, condition.key, () => conditionProfile(condition).then(kRampOf));
}

/** The grey ink of a neutral colour: K percent in the condition. */
export const greyK = (ramp: KRamp, color: Rgb): number => kForLightness(ramp, srgbLightness(color));
