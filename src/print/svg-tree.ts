/**
 * A small reader of SVG source for preflight: elements with their attributes, `<style>` sheets of
 * simple selectors (type, .class, #id and their compounds), and the cascade of the few properties
 * the checks need (inline style, then the sheet by specificity, then presentation attributes, then
 * the parent's value). Entities beyond XML's five are not expanded: uploads with a DTD are refused.
 */

export interface SvgElement {
  name: string;
  attributes: Record<string, string>;
  children: SvgElement[];
  /** Character data directly inside the element. */
  text: string;
}

const ENTITIES: Readonly<Record<string, string>> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' };
const ENTITY = /&(?:#x([0-9a-f]+)|#([0-9]+)|([a-z]+));/gi;
export const decodeXml = (value: string) =>
  value.replace(ENTITY, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    const code = hex ? parseInt(hex, 16) : dec ? Number(dec) : null;
    if (code !== null) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    return ENTITIES[name!.toLowerCase()] ?? whole;
  });

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<![^>]*>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|([^<]+)/g;
const ATTRIBUTE = /([^\s=/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** The root element, or null when the text holds none. Namespace prefixes are dropped from names. */
export function parseSvg(text: string): SvgElement | null {
  const root: SvgElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: SvgElement[] = [root];
  for (const match of text.matchAll(TOKEN)) {
    const top = stack[stack.length - 1]!;
    const [, cdata, closing, opening, attributeText, selfClosing, characters] = match;
    if (cdata !== undefined) top.text += cdata;
    else if (characters !== undefined) top.text += decodeXml(characters);
    else if (closing !== undefined) {
      if (stack.length > 1) stack.pop();
    } else if (opening !== undefined) {
      const attributes: Record<string, string> = {};
      for (const [, name, double, single] of attributeText!.matchAll(ATTRIBUTE)) attributes[name!] = decodeXml(double ?? single ?? '');
      const element: SvgElement = { name: opening.replace(/^[^:]*:/, ''), attributes, children: [], text: '' };
      top.children.push(element);
      if (!selfClosing) stack.push(element);
    }
  }
  return root.children.find((child) => child.name === 'svg') ?? null;
}

interface Rule {
  specificity: number;
  order: number;
  matches(element: SvgElement): boolean;
  declarations: Record<string, string>;
}

/** `a: b; c: d` → { a: b, c: d } (lower-cased names, !important dropped). */
export function declarations(css: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of css.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const name = part.slice(0, colon).trim().toLowerCase();
    const value = part.slice(colon + 1).replace(/!important/i, '').trim();
    if (name && value) result[name] = value;
  }
  return result;
}

function selectorOf(selector: string): Omit<Rule, 'order' | 'declarations'> | null {
  const match = /^([a-zA-Z][\w-]*|\*)?((?:[.#][\w-]+)*)$/.exec(selector.trim());
  if (!match) return null;
  const type = match[1] && match[1] !== '*' ? match[1] : null;
  const parts = match[2]!.match(/[.#][\w-]+/g) ?? [];
  const classes = parts.filter((p) => p.startsWith('.')).map((p) => p.slice(1));
  const ids = parts.filter((p) => p.startsWith('#')).map((p) => p.slice(1));
  return {
    specificity: ids.length * 100 + classes.length * 10 + (type ? 1 : 0),
    matches: (element) => {
      if (type && element.name !== type) return false;
      const own = (element.attributes.class ?? '').split(/\s+/);
      return classes.every((c) => own.includes(c)) && ids.every((id) => element.attributes.id === id);
    },
  };
}

/** The rules of every `<style>` element, in document order. */
export function styleRules(root: SvgElement): Rule[] {
  const rules: Rule[] = [];
  const visit = (element: SvgElement) => {
    if (element.name === 'style') {
      const css = element.text.replace(/\/\*[\s\S]*?\*\//g, '');
      for (const [, selectors, body] of css.matchAll(/([^{}@]+)\{([^}]*)\}/g)) {
        for (const selector of selectors!.split(',')) {
          const parsed = selectorOf(selector);
          if (parsed) rules.push({ ...parsed, order: rules.length, declarations: declarations(body!) });
        }
      }
    }
    element.children.forEach(visit);
  };
  visit(root);
  return rules.sort((a, b) => a.specificity - b.specificity || a.order - b.order);
}

/** The element's own value of a property: inline style, then the sheet, then its attribute. */
export function ownValue(element: SvgElement, rules: readonly Rule[], property: string): string | undefined {
  const inline = element.attributes.style ? declarations(element.attributes.style)[property] : undefined;
  if (inline !== undefined) return inline;
  let fromSheet: string | undefined;
  for (const rule of rules) if (rule.declarations[property] !== undefined && rule.matches(element)) fromSheet = rule.declarations[property];
  return fromSheet ?? element.attributes[property];
}

export type Matrix = [number, number, number, number, number, number];
export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** How much a length grows under the matrix (the square root of its area scale). */
export const lengthScale = (m: Matrix) => Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));

/** An SVG transform list as one matrix; an unreadable list is the identity (as renderers skip it). */
export function parseTransform(value: string | undefined): Matrix {
  if (!value) return IDENTITY;
  let result = IDENTITY;
  for (const [, name, args] of value.matchAll(/([a-zA-Z]+)\s*\(([^)]*)\)/g)) {
    const n = args!.split(/[\s,]+/).filter(Boolean).map(Number);
    if (n.some((x) => !Number.isFinite(x))) return IDENTITY;
    let m: Matrix;
    switch (name) {
      case 'matrix':
        if (n.length !== 6) return IDENTITY;
        m = n as Matrix;
        break;
      case 'translate':
        m = [1, 0, 0, 1, n[0] ?? 0, n[1] ?? 0];
        break;
      case 'scale':
        m = [n[0] ?? 1, 0, 0, n[1] ?? n[0] ?? 1, 0, 0];
        break;
      case 'rotate': {
        const a = ((n[0] ?? 0) * Math.PI) / 180;
        const [cx, cy] = [n[1] ?? 0, n[2] ?? 0];
        m = multiply(multiply([1, 0, 0, 1, cx, cy], [Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), 0, 0]), [1, 0, 0, 1, -cx, -cy]);
        break;
      }
      case 'skewX':
        m = [1, 0, Math.tan(((n[0] ?? 0) * Math.PI) / 180), 1, 0, 0];
        break;
      case 'skewY':
        m = [1, Math.tan(((n[0] ?? 0) * Math.PI) / 180), 0, 1, 0, 0];
        break;
      default:
        return IDENTITY;
    }
    result = multiply(result, m);
  }
  return result;
}

/** A length in user units (px): unitless, px, pt, pc, mm, cm, in; em and % of `relativeTo`. */
export function userLength(value: string | undefined, relativeTo: number): number | null {
  if (value === undefined) return null;
  const match = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(px|pt|pc|mm|cm|in|em|%)?\s*$/i.exec(value);
  if (!match) return null;
  const n = Number(match[1]);
  const unit = (match[2] ?? '').toLowerCase();
  const factor: Record<string, number> = {
    '': 1,
    px: 1,
    pt: 4 / 3,
    pc: 16,
    mm: 96 / 25.4,
    cm: 96 / 2.54,
    in: 96,
    em: relativeTo,
    '%': relativeTo / 100,
  };
  return n * factor[unit]!;
}
