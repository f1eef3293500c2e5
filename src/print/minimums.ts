/**
 * Line and text minimums of SVG artwork at placed size (the artwork's scale and the SVG's own
 * transforms, measured from its source: svg-measure.ts), common packaging-offset limits:
 * THIN_LINE for a stroke under 0.1 mm in one ink, or 0.2 mm when it needs two or more inks or is
 * reversed (lighter than what is under it); SMALL_TEXT for text under 6 pt in one ink, or 8 pt in
 * two or more inks or reversed. An ink counts from 5 %. Neutral colours print as one grey ink.
 * Each finding names the artwork and the smallest size measured, once per artwork.
 */
import { rgbToCmyk } from './cmyk.js';
import type { PrintCondition } from './conditions.js';
import type { Paint } from './svg-measure.js';
import type { SvgFacts } from './svg-findings.js';
import { artworkFinding, type BackgroundPaint, type Finding, type Placement, type PrintSurface, type Rgb } from './types.js';

export const MINIMUMS = {
  /** Stroke width in mm: one ink, and two or more inks or reversed. */
  lineMm: { single: 0.1, multiple: 0.2 },
  /** Text size in pt: one ink, and two or more inks or reversed. */
  textPt: { single: 6, multiple: 8 },
  /** An ink counts from this percentage. */
  inkFromPercent: 5,
  /** R, G and B within this of each other: a neutral, printed as one grey ink. */
  neutralTolerance: 3,
} as const;

const PT_PER_MM = 72 / 25.4;

const luminance = ([r, g, b]: Rgb) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/** How many inks the colour needs in the condition; an unreadable paint (a gradient) counts as several. */
export async function inkCount(paint: Paint, condition: PrintCondition): Promise<number> {
  if (paint === null) return 2;
  const [r, g, b] = paint;
  if (Math.max(r, g, b) - Math.min(r, g, b) <= MINIMUMS.neutralTolerance) {
    // One grey ink whose tint reproduces the lightness: none for white.
    return 100 - (luminance(paint) / 255) * 100 >= MINIMUMS.inkFromPercent ? 1 : 0;
  }
  const cmyk = await rgbToCmyk(paint, condition);
  return cmyk.filter((value) => value >= MINIMUMS.inkFromPercent).length;
}

/** The colour under the artwork, when the background is one (a gradient: its lightest stop). */
function colourUnder(background: BackgroundPaint | null): Rgb | null {
  if (!background) return [255, 255, 255];
  if (background.kind === 'color') return background.color;
  if (background.kind === 'gradient') {
    return background.stops.map((stop) => stop.color).sort((a, b) => luminance(b) - luminance(a))[0] ?? null;
  }
  return null;
}

const reversedOn = (paint: Paint, under: Rgb | null) => paint !== null && under !== null && luminance(paint) > luminance(under);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function minimumFindings(
  placement: Placement<PrintSurface>,
  facts: ReadonlyMap<string, SvgFacts>,
  condition: PrintCondition,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const piece of placement.pieces) {
    const under = colourUnder(piece.background);
    for (const image of piece.images) {
      const measures = facts.get(image.asset.name)?.measures;
      if (!measures || measures.unitsWide <= 0 || seen.has(image.artworkId)) continue;
      seen.add(image.artworkId);
      const mmPerUnit = image.width / measures.unitsWide;

      let thinnest: { mm: number; limit: number; inks: number; reversed: boolean } | null = null;
      for (const stroke of measures.strokes) {
        const inks = await inkCount(stroke.color, condition);
        const reversed = reversedOn(stroke.color, under);
        if (inks === 0 && !reversed) continue;
        const limit = inks >= 2 || reversed ? MINIMUMS.lineMm.multiple : MINIMUMS.lineMm.single;
        const mm = stroke.width * mmPerUnit;
        if (mm < limit && (!thinnest || mm < thinnest.mm)) thinnest = { mm, limit, inks, reversed };
      }
      if (thinnest) {
        const message = `Artwork '${image.artworkId}' has a line ${round(thinnest.mm, 3)} mm wide${describe(thinnest)}; ` +
          `the minimum is ${thinnest.limit} mm.`;
        findings.push(artworkFinding(image, 'warning', 'THIN_LINE', message));
      }

      let smallest: { pt: number; limit: number; inks: number; reversed: boolean } | null = null;
      for (const text of measures.texts) {
        const inks = await inkCount(text.fill, condition);
        const reversed = reversedOn(text.fill, under);
        if (inks === 0 && !reversed) continue;
        const limit = inks >= 2 || reversed ? MINIMUMS.textPt.multiple : MINIMUMS.textPt.single;
        const pt = text.size * mmPerUnit * PT_PER_MM;
        if (pt < limit && (!smallest || pt < smallest.pt)) smallest = { pt, limit, inks, reversed };
      }
      if (smallest) {
        const message = `Artwork '${image.artworkId}' has text set at ${round(smallest.pt, 2)} pt${describe(smallest)}; ` +
          `the minimum is ${smallest.limit} pt.`;
        findings.push(artworkFinding(image, 'warning', 'SMALL_TEXT', message));
      }
    }
  }
  return findings;
}

function describe({ inks, reversed }: { inks: number; reversed: boolean }): string {
  if (reversed) return ' reversed out of the colour under it';
  return inks >= 2 ? ` in ${inks} inks` : ' in one ink';
}
