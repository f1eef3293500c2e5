/**
 * RGB → the printing condition's CMYK, with sharp (libvips + lcms) and the condition's profile,
 * perceptual intent (the profile's perceptual tables map the sRGB gamut into the condition's).
 * Flat colours go through the same transform as images, except neutral ones (black.ts), which print
 * as K only.
 */
import { fileURLToPath } from 'node:url';
import { conditionKRamp, greyK, isNeutral } from './black.js';
import { profilePath, type PrintCondition } from './conditions.js';
import { loadSharp } from './images.js';
import type { Rgb } from './types.js';

/** The filesystem path sharp's withIccProfile needs. */
export const profileFsPath = (condition: PrintCondition) => fileURLToPath(profilePath(condition.profileFile));

const cache = new Map<string, Promise<[number, number, number, number]>>();

/** An sRGB colour as CMYK percentages (one decimal) in the condition; a neutral one K only. */
export async function rgbToCmyk(color: Rgb, condition: PrintCondition): Promise<[number, number, number, number]> {
  if (isNeutral(color)) return [0, 0, 0, greyK(await conditionKRamp(condition), color)];
  const [r, g, b] = color;
  const key = `${condition.key}:${r},${g},${b}`;
  let result = cache.get(key);
  if (!result) {
    result = (async () => {
      const sharp = await loadSharp();
      const data = await sharp({ create: { width: 1, height: 1, channels: 3, background: { r, g, b } } })
        .withIccProfile(profileFsPath(condition), { attach: false })
        .raw()
        .toBuffer();
      return [0, 1, 2, 3].map((i) => Math.round((data[i]! / 255) * 1000) / 10) as [number, number, number, number];
    })();
    if (cache.size > 4096) cache.clear();
    cache.set(key, result);
  }
  return result;
}
