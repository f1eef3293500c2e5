/** Which dieline style each catalog template uses, and each style's generator and limits. */
import type { StyleGeometry } from './draft.js';
import { DielineUnsupportedError } from './errors.js';
import type { StyleLimits } from './limits.js';
import { buildRegularSlottedContainer, RSC_LIMITS, RSC_SUBJECT } from './styles/fefco-0201.js';
import { buildMailer, MAILER_LIMITS, MAILER_SUBJECT } from './styles/fefco-0427.js';
import { buildRigidTwoPiece, RIGID_LIMITS, RIGID_SUBJECT } from './styles/rigid-two-piece.js';
import { AUTO_BOTTOM_LIMITS, AUTO_BOTTOM_SUBJECT, buildTuckTopAutoBottom } from './styles/tuck-top-auto-bottom.js';
import { buildTuckEndCarton, REVERSE_TUCK_END_SUBJECT, STRAIGHT_TUCK_END_SUBJECT, TUCK_END_LIMITS } from './styles/tuck-end.js';
import type { BoxDimensions, BoxStyleId as DielineStyleId, StructureOptions, TuckLock } from './types.js';

export interface StyleContext {
  bleedMm: number;
  /** Tuck-end styles only. */
  lock: TuckLock;
  /** Rigid box only. */
  lidHeightMm?: number;
}

/** Structure options only some styles take (nicks apply to every box style). */
export type StyleOption = Exclude<keyof StructureOptions, 'nicks' | 'nickWidthMm'>;

export interface StyleDefinition {
  id: DielineStyleId;
  name: string;
  /** Completes "… is too small for <subject>". */
  subject: string;
  limits: StyleLimits;
  options: readonly StyleOption[];
  build(inside: BoxDimensions, thicknessMm: number, context: StyleContext): StyleGeometry;
}

export const STYLE_DEFINITIONS: Readonly<Record<DielineStyleId, StyleDefinition>> = {
  'fefco-0427': {
    id: 'fefco-0427',
    name: 'FEFCO 0427 roll-end tuck-front mailer',
    subject: MAILER_SUBJECT,
    limits: MAILER_LIMITS,
    options: [],
    build: (inside, t) => buildMailer(inside, t),
  },
  'fefco-0201': {
    id: 'fefco-0201',
    name: 'FEFCO 0201 regular slotted container',
    subject: RSC_SUBJECT,
    limits: RSC_LIMITS,
    options: [],
    build: (inside, t) => buildRegularSlottedContainer(inside, t),
  },
  'ecma-reverse-tuck-end': {
    id: 'ecma-reverse-tuck-end',
    name: 'ECMA reverse tuck end carton',
    subject: REVERSE_TUCK_END_SUBJECT,
    limits: TUCK_END_LIMITS,
    options: ['lock'],
    build: (inside, t, context) => buildTuckEndCarton(inside, t, 'front', REVERSE_TUCK_END_SUBJECT, context.lock),
  },
  'ecma-straight-tuck-end': {
    id: 'ecma-straight-tuck-end',
    name: 'ECMA straight tuck end carton',
    subject: STRAIGHT_TUCK_END_SUBJECT,
    limits: TUCK_END_LIMITS,
    options: ['lock'],
    build: (inside, t, context) => buildTuckEndCarton(inside, t, 'back', STRAIGHT_TUCK_END_SUBJECT, context.lock),
  },
  'tuck-top-auto-bottom': {
    id: 'tuck-top-auto-bottom',
    name: 'Tuck top, auto (crash-lock) bottom carton',
    subject: AUTO_BOTTOM_SUBJECT,
    limits: AUTO_BOTTOM_LIMITS,
    options: ['lock'],
    build: (inside, t, context) => buildTuckTopAutoBottom(inside, t, context.lock),
  },
  'rigid-two-piece': {
    id: 'rigid-two-piece',
    name: 'Two-piece rigid set-up box (base and lid trays)',
    subject: RIGID_SUBJECT,
    limits: RIGID_LIMITS,
    options: ['lidHeightMm'],
    build: (inside, t, context) => buildRigidTwoPiece(inside, t, context.bleedMm, context.lidHeightMm),
  },
};

/** Template id → dieline style id, for every template with `dielineAvailable: true`. */
export const DIELINE_STYLES: Readonly<Record<string, DielineStyleId>> = {
  'mailer-box': 'fefco-0427',
  'rsc-box': 'fefco-0201',
  'reverse-tuck-carton': 'ecma-reverse-tuck-end',
  'straight-tuck-box': 'ecma-straight-tuck-end',
  'auto-bottom-box': 'tuck-top-auto-bottom',
  'rigid-lid-box': 'rigid-two-piece',
};

export function isDielineTemplate(templateId: string): boolean {
  return Object.hasOwn(DIELINE_STYLES, templateId);
}

/** The templates whose style takes `option`, in catalog order. */
export function templatesTaking(option: StyleOption): string[] {
  return Object.entries(DIELINE_STYLES)
    .filter(([, style]) => STYLE_DEFINITIONS[style].options.includes(option))
    .map(([templateId]) => templateId);
}

export function styleForTemplate(templateId: string): StyleDefinition {
  if (!isDielineTemplate(templateId)) throw new DielineUnsupportedError(templateId);
  return STYLE_DEFINITIONS[DIELINE_STYLES[templateId]!];
}
