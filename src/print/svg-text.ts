/**
 * SVG text as outlines, made with the account's fonts and the bundled ones only. Before resvg
 * reads the file: every `font-family` list (attribute, style attribute, style sheet) is replaced
 * by the one family it resolves to (fonts.ts), every `<text>` gets an id (text-outline tagging,
 * below), and every `<image>`/`<feImage>` whose href is not a PNG or JPEG `data:` URI loses its
 * href, so nothing names a file, a URL or another SVG when resvg loads images. resvg then runs with
 * `fontFiles` and `loadSystemFonts: false`: the machine's fonts are never seen.
 *
 * Text-outline tagging: resvg's normalised tree keeps no sign of what was text, except that each
 * `<text>` becomes a `<g>` carrying the text's id. Those groups are marked `data-text="true"` in
 * the outlined SVG, and their ids are returned: everything inside such a group is a glyph outline.
 */
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import {
  availableFamilies,
  BUNDLED_MONO,
  BUNDLED_SANS,
  BUNDLED_SERIF,
  bundledFaces,
  chooseFamily,
  type FamilyChoice,
  type FontFace,
} from './fonts.js';
import { kept } from './memo.js';

/** The only embedded images an SVG may carry into print. */
export const EMBEDDED_IMAGE = /^\s*data:image\/(?:png|jpeg|jpg)\s*[;,]/i;

