// What rasterising an SVG may cost, decided on the tree resvg parses (usvg: CSS resolved, `use`
// expanded, units resolved), never on the file's text, so a `style` rule, a CSS `filter`
// attribute, a fake root in a comment or objectBoundingBox units cannot hide a filter. The model
// (docs/rendering.md):
// - nodes: at most MAX_SVG_NODES elements once every `use` is expanded. Counted first on the
//   markup (each `use` weighs what it points to), so a nested `use` bomb is refused before resvg
//   would expand it, then again on the parsed tree.
// - filters: each filtered element costs its filter region in pixels, the SVG drawn at COST_SIDE_PX
//   on its longer side (objectBoundingBox fractions taken of the whole canvas; a region at most the
//   canvas), times the sum of its primitives' weights (PRIMITIVE_WEIGHTS; a morphology's grows with
//   its radius, a turbulence's with its octaves, a convolution's with its kernel). The sum over the
//   document is at most FILTER_BUDGET. Parameters past the caps below are refused outright, and an
//   SVG with filters is at most COST_SIDE_PX² pixels at its own size.
// - files: an `href` that is not `data:` or a fragment is emptied before anything parses the SVG,
//   so rasterising opens no file and no device and fetches nothing.
import { Resvg } from '@resvg/resvg-js';

/** The side the cost is measured at: the largest raster the service makes of an SVG. */
export const COST_SIDE_PX = 4096;
/** Elements after `use` expansion. */
export const MAX_SVG_NODES = 20_000;
/** Filter region pixels × primitive weights, summed over the document's filtered elements. */
export const FILTER_BUDGET = 2_000_000_000;
/** feGaussianBlur and feDropShadow stdDeviation, in pixels at COST_SIDE_PX. */
export const MAX_BLUR_PX = 200;
/** feMorphology radius, in pixels at COST_SIDE_PX. */
export const MAX_MORPHOLOGY_PX = 24;
export const MAX_TURBULENCE_OCTAVES = 4;
export const MAX_CONVOLVE_ORDER = 9;
/** Filter primitives in one document. */
export const MAX_FILTER_PRIMITIVES = 100;
/** An SVG with filters is at most this many pixels at its own size (librsvg draws it at that size). */
export const MAX_FILTERED_PIXELS = COST_SIDE_PX * COST_SIDE_PX;

/** Work per region pixel of one primitive; morphology, turbulence and convolution add their parameter. */
export const PRIMITIVE_WEIGHTS: Readonly<Record<string, number>> = {
  feGaussianBlur: 4,
  feDropShadow: 6,
  feDiffuseLighting: 16,
  feSpecularLighting: 16,
  feImage: 2,
  feTile: 2,
};

/** The SVG costs more than a render may spend; the message names the first reason. */
export class SvgTooCostlyError extends Error {
  constructor(readonly reason: string) {
    super(`The SVG is too costly to render: ${reason}.`);
    this.name = 'SvgTooCostlyError';
  }
}

