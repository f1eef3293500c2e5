/**
 * INK_COVERAGE (preflight): the highest total area coverage (C + M + Y + K) of each placed raster
 * image in the printing condition's CMYK — CMYK images as they are, RGB through the condition's
 * profile as the print file converts them — measured on a copy averaged down to INK_SAMPLE_PX on
 * its longer side (each sample an area of a few square millimetres, not a single pixel). SVG
 * colours and flat backgrounds go through the profile, whose separation is limited to 300 %.
 */
import { profileFsPath } from './cmyk.js';
import type { PrintCondition } from './conditions.js';
import { loadSharp } from './images.js';
import { artworkFinding, type Finding, type Placement, type ResolvedAsset } from './types.js';

export const INK_SAMPLE_PX = 200;
const SVG_MIME = 'image/svg+xml';

/** The highest total ink of the image, in percent. */
export async function maxTotalInk(bytes: Buffer, condition: PrintCondition): Promise<number> {
  const sharp = await loadSharp();
  const meta = await sharp(bytes, { limitInputPixels: 100_000_000 }).metadata();
  let image = sharp(bytes, { limitInputPixels: 100_000_000 })
    .rotate()
    .resize({ width: INK_SAMPLE_PX, height: INK_SAMPLE_PX, fit: 'inside', withoutEnlargement: true, kernel: 'linear' });
  image =
    meta.space === 'cmyk'
      ? image.pipelineColourspace('cmyk').toColourspace('cmyk')
      : image.flatten({ background: '#ffffff' }).withIccProfile(profileFsPath(condition), { attach: false });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  let max = 0;
  for (let i = 0; i + 3 < data.length; i += info.channels) {
    const total = data[i]! + data[i + 1]! + data[i + 2]! + data[i + 3]!;
    if (total > max) max = total;
  }
  return Math.round((max / 255) * 100);
}

/** The raster images (not SVG) whose ink coverage the preflight measures, each once. */
export function inkMeasuredAssets(placement: Placement): ResolvedAsset[] {
  const assets = new Map<string, ResolvedAsset>();
  const background = placement.pieces[0]?.background;
  if (background?.kind === 'image' && background.asset.mimeType !== SVG_MIME) assets.set(background.asset.name, background.asset);
  for (const layers of placement.pieces) {
    for (const image of layers.images) {
      if (image.asset.mimeType !== SVG_MIME && !assets.has(image.asset.name)) assets.set(image.asset.name, image.asset);
    }
  }
  return [...assets.values()];
}

/** The highest total ink of each asset, by name (what inkCoverageFindings reads). */
export type InkTotals = ReadonlyMap<string, number>;

/** Measures each asset in turn, here (the render child's task). */
export async function measureInk(assets: readonly ResolvedAsset[], condition: PrintCondition): Promise<number[]> {
  const totals: number[] = [];
  for (const asset of assets) totals.push(await maxTotalInk(await asset.load(), condition));
  return totals;
}

/** The INK_COVERAGE findings of the placement, from totals measured for inkMeasuredAssets(placement). */
export function inkCoverageFindings(placement: Placement, condition: PrintCondition, totals: InkTotals): Finding[] {
  const findings: Finding[] = [];
  const totalOf = (asset: ResolvedAsset): number => totals.get(asset.name) ?? 0;
  const background = placement.pieces[0]?.background;
  if (background?.kind === 'image' && background.asset.mimeType !== SVG_MIME) {
    const total = totalOf(background.asset);
    if (total > condition.inkLimit) {
      findings.push({
        severity: 'warning',
        code: 'INK_COVERAGE',
        message: `The background image reaches ${total} % total ink; ${condition.identifier} allows ${condition.inkLimit} %.`,
      });
    }
  }
  for (const layers of placement.pieces) {
    for (const image of layers.images) {
      if (image.asset.mimeType === SVG_MIME) continue;
      const total = totalOf(image.asset);
      if (total <= condition.inkLimit) continue;
      const message =
        `${image.artworkId} on ${image.panelId} reaches ${total} % total ink; ${condition.identifier} allows ${condition.inkLimit} %.`;
      findings.push(artworkFinding(image, 'warning', 'INK_COVERAGE', message));
    }
  }
  return findings;
}