/** A start tag's attributes, quoted values holding `>` included. */
const ATTRIBUTES = `((?:[^>"']|"[^"]*"|'[^']*')*)`;
const FONT_FAMILY_ATTRIBUTE = /(\sfont-family\s*=\s*)(["'])([\s\S]*?)\2/g;
const STYLE_ATTRIBUTE = /(\sstyle\s*=\s*)(["'])([\s\S]*?)\2/g;
const STYLE_ELEMENT = /(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/g;
const CSS_FONT_FAMILY = /(font-family\s*:\s*)((?:[^;}"'<]|"[^"]*"|'[^']*')+)/g;
const TEXT_START = new RegExp(`<text(?=[\\s/>])${ATTRIBUTES}>`, 'g');
const IMAGE_START = new RegExp(`<(image|feImage)(?=[\\s/>])${ATTRIBUTES}>`, 'g');
const HREF = /(\s(?:xlink:)?href\s*=\s*)(["'])([\s\S]*?)\2/g;
const ID = /\sid\s*=\s*(["'])([\s\S]*?)\1/;

const ENTITIES: Readonly<Record<string, string>> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' };
const ENTITY = /&(?:#x([0-9a-f]+)|#([0-9]+)|([a-z]+));/gi;
const decodeEntities = (value: string) =>
  value.replace(ENTITY, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : (ENTITIES[name!.toLowerCase()] ?? whole),
  );
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** What an image href in the SVG is, for SVG_IMAGE_DROPPED. */
export function describeHref(href: string): string {
  const value = href.trim();
  if (/^data:/i.test(value)) return `an embedded ${/^data:([^;,]*)/i.exec(value)?.[1] || 'file'}`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return `${value.slice(0, 80)}`;
  if (value.startsWith('#')) return '';
  return `the file ${value.slice(0, 80)}`;
}

export interface PreparedSource {
  /** The SVG as resvg reads it. */
  text: string;
  /** Each distinct `font-family` list of the file, as it resolved. */
  families: FamilyChoice[];
  /** Whether the file has any text element. */
  hasText: boolean;
  /** The ids given to (or kept on) its `<text>` elements. */
  textIds: string[];
  /** The hrefs of images (and feImage) left out, described. */
  droppedImages: string[];
}

/**
 * Rewrites the SVG as described at the top of this module. `owned`: the owner's fonts (family
 * names); a family list none of whose families is held is written as the bundled sans (the
 * preflight reports FONT_MISSING, and print refuses).
 */
export function prepareSource(svg: string, owned: readonly { family: string }[]): PreparedSource {
  const available = availableFamilies(owned);
  const choices = new Map<string, FamilyChoice>();
  const resolve = (list: string) => {
    const decoded = decodeEntities(list).trim();
    return kept(choices, decoded, () => chooseFamily(decoded, available)).used ?? BUNDLED_SANS;
  };
  const rewriteCss = (css: string, quote: string) =>
    css.replace(CSS_FONT_FAMILY, (_whole, head: string, list: string) => `${head}${quote}${resolve(list).replace(/["'\\]/g, '')}${quote}`);

  let text = svg.replace(STYLE_ELEMENT, (_whole, open: string, css: string, close: string) => `${open}${rewriteCss(css, '"')}${close}`);
  text = text.replace(
    STYLE_ATTRIBUTE,
    (_whole, head: string, quote: string, css: string) => `${head}${quote}${rewriteCss(css, quote === '"' ? "'" : '"')}${quote}`,
  );
  text = text.replace(
    FONT_FAMILY_ATTRIBUTE,
    (_whole, head: string, quote: string, list: string) => `${head}${quote}${escapeAttribute(resolve(list))}${quote}`,
  );

  const textIds: string[] = [];
  let counter = 0;
  text = text.replace(TEXT_START, (original, attributes: string) => {
    const id = ID.exec(attributes)?.[2];
    if (id !== undefined && id !== '') {
      textIds.push(decodeEntities(id));
      return original;
    }
    let fresh: string;
    do fresh = `print-text-${++counter}`;
    while (svg.includes(fresh));
    textIds.push(fresh);
    return `<text id="${fresh}"${attributes}>`;
  });

  const droppedImages: string[] = [];
  text = text.replace(IMAGE_START, (_whole, tag: string, attributes: string) => {
    const withoutHref = attributes.replace(HREF, (hrefWhole, head: string, quote: string, href: string) => {
      const value = decodeEntities(href);
      if (tag === 'image' && EMBEDDED_IMAGE.test(value)) return hrefWhole;
      // feImage may name an element of the file; anything else is dropped.
      if (tag === 'feImage' && value.trim().startsWith('#')) return hrefWhole;
      droppedImages.push(describeHref(value) || value.slice(0, 80));
      return `${head}${quote}${quote}`;
    });
    return `<${tag}${withoutHref}>`;
  });
  return { text, families: [...choices.values()], hasText: textIds.length > 0, textIds, droppedImages };
}

/** resvg's options for outlining with the owner's faces and the bundled ones, never the machine's. */
export function resvgFontOptions(faces: readonly FontFace[]): ResvgRenderOptions {
  return {
    font: {
      loadSystemFonts: false,
      fontFiles: [...bundledFaces(), ...faces].map((face) => face.path),
      defaultFontFamily: BUNDLED_SANS,
      sansSerifFamily: BUNDLED_SANS,
      serifFamily: BUNDLED_SERIF,
      monospaceFamily: BUNDLED_MONO,
      cursiveFamily: BUNDLED_SANS,
      fantasyFamily: BUNDLED_SANS,
    },
    imageRendering: 0,
  };
}

let resvgModule: Promise<typeof import('@resvg/resvg-js')> | undefined;
const loadResvg = () => (resvgModule ??= import('@resvg/resvg-js'));

export interface OutlinedSvg {
  /** resvg's normalised SVG: text as outlines (groups marked data-text="true"), colours as #rrggbb. */
  svg: string;
  /** Ids of the text groups, as in PreparedSource. */
  textIds: string[];
}

/** The SVG with its text outlined by the owner's faces (plus the bundled ones). */
export async function outlineSvg(bytes: Buffer | string, faces: readonly FontFace[]): Promise<OutlinedSvg> {
  const { Resvg } = await loadResvg();
  const source = prepareSource(typeof bytes === 'string' ? bytes : bytes.toString('utf8'), faces);
  const normalised = new Resvg(source.text, resvgFontOptions(faces)).toString();
  const ids = new Set(source.textIds.map(escapeAttribute));
  let svg = normalised.replace(/<g id="([^"]*)"/g, (whole, id: string) => (ids.has(id) ? `${whole} data-text="true"` : whole));
  // resvg writes xlink:href even when the source declared no xlink namespace; XML readers need it.
  if (svg.includes('xlink:href') && !/<svg\b[^>]*\sxmlns:xlink=/.test(svg)) {
    svg = svg.replace(/<svg\b/, '<svg xmlns:xlink="http://www.w3.org/1999/xlink"');
  }
  return { svg, textIds: source.textIds };
}
