/**
 * Preflight findings about what is inside SVG artwork, read from each SVG's source: its text's
 * fonts (FONT_SUBSTITUTED, FONT_MISSING) and the images it embeds or names (SVG_IMAGE_DROPPED).
 * An SVG over the cost model (render/svg-filters.ts, stored before the model refused it) is read no
 * further: it gives SVG_TOO_COSTLY alone, as no render draws it. An SVG placed several times gets
 * each finding once per artwork.
 */
import type { FamilyChoice } from './fonts.js';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { SvgTooCostlyError, boundedSvg } from '../render/svg-filters.js';
import { measureSvg, type SvgMeasures } from './svg-measure.js';
import { prepareSource } from './svg-text.js';
import type { Finding, FindingCode, Placement, PrintSurface, Severity } from './types.js';
import { kept } from './memo.js';

/** What preflight needs to know about one SVG asset. */
export interface SvgFacts {
  hasText: boolean;
  families: FamilyChoice[];
  droppedImages: string[];
  /** Sizes in the SVG's user units; null when the source cannot be read. */
  measures: SvgMeasures | null;
  /** Why the cost model refuses the SVG, or null when it accepts it. */
  tooCostly: string | null;
}

/** The cost model's verdict by the SVG's digest ('' when it accepts it): resvg parses each file once. */
const verdicts = new LRUCache<string, string>({ max: 4096 });

function costVerdict(bytes: Buffer): string {
  const digest = createHash('sha256').update(bytes).digest('hex');
  return kept<string, string>(verdicts, digest, () => {
    try {
      boundedSvg(bytes);
      return '';
    } catch (error) {
      if (!(error instanceof SvgTooCostlyError)) throw error;
      return error.reason;
    }
  });
}

export function svgFacts(bytes: Buffer, owned: readonly { family: string }[]): SvgFacts {
  const tooCostly = costVerdict(bytes);
  if (tooCostly) return { hasText: false, families: [], droppedImages: [], measures: null, tooCostly };
  const text = bytes.toString('utf8');
  const { hasText, families, droppedImages } = prepareSource(text, owned);
  return { hasText, families, droppedImages, measures: measureSvg(text), tooCostly: null };
}

/** Effective resolution of placed images below these is a warning / an error (as for raster artwork). */
const RECOMMENDED_PPI = 300;
const MINIMUM_PPI = 150;

const boundsWidth = (points: readonly (readonly [number, number])[]) =>
  Math.max(...points.map((p) => p[0])) - Math.min(...points.map((p) => p[0]));

const subject = (artworkId: string | undefined) => (artworkId ? `Artwork '${artworkId}'` : 'The background SVG');

/** The findings of one SVG where it is placed (artworkId absent: the background), one per code. */
export function factsFindings(
  facts: SvgFacts,
  artworkId: string | undefined,
  panelId: string | undefined,
  printedWidthMm: number,
): Finding[] {
  const findings: Finding[] = [];
  const flag = (severity: Severity, code: FindingCode, message: string) =>
    findings.push({ severity, code, message, ...(artworkId ? { artworkId } : {}), ...(panelId ? { panelId } : {}) });
  if (facts.tooCostly !== null) {
    flag(
      'error',
      'SVG_TOO_COSTLY',
      `${subject(artworkId)}: the SVG is too costly to render (${facts.tooCostly}) and is left out of ` +
        `the print, preview and 3D model; replace it with a simpler file.`,
    );
    return findings;
  }
  const missing = facts.hasText ? facts.families.filter((choice) => choice.used === null) : [];
  const substituted = facts.hasText ? facts.families.filter((choice) => choice.used !== null && choice.substituted) : [];
  if (missing.length > 0) {
    flag(
      'error',
      'FONT_MISSING',
      `${subject(artworkId)}: no font of ${missing.map((choice) => `'${choice.asked}'`).join(', ')} ` +
        `or of a later family in its font-family list is available; upload the font with POST /fonts.`,
    );
  }
  if (substituted.length > 0) {
    const each = substituted.map((choice) => `the font family '${choice.asked}' is not available; text is set in '${choice.used}'`);
    flag('warning', 'FONT_SUBSTITUTED', `${subject(artworkId)}: ${each.join('; ')}.`);
  }
  const dropped = [...new Set(facts.droppedImages)];
  if (dropped.length > 0) {
    flag(
      'error',
      'SVG_IMAGE_DROPPED',
      `${subject(artworkId)}: ${dropped.length === 1 ? 'an image' : `${dropped.length} images`} inside the SVG (${dropped.join(', ')}) ` +
        `${dropped.length === 1 ? 'is' : 'are'} left out; only PNG and JPEG images embedded as data: URIs print.`,
    );
  }
  const measures = facts.measures;
  if (measures && measures.unitsWide > 0 && measures.images.length > 0) {
    const mmPerUnit = printedWidthMm / measures.unitsWide;
    const ppi = Math.min(...measures.images.map((image) => image.pixelsWide / ((image.width * mmPerUnit) / 25.4)));
    if (ppi < RECOMMENDED_PPI) {
      flag(
        ppi < MINIMUM_PPI ? 'error' : 'warning',
        'LOW_RESOLUTION',
        `${subject(artworkId)}: an image inside the SVG prints at ${Math.floor(ppi)} dpi; ` +
          `${RECOMMENDED_PPI} dpi is recommended${ppi < MINIMUM_PPI ? ` and ${MINIMUM_PPI} dpi is the minimum` : ''}.`,
      );
    }
  }
  return findings;
}

/** The SVG findings of every placed SVG, once per artwork (a wrap's repeated copies count once). */
export function svgFindings(placement: Placement<PrintSurface>, facts: ReadonlyMap<string, SvgFacts>): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const piece of placement.pieces) {
    if (piece.background?.kind === 'image') {
      const background = facts.get(piece.background.asset.name);
      if (background && !seen.has('')) {
        seen.add('');
        findings.push(...factsFindings(background, undefined, undefined, boundsWidth(piece.bleed)));
      }
    }
    for (const image of piece.images) {
      const svg = facts.get(image.asset.name);
      if (!svg || seen.has(image.artworkId)) continue;
      seen.add(image.artworkId);
      findings.push(...factsFindings(svg, image.artworkId, image.panelId, image.width));
    }
  }
  return findings;
}
