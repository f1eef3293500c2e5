/**
 * The exact intrinsic size of an SVG: its viewBox, else its width and height (numbers with an
 * absolute unit or none). Placement keeps this aspect ratio rather than the rounded pixel size a
 * rasteriser reports, so a symbol placed at a given width has exactly its height.
 */
const UNIT_MM: Readonly<Record<string, number>> = {
  '': 25.4 / 96,
  px: 25.4 / 96,
  pt: 25.4 / 72,
  pc: 25.4 / 6,
  mm: 1,
  cm: 10,
  in: 25.4,
  q: 0.25,
};

function length(value: string | undefined): number | null {
  const match = value === undefined ? null : /^\s*([0-9]*\.?[0-9]+(?:e[-+]?\d+)?)\s*(px|pt|pc|mm|cm|in|q)?\s*$/i.exec(value);
  if (!match) return null;
  const n = Number(match[1]) * UNIT_MM[(match[2] ?? '').toLowerCase()]!;
  return n > 0 && Number.isFinite(n) ? n : null;
}

/** Width and height in the SVG's own proportions, or null when the root states neither. */
export function svgIntrinsicSize(svg: string): { width: number; height: number } | null {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0];
  if (!root) return null;
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root)?.[1];
  const viewBox = attribute('viewBox')?.trim().split(/[\s,]+/).map(Number);
  if (viewBox?.length === 4 && viewBox.every(Number.isFinite) && viewBox[2]! > 0 && viewBox[3]! > 0) {
    return { width: viewBox[2]!, height: viewBox[3]! };
  }
  const width = length(attribute('width'));
  const height = length(attribute('height'));
  return width !== null && height !== null ? { width, height } : null;
}