/** A start or end tag's attributes, quoted values holding `>` included. */
const ATTRIBUTES = `((?:[^>"']|"[^"]*"|'[^']*')*)`;
const TAG = new RegExp(`<(/?)([A-Za-z_][\\w.:-]*)${ATTRIBUTES}>`, 'g');
const COMMENT_OR_CDATA = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;
const HREF = /(\s(?:[\w.-]+:)?href\s*=\s*)(["'])(?!\s*(?:data:|#))[^"']*\2/gi;

function attribute(attributes: string, name: string): string | null {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(["'])([\\s\\S]*?)\\1`).exec(attributes);
  return match ? match[2]!.trim() : null;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The SVG with every `href` that is not `data:` or a fragment emptied. */
export function withoutExternalReferences(text: string): string {
  return text.replace(HREF, '$1$2#$2');
}

/**
 * Elements once each `use` is expanded, from the markup: a `use` counts as what its fragment names
 * (recursion counts nothing, as resvg draws nothing for it). Tags inside comments are counted too,
 * so the count is never less than the tree's.
 */
export function expandedNodeCount(text: string): number {
  interface Node {
    children: Node[];
    use: string | null;
    weight?: number;
  }
  const root: Node = { children: [], use: null };
  const stack: Node[] = [root];
  const byId = new Map<string, Node>();
  for (const [whole, closing, name, attributes] of text.replace(COMMENT_OR_CDATA, ' ').matchAll(TAG)) {
    if (closing) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const href = localName(name!) === 'use' ? (attribute(attributes!, '(?:[\\w.-]+:)?href') ?? '') : '';
    const node: Node = { children: [], use: href.startsWith('#') ? href.slice(1) : null };
    stack.at(-1)!.children.push(node);
    const id = attribute(attributes!, 'id');
    if (id !== null && !byId.has(id)) byId.set(id, node);
    if (!whole.endsWith('/>')) stack.push(node);
  }
  const visiting = new Set<Node>();
  const weigh = (node: Node): number => {
    if (node.weight !== undefined) return node.weight;
    if (visiting.has(node)) return 0;
    visiting.add(node);
    let weight = 1;
    for (const child of node.children) weight = Math.min(Number.MAX_SAFE_INTEGER, weight + weigh(child));
    const target = node.use === null ? undefined : byId.get(node.use);
    if (target) weight = Math.min(Number.MAX_SAFE_INTEGER, weight + weigh(target));
    visiting.delete(node);
    node.weight = weight;
    return weight;
  };
  return weigh(root) - 1;
}

const numbers = (value: string | null): number[] =>
  (value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number)
    .filter(Number.isFinite);

function capped(name: string, parameter: string, value: number, max: number, unit: string): void {
  const at = unit ? ` at ${COST_SIDE_PX} px` : '';
  if (value > max) {
    throw new SvgTooCostlyError(`${name} ${parameter} is ${Math.round(value)}${unit}${at}, at most ${max}${unit} is rendered`);
  }
}

/** What the filters of the parsed tree cost (see the model above); throws past a cap or the budget. */
function filterCost(tree: string, width: number, height: number): number {
  // Pixels at the cost side per user unit: the root's viewBox scale times the cost side's.
  const [, , boxW = width, boxH = height] = numbers(/<svg\b[^>]*\sviewBox="([^"]*)"/.exec(tree)?.[1] ?? null);
  const canvasW = (width * COST_SIDE_PX) / Math.max(width, height, 1);
  const canvasH = (height * COST_SIDE_PX) / Math.max(width, height, 1);
  const scale = Math.max(canvasW / Math.max(boxW, 1e-9), canvasH / Math.max(boxH, 1e-9));
  const filters = new Map<string, number>();
  let primitives = 0;
  for (const [, id, attributes, body] of tree.matchAll(/<filter id="([^"]*)"([^>]*)>([\s\S]*?)<\/filter>/g)) {
    const userSpace = attribute(attributes!, 'filterUnits') === 'userSpaceOnUse';
    const boundingBoxPrimitives = attribute(attributes!, 'primitiveUnits') === 'objectBoundingBox';
    const regionW = Math.abs(Number(attribute(attributes!, 'width') ?? 1.2)) * (userSpace ? scale : canvasW);
    const regionH = Math.abs(Number(attribute(attributes!, 'height') ?? 1.2)) * (userSpace ? scale : canvasH);
    const regionPx = Math.min(regionW, canvasW) * Math.min(regionH, canvasH);
    // A primitive length in pixels at the cost side: bounding-box fractions of the canvas.
    const px = (values: number[], axis = 0) =>
      Math.max(0, ...values.map((v, i) => Math.abs(v) * (boundingBoxPrimitives ? (i || axis ? canvasH : canvasW) : scale)));
    let weight = 0;
    for (const [, name, primitive] of body!.matchAll(/<(fe[A-Z][A-Za-z]*)\b([^>]*)>/g)) {
      primitives++;
      const value = (parameter: string) => attribute(primitive!, parameter);
      switch (name) {
        case 'feGaussianBlur':
        case 'feDropShadow':
          capped(name, 'stdDeviation', px(numbers(value('stdDeviation'))), MAX_BLUR_PX, ' px');
          break;
        case 'feMorphology': {
          const [rx = 0, ry = rx] = numbers(value('radius'));
          const radiusX = px([rx]);
          const radiusY = px([ry], 1);
          capped(name, 'radius', Math.max(radiusX, radiusY), MAX_MORPHOLOGY_PX, ' px');
          weight += 2 * (radiusX + radiusY) + 1;
          break;
        }
        case 'feTurbulence': {
          const octaves = Math.max(1, ...numbers(value('numOctaves')));
          capped(name, 'numOctaves', octaves, MAX_TURBULENCE_OCTAVES, '');
          weight += 8 * octaves;
          break;
        }
        case 'feConvolveMatrix': {
          const [orderX = 3, orderY = orderX] = numbers(value('order'));
          capped(name, 'order', Math.max(orderX, orderY), MAX_CONVOLVE_ORDER, '');
          weight += orderX * orderY;
          break;
        }
      }
      weight += PRIMITIVE_WEIGHTS[name!] ?? 1;
    }
    filters.set(id!, regionPx * weight);
  }
  if (primitives > 0 && width * height > MAX_FILTERED_PIXELS) {
    throw new SvgTooCostlyError(
      `a filtered image of ${Math.round(width)} × ${Math.round(height)} px, ` +
        `at most ${COST_SIDE_PX} × ${COST_SIDE_PX} px is rendered with filters`,
    );
  }
  if (primitives > MAX_FILTER_PRIMITIVES) {
    throw new SvgTooCostlyError(`${primitives} filter primitives, at most ${MAX_FILTER_PRIMITIVES} are rendered`);
  }
  let total = 0;
  for (const [, id] of tree.matchAll(/\sfilter="url\(#([^)"]*)\)"/g)) total += filters.get(id!) ?? 0;
  return total;
}

/**
 * Checks the SVG against the model and returns it ready to rasterise (external references
 * emptied); throws SvgTooCostlyError when it costs more. An SVG resvg cannot parse passes
 * unchanged: the rasteriser then refuses it as unreadable.
 */
export function boundedSvg(svg: Buffer | string): Buffer {
  const text = withoutExternalReferences(typeof svg === 'string' ? svg : svg.toString('utf8'));
  const requireNodes = (count: number) => {
    if (count <= MAX_SVG_NODES) return;
    throw new SvgTooCostlyError(`${count} elements once \`use\` is expanded, at most ${MAX_SVG_NODES} are rendered`);
  };
  requireNodes(expandedNodeCount(text));
  let parsed: Resvg;
  let tree: string;
  try {
    parsed = new Resvg(text, { font: { loadSystemFonts: false }, logLevel: 'off' });
    tree = parsed.toString();
  } catch {
    return Buffer.from(text);
  }
  requireNodes(tree.match(/<[A-Za-z]/g)?.length ?? 0);
  const cost = filterCost(tree, parsed.width, parsed.height);
  if (cost > FILTER_BUDGET) {
    throw new SvgTooCostlyError(
      `its filters cost ${(cost / 1e6).toFixed(0)} M pixel operations at ${COST_SIDE_PX} px, at most ${FILTER_BUDGET / 1e6} M are rendered`,
    );
  }
  return Buffer.from(text);
}

/** The SVG ready to rasterise or draw (as boundedSvg), or null when the model refuses it: the caller leaves it out. */
export function withinCostModel(svg: Buffer | string): Buffer | null {
  try {
    return boundedSvg(svg);
  } catch (error) {
    if (error instanceof SvgTooCostlyError) return null;
    throw error;
  }
}
