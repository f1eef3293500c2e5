/**
 * PROFILE_MISMATCH (preflight): a CMYK JPEG is placed byte for byte, so its numbers print as the
 * file's printing condition prints them. When it carries an ICC profile of another condition, its
 * colours change: the two profiles are compared by colorimetry, a grid of CMYK patches through
 * both (relative colorimetric), and a mean CIE76 ΔE above MAX_MEAN_DELTA_E is a warning naming both
 * (so a profile of the same condition from another maker, e.g. ISO Coated v2 (ECI) for FOGRA39,
 * passes). The image is still placed unchanged.
 */
import { conditionProfile, type PrintCondition } from './conditions.js';
import { deltaE, IccError, parseIccProfile, type DeviceToLab } from './icc.js';
import { loadSharp } from './images.js';
import { artworkFinding, type Finding, type Placement, type ResolvedAsset } from './types.js';
import { kept } from './memo.js';

export const MAX_MEAN_DELTA_E = 2;
/** Each ink at 0, 25, 50, 75 and 100 %: 625 patches. */
const STEPS = [0, 0.25, 0.5, 0.75, 1];

const PATCHES: readonly number[][] = STEPS.flatMap((c) => STEPS.flatMap((m) => STEPS.flatMap((y) => STEPS.map((k) => [c, m, y, k]))));

/** Mean ΔE between two CMYK profiles over the patch grid. */
export function meanDeltaE(a: DeviceToLab, b: DeviceToLab): number {
  let total = 0;
  for (const patch of PATCHES) total += deltaE(a(patch), b(patch));
  return total / PATCHES.length;
}

const conditionLabs = new Map<string, Promise<DeviceToLab>>();
const conditionToLab = (condition: PrintCondition) =>
  kept(conditionLabs, condition.key, () => conditionProfile(condition).then((bytes) => parseIccProfile(bytes).toLab));

/** The mismatch of a CMYK JPEG's own profile, or null when it has none (or none this can read). */
async function mismatchOf(asset: ResolvedAsset, condition: PrintCondition): Promise<{ name: string; meanDeltaE: number } | null> {
  if (asset.mimeType !== 'image/jpeg') return null;
  const sharp = await loadSharp();
  const meta = await sharp(await asset.load(), { limitInputPixels: false }).metadata();
  if (meta.format !== 'jpeg' || meta.space !== 'cmyk' || !meta.icc) return null;
  try {
    const profile = parseIccProfile(meta.icc);
    if (profile.channels !== 4) return null;
    const difference = meanDeltaE(profile.toLab, await conditionToLab(condition));
    return difference > MAX_MEAN_DELTA_E ? { name: profile.description || 'unnamed', meanDeltaE: difference } : null;
  } catch (error) {
    if (error instanceof IccError) return null;
    throw error;
  }
}

export async function profileMismatchFindings(placement: Placement, condition: PrintCondition): Promise<Finding[]> {
  const findings: Finding[] = [];
  const checked = new Map<string, Promise<{ name: string; meanDeltaE: number } | null>>();
  const check = (asset: ResolvedAsset) => kept(checked, asset.name, () => mismatchOf(asset, condition));
  const message = (what: string, found: { name: string; meanDeltaE: number }) =>
    `${what} is a CMYK JPEG made for '${found.name}', another printing condition than ${condition.identifier} ` +
      `(mean ΔE ${found.meanDeltaE.toFixed(1)}); it is placed unchanged, so its colours shift.`;
  const background = placement.pieces[0]?.background;
  if (background?.kind === 'image') {
    const found = await check(background.asset);
    if (found) findings.push({ severity: 'warning', code: 'PROFILE_MISMATCH', message: message('The background image', found) });
  }
  const seen = new Set<string>();
  for (const layers of placement.pieces) {
    for (const image of layers.images) {
      if (seen.has(image.artworkId)) continue;
      seen.add(image.artworkId);
      const found = await check(image.asset);
      if (!found) continue;
      findings.push(artworkFinding(image, 'warning', 'PROFILE_MISMATCH', message(`${image.artworkId} on ${image.panelId}`, found)));
    }
  }
  return findings;
}
