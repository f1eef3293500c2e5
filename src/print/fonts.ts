/**
 * The fonts text in an SVG is outlined with: the account's own fonts (as files) and the families
 * the service ships (DejaVu Sans, Serif and Sans Mono, from the dejavu-fonts-ttf package), never
 * the machine's. A `font-family` list resolves to its first family that either holds; the generic
 * `sans-serif`, `serif` and `monospace` resolve to the bundled families, and text without a
 * family uses the bundled sans.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

export type FontStyle = 'normal' | 'italic' | 'oblique';

/** One face as a file resvg can load. Plain data: it crosses to render children. */
export interface FontFace {
  family: string;
  style: FontStyle;
  weight: number;
  path: string;
}

export const BUNDLED_SANS = 'DejaVu Sans';
export const BUNDLED_SERIF = 'DejaVu Serif';
export const BUNDLED_MONO = 'DejaVu Sans Mono';

const BUNDLED_FILES: ReadonlyArray<[family: string, style: FontStyle, weight: number, file: string]> = [
  [BUNDLED_SANS, 'normal', 400, 'DejaVuSans.ttf'],
  [BUNDLED_SANS, 'normal', 700, 'DejaVuSans-Bold.ttf'],
  [BUNDLED_SANS, 'oblique', 400, 'DejaVuSans-Oblique.ttf'],
  [BUNDLED_SANS, 'oblique', 700, 'DejaVuSans-BoldOblique.ttf'],
  [BUNDLED_SERIF, 'normal', 400, 'DejaVuSerif.ttf'],
  [BUNDLED_SERIF, 'normal', 700, 'DejaVuSerif-Bold.ttf'],
  [BUNDLED_SERIF, 'italic', 400, 'DejaVuSerif-Italic.ttf'],
  [BUNDLED_SERIF, 'italic', 700, 'DejaVuSerif-BoldItalic.ttf'],
  [BUNDLED_MONO, 'normal', 400, 'DejaVuSansMono.ttf'],
  [BUNDLED_MONO, 'normal', 700, 'DejaVuSansMono-Bold.ttf'],
  [BUNDLED_MONO, 'oblique', 400, 'DejaVuSansMono-Oblique.ttf'],
  [BUNDLED_MONO, 'oblique', 700, 'DejaVuSansMono-BoldOblique.ttf'],
];

const bundledDirectory = () => path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');

let bundled: FontFace[] | undefined;
/** The faces the service ships. */
export function bundledFaces(): readonly FontFace[] {
  const directory = bundledDirectory();
  return (bundled ??= BUNDLED_FILES.map(([family, style, weight, file]) => ({ family, style, weight, path: path.join(directory, file) })));
}

/** The bundled families with their styles, as GET /fonts lists them. */
export function bundledFamilies(): { family: string; styles: { style: FontStyle; weight: number }[] }[] {
  const families = new Map<string, { style: FontStyle; weight: number }[]>();
  for (const [family, style, weight] of BUNDLED_FILES) families.set(family, [...(families.get(family) ?? []), { style, weight }]);
  return [...families].map(([family, styles]) => ({ family, styles }));
}

const GENERIC: Readonly<Record<string, string>> = { 'sans-serif': BUNDLED_SANS, serif: BUNDLED_SERIF, monospace: BUNDLED_MONO };

/** A font-family list's names in order, quotes and escapes removed. */
export function familyNames(list: string): string[] {
  const names: string[] = [];
  const pattern = /\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^,]+))\s*(?:,|$)/gy;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < list.length && (match = pattern.exec(list))) {
    const quoted = match[1] ?? match[2];
    const name = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : match[3]!.trim().replace(/\s+/g, ' ');
    if (name) names.push(name);
    if (match[0].length === 0) break;
  }
  return names;
}

/** How one `font-family` list resolves: the family asked for first, and the one used (null: none held). */
export interface FamilyChoice {
  asked: string;
  used: string | null;
  /** A later family of the list is used: the first is not available. */
  substituted: boolean;
}

/** Families available by lower-cased name: the owner's (as they spell them) and the bundled ones. */
export function availableFamilies(owned: readonly { family: string }[]): Map<string, string> {
  const families = new Map<string, string>();
  for (const [family] of BUNDLED_FILES) families.set(family.toLowerCase(), family);
  for (const { family } of owned) families.set(family.toLowerCase(), family);
  return families;
}

/** The first family of the list that is available; a generic name maps to its bundled family. */
export function chooseFamily(list: string, available: ReadonlyMap<string, string>): FamilyChoice {
  const names = familyNames(list);
  if (names.length === 0) return { asked: BUNDLED_SANS, used: BUNDLED_SANS, substituted: false };
  for (const [index, name] of names.entries()) {
    const used = GENERIC[name.toLowerCase()] ?? available.get(name.toLowerCase());
    if (used) return { asked: names[0]!, used, substituted: index > 0 };
  }
  return { asked: names[0]!, used: null, substituted: false };
}
