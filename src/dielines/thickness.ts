/** Default board caliper per template and material. */
import { styleForTemplate } from './registry.js';
import type { BoxStyleId as DielineStyleId } from './types.js';

/** Folding-carton board: SBS/FBB 0.4 mm, kraft board 0.45 mm, E-flute 1.5 mm, PET 0.3 mm. */
const FOLDING_CARTON: Readonly<Record<string, number>> = { cardboard: 0.4, kraft: 0.45, corrugated: 1.5, plastic: 0.3 };

const DEFAULTS: Readonly<Record<DielineStyleId, { fallback: number; byMaterial: Readonly<Record<string, number>> }>> = {
  // E-flute mailer board, brown or white liner.
  'fefco-0427': { fallback: 1.5, byMaterial: { corrugated: 1.5, kraft: 1.5 } },
  // B-flute shipper, brown or white liner.
  'fefco-0201': { fallback: 3, byMaterial: { corrugated: 3, kraft: 3 } },
  'ecma-reverse-tuck-end': { fallback: 0.4, byMaterial: FOLDING_CARTON },
  'ecma-straight-tuck-end': { fallback: 0.4, byMaterial: FOLDING_CARTON },
  'tuck-top-auto-bottom': { fallback: 0.4, byMaterial: FOLDING_CARTON },
  // Greyboard; the catalog material is the covering paper and does not change the board.
  'rigid-two-piece': { fallback: 2, byMaterial: {} },
};

/**
 * A sensible caliper for the template, in mm. Unknown or inapplicable materials fall back to the
 * template's default material. Throws `DielineUnsupportedError` for templates without a dieline.
 */
export function defaultThicknessMm(templateId: string, material?: string): number {
  const style = styleForTemplate(templateId);
  const table = DEFAULTS[style.id];
  if (material !== undefined && Object.hasOwn(table.byMaterial, material)) return table.byMaterial[material]!;
  return table.fallback;
}

