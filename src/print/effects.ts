/**
 * Finishes as plates: an artwork's `effect` (foil, spot UV, emboss, deboss) and the White ink under
 * a clear or metallic substrate's print. Each is a spot colour on its own layer; this module names
 * them and decides which apply, the drawing is pdf.ts's and masks.ts's.
 *
 * Alternates are what a viewer without separations shows; every plate overprints, so on press
 * (and in a separations preview) it adds its own ink and removes nothing.
 */
import type { MaterialId } from '../catalog/index.js';

export const EFFECTS = ['foil-gold', 'foil-silver', 'spot-uv', 'emboss', 'deboss'] as const;
export type Effect = (typeof EFFECTS)[number];

export const WHITE_MODES = ['auto', 'none', 'underlay'] as const;
export type WhiteMode = (typeof WHITE_MODES)[number];

export interface PlateSpec {
  /** The spot colour's name, also the layer's. */
  spot: string;
  /** CMYK 0–100 alternate. */
  cmyk: readonly [number, number, number, number];
  /** Foil replaces ink: the artwork is not printed, and nothing under it is. */
  replacesInk: boolean;
  /** How the preview shows it over the print (sRGB). */
  previewColor: string;
}

export const EFFECT_PLATES: Readonly<Record<Effect, PlateSpec>> = {
  'foil-gold': { spot: 'Foil_Gold', cmyk: [0, 20, 60, 20], replacesInk: true, previewColor: '#d4af37' },
  'foil-silver': { spot: 'Foil_Silver', cmyk: [0, 0, 0, 30], replacesInk: true, previewColor: '#c0c0c8' },
  'spot-uv': { spot: 'SpotUV', cmyk: [0, 0, 0, 10], replacesInk: false, previewColor: '#d9d9d9' },
  emboss: { spot: 'Emboss', cmyk: [0, 0, 0, 15], replacesInk: false, previewColor: '#9aa0a6' },
  deboss: { spot: 'Deboss', cmyk: [0, 0, 0, 15], replacesInk: false, previewColor: '#9aa0a6' },
};

/** The White plate: drawn first, under the inks, which overprint it. Its alternate is no ink. */
export const WHITE_PLATE = { spot: 'White', cmyk: [0, 0, 0, 0] as const };

/** How far the White plate is choked inside every inked edge, so a misregistration never shows it. */
export const WHITE_CHOKE_MM = 0.1;

/** Substrates that take no ink colour of their own: without White, the print is transparent on them. */
const CLEAR_OR_METALLIC: readonly string[] = ['glass', 'plastic', 'aluminum'];

/**
 * What shows where nothing is printed, as sRGB: the board's own colour, or null for a clear
 * substrate (glass, clear film). The model's substrate colours (src/models/materials.ts) match.
 */
export const SUBSTRATE_COLORS: Readonly<Record<MaterialId, string | null>> = {
  cardboard: '#ffffff',
  kraft: '#b48a5c',
  corrugated: '#c29a68',
  plastic: null,
  glass: null,
  aluminum: '#d4d7db',
};

export function substrateColor(material: unknown): string | null {
  return typeof material === 'string' && material in SUBSTRATE_COLORS ? SUBSTRATE_COLORS[material as MaterialId] : '#ffffff';
}

/** Materials whose board cannot take a blind embossing or debossing die. */
export const NO_EMBOSS_MATERIALS: readonly MaterialId[] = ['corrugated', 'glass', 'aluminum'];

/** `auto`: underlay on glass, plastic and aluminium, and under a design whose finish is foil. */
export function resolveWhite(mode: WhiteMode | undefined, material: unknown, finish: unknown): 'none' | 'underlay' {
  if (mode === 'none' || mode === 'underlay') return mode;
  return (typeof material === 'string' && CLEAR_OR_METALLIC.includes(material)) || finish === 'foil' ? 'underlay' : 'none';
}

export function isEffect(value: unknown): value is Effect {
  return typeof value === 'string' && (EFFECTS as readonly string[]).includes(value);
}

/** The effects in plate order (foils first, then varnish, then the blind dies). */
export function platesIn(effects: Iterable<Effect>): Effect[] {
  const used = new Set(effects);
  return EFFECTS.filter((effect) => used.has(effect));
}
