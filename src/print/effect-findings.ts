/**
 * Preflight of finishes: EFFECT_NOT_OFFERED (a blind die the material cannot take),
 * EFFECT_CROSSES_FOLD (foil, emboss or deboss over a crease or fold: it cracks or flattens there),
 * EFFECT_ON_GLUE (an effect on a glue area that prints: nothing glues to foil or varnish) and
 * EFFECT_TOO_FINE (a foil or spot-UV detail narrower than EFFECT_MIN_DETAIL_MM: it fills in or
 * breaks up on press).
 *
 * The fold and glue tests are the structure checks' own (preflight-structure.ts), read from their
 * findings for the same artwork. The detail test rasterises the artwork's mask at its placed size
 * and opens it (erosion then dilation) with a square of the minimum width: what the opening removes
 * is narrower than that. A square measures diagonal strokes about 1.4 times narrower than they are,
 * so a diagonal hairline is reported a little early, never late. An SVG over the cost model is not
 * rasterised (SVG_TOO_COSTLY reports it).
 */
import { NO_EMBOSS_MATERIALS, type Effect } from './effects.js';
import { loadSharp } from './images.js';
import { alphaBits, dilate, erode } from './masks.js';
import { boundedSvg } from '../render/svg-filters.js';
import type { GlueAreasMode } from './preflight-structure.js';
import { artworkFinding, type Finding, type Placement, type PlacedImage, type PrintSurface } from './types.js';

export const EFFECT_MIN_DETAIL_MM = 0.3;
/** The opening's element spans EFFECT_MIN_DETAIL_MM in 7 pixels. */
const DETAIL_PX_PER_MM = 7 / EFFECT_MIN_DETAIL_MM;
const MAX_DETAIL_SIDE_PX = 4096;
/** Removed pixels below this count are edge noise of the rasterisation, not a detail. */
const MIN_REMOVED_PX = 12;

const FOLD_SENSITIVE: readonly Effect[] = ['foil-gold', 'foil-silver', 'emboss', 'deboss'];
const FINE_SENSITIVE: readonly Effect[] = ['foil-gold', 'foil-silver', 'spot-uv'];

const withEffect = (placement: Placement<PrintSurface>): PlacedImage[] =>
  placement.pieces.flatMap((piece) => piece.images).filter((image) => image.effect !== undefined);

/** The findings that need only the placement, its structure findings and the material. */
export function effectFindings(
  placement: Placement<PrintSurface>,
  structure: readonly Finding[],
  material: unknown,
  glueAreas: GlueAreasMode,
): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const add = (finding: Finding) => {
    const key = `${finding.code}:${finding.artworkId}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push(finding);
  };
  for (const image of withEffect(placement)) {
    const effect = image.effect!;
    const name = `${image.artworkId} on ${image.panelId}`;
    if (
      (effect === 'emboss' || effect === 'deboss') &&
      typeof material === 'string' &&
      (NO_EMBOSS_MATERIALS as readonly string[]).includes(material)
    ) {
      add(artworkFinding(image, 'warning', 'EFFECT_NOT_OFFERED', `${name} is to ${effect}, which ${material} cannot take.`));
    }
    const own = structure.filter((finding) => finding.artworkId === image.artworkId);
    if (FOLD_SENSITIVE.includes(effect) && own.some((finding) => finding.code === 'CROSSES_FOLD')) {
      add(artworkFinding(image, 'warning', 'EFFECT_CROSSES_FOLD', `${name} has ${effect} over a crease, where it cracks or flattens.`));
    }
    const glue = own.find((finding) => finding.code === 'GLUE_AREA');
    if (glue && glueAreas === 'print') {
      const message = `${name} has ${effect} on the glue area of ${glue.panelId}, which prints (glueAreas=print): nothing glues to it.`;
      add(artworkFinding(image, 'error', 'EFFECT_ON_GLUE', message));
    }
  }
  return findings;
}

/** EFFECT_TOO_FINE for each foil or spot-UV artwork with a detail under the minimum; unreadable images are skipped. */
export async function effectDetailFindings(placement: Placement<PrintSurface>): Promise<Finding[]> {
  const findings: Finding[] = [];
  const measured = new Set<string>();
  for (const image of withEffect(placement)) {
    if (!FINE_SENSITIVE.includes(image.effect!) || measured.has(image.artworkId)) continue;
    measured.add(image.artworkId);
    const narrow = await hasNarrowDetail(image).catch(() => false);
    if (narrow) {
      const message =
        `${image.artworkId} on ${image.panelId} has ${image.effect} details narrower than ${EFFECT_MIN_DETAIL_MM} mm at its printed size.`;
      findings.push(artworkFinding(image, 'warning', 'EFFECT_TOO_FINE', message));
    }
  }
  return findings;
}

async function hasNarrowDetail(image: PlacedImage): Promise<boolean> {
  const scale = Math.min(DETAIL_PX_PER_MM, MAX_DETAIL_SIDE_PX / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const sharp = await loadSharp();
  const bytes = await image.asset.load();
  // An SVG renders at the size asked for (its vectors stay sharp); a raster is resampled to it.
  const input =
    image.asset.mimeType === 'image/svg+xml'
      ? sharp(boundedSvg(bytes), { density: Math.max(1, (72 * width) / image.asset.widthPx) })
      : sharp(bytes, { limitInputPixels: false });
  const alpha = await input.rotate().resize({ width, height, fit: 'fill' }).ensureAlpha().extractChannel(3).raw().toBuffer();
  const bits = alphaBits(alpha);
  const radius = Math.max(1, Math.round((EFFECT_MIN_DETAIL_MM * scale - 1) / 2));
  const opened = dilate(erode(bits, width, height, radius), width, height, radius);
  let removed = 0;
  for (let i = 0; i < bits.length; i++) if (bits[i] && !opened[i]) removed++;
  return removed >= MIN_REMOVED_PX;
}
