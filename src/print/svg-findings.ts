/**
 * Preflight findings about what is inside SVG artwork, read from each SVG's source: its text's
 * fonts (FONT_SUBSTITUTED, FONT_MISSING) and the images it embeds or names (SVG_IMAGE_DROPPED).
 * An SVG placed several times gets each finding once per artwork.
 */
import type { FamilyChoice } from './fonts.js';
import { prepareSource } from './svg-text.js';
import type { Finding, Placement, PrintSurface } from './types.js';

/** What preflight needs to know about one SVG asset. */
export interface SvgFacts {
  hasText: boolean;
  families: FamilyChoice[];
  droppedImages: string[];
}

export function svgFacts(bytes: Buffer, owned: readonly { family: string }[]): SvgFacts {
  const { hasText, families, droppedImages } = prepareSource(bytes.toString('utf8'), owned);
  return { hasText, families, droppedImages };
}

const subject = (artworkId: string | undefined) => (artworkId ? `Artwork '${artworkId}'` : 'The background SVG');

/** The findings of one SVG where it is placed (artworkId absent: the background). */
export function factsFindings(facts: SvgFacts, artworkId: string | undefined, panelId: string | undefined): Finding[] {
  const where = { ...(artworkId ? { artworkId } : {}), ...(panelId ? { panelId } : {}) };
  const findings: Finding[] = [];
  if (facts.hasText) {
    for (const choice of facts.families) {
      if (choice.used === null) {
        findings.push({
          severity: 'error',
          code: 'FONT_MISSING',
          message: `${subject(artworkId)}: no font of the family '${choice.asked}' or of any later family in its font-family list is available; upload it with POST /fonts.`,
          ...where,
        });
      } else if (choice.substituted) {
        findings.push({
          severity: 'warning',
          code: 'FONT_SUBSTITUTED',
          message: `${subject(artworkId)}: the font family '${choice.asked}' is not available; text is set in '${choice.used}'.`,
          ...where,
        });
      }
    }
  }
  for (const href of new Set(facts.droppedImages)) {
    findings.push({
      severity: 'error',
      code: 'SVG_IMAGE_DROPPED',
      message: `${subject(artworkId)}: an image inside the SVG (${href}) is left out; only PNG and JPEG images embedded as data: URIs print.`,
      ...where,
    });
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
        findings.push(...factsFindings(background, undefined, undefined));
      }
    }
    for (const image of piece.images) {
      const svg = facts.get(image.asset.name);
      if (!svg || seen.has(image.artworkId)) continue;
      seen.add(image.artworkId);
      findings.push(...factsFindings(svg, image.artworkId, image.panelId));
    }
  }
  return findings;
}
