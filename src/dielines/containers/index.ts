/**
 * Print layouts of the five containers, as `Dieline`s the print, preview, preflight, texture and
 * die-format pipelines read like a box's blank: the bottle's and jar's wrap-around label or shrink
 * sleeve, the can's decoration band, the tube's laminate and the stand-up pouch's web. Options:
 * `labelStyle` (bottle, jar), `overlapMm` (label), `fitMm` (sleeve), `seamMm` (sleeve, tube).
 */
import { DielineSizeError } from '../errors.js';
import { BLEED_LIMITS, requireInRange } from '../limits.js';
import type { BoxDimensions, ContainerStyleId } from '../types.js';
import { buildCanBand } from './band.js';
import { requireContainerSize, type ContainerKind } from './figures.js';
import { buildWrapLabel } from './label.js';
import { buildTubeLaminate, TUBE_SEAM_DEFAULT_MM } from './laminate.js';
import type { ContainerLayout } from './layout.js';
import { buildDoyenPouch } from './pouch.js';
import { buildShrinkSleeve } from './sleeve.js';

export { CONTAINER_LIMITS, type ContainerKind } from './figures.js';
export type { ContainerLayout } from './layout.js';

export const CONTAINER_STYLE_IDS: readonly ContainerStyleId[] = ['wrap-label', 'shrink-sleeve', 'can-band', 'tube-laminate', 'doyen-pouch'];
export const CONTAINER_KINDS: readonly ContainerKind[] = ['bottle', 'jar', 'can', 'tube', 'pouch'];

export const LABEL_STYLES = ['label', 'sleeve'] as const;
export type LabelStyle = (typeof LABEL_STYLES)[number];

export interface ContainerOptions {
  labelStyle?: LabelStyle;
  overlapMm?: number;
  fitMm?: number;
  seamMm?: number;
}

export const CONTAINER_OPTION_NAMES = ['labelStyle', 'overlapMm', 'fitMm', 'seamMm'] as const;
export type ContainerOptionName = (typeof CONTAINER_OPTION_NAMES)[number];

export const OVERLAP_LIMITS = { min: 0, max: 30 } as const;
export const FIT_LIMITS = { min: 0, max: 10 } as const;
export const SEAM_LIMITS = { min: 2, max: 20 } as const;
export const OVERLAP_DEFAULT_MM = 6;
export const FIT_DEFAULT_MM = 3;
export const SLEEVE_SEAM_DEFAULT_MM = 7;
export { TUBE_SEAM_DEFAULT_MM };

/** An option sent to a template (or label style) it does not apply to: a 400 in the routes. */
export class ContainerOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContainerOptionError';
  }
}

export function isContainerKind(kind: string): kind is ContainerKind {
  return (CONTAINER_KINDS as readonly string[]).includes(kind);
}

/** Which options a template takes, given the label style. */
function applicable(kind: ContainerKind | 'box', labelStyle: LabelStyle): readonly ContainerOptionName[] {
  if (kind === 'bottle' || kind === 'jar') return labelStyle === 'label' ? ['labelStyle', 'overlapMm'] : ['labelStyle', 'fitMm', 'seamMm'];
  if (kind === 'tube') return ['seamMm'];
  return [];
}

/**
 * The options a request sent, checked against the template (`kind` 'box' takes none). Throws
 * ContainerOptionError naming the first option that does not apply.
 */
export function checkContainerOptions(templateId: string, kind: ContainerKind | 'box', options: ContainerOptions): void {
  const labelStyle = options.labelStyle ?? 'label';
  const allowed = applicable(kind, labelStyle);
  for (const name of CONTAINER_OPTION_NAMES) {
    if (options[name] === undefined || allowed.includes(name)) continue;
    const styled = (kind === 'bottle' || kind === 'jar') && name !== 'labelStyle';
    throw new ContainerOptionError(
      styled
        ? `Option '${name}' does not apply to template '${templateId}' with labelStyle=${labelStyle}.`
        : `Option '${name}' does not apply to template '${templateId}'.`,
    );
  }
}

/** Only the options that change the layout, with their defaults: what a cache key or ETag needs. */
export function resolvedContainerOptions(
  kind: ContainerKind,
  options: ContainerOptions,
): Required<ContainerOptions> | Record<string, never> {
  if (kind === 'bottle' || kind === 'jar') {
    return {
      labelStyle: options.labelStyle ?? 'label',
      overlapMm: options.overlapMm ?? OVERLAP_DEFAULT_MM,
      fitMm: options.fitMm ?? FIT_DEFAULT_MM,
      seamMm: options.seamMm ?? SLEEVE_SEAM_DEFAULT_MM,
    };
  }
  if (kind === 'tube') return { labelStyle: 'label', overlapMm: 0, fitMm: 0, seamMm: options.seamMm ?? TUBE_SEAM_DEFAULT_MM };
  return {};
}

/**
 * The container's print layout at its dimensions (d = widthMm, the body's outside diameter). Throws
 * DielineSizeError outside the container's size limits, ContainerOptionError for an option the
 * template does not take.
 */
export function generateContainerLayout(
  templateId: string,
  kind: ContainerKind,
  dims: BoxDimensions,
  options: ContainerOptions = {},
  bleedMm = 3,
): ContainerLayout {
  checkContainerOptions(templateId, kind, options);
  requireContainerSize(kind, dims);
  requireInRange('bleedMm', bleedMm, BLEED_LIMITS, 'a dieline');
  const range = (name: 'overlapMm' | 'fitMm' | 'seamMm', value: number, limit: { min: number; max: number }) => {
    if (!(value >= limit.min && value <= limit.max)) {
      throw new ContainerOptionError(`Option '${name}' must be between ${limit.min} and ${limit.max} mm.`);
    }
    return value;
  };
  const context = { templateId, dims: { widthMm: dims.widthMm, heightMm: dims.heightMm, depthMm: dims.depthMm }, bleedMm };
  switch (kind) {
    case 'bottle':
    case 'jar':
      if ((options.labelStyle ?? 'label') === 'sleeve') {
        const fitMm = range('fitMm', options.fitMm ?? FIT_DEFAULT_MM, FIT_LIMITS);
        return buildShrinkSleeve(context, kind, fitMm, range('seamMm', options.seamMm ?? SLEEVE_SEAM_DEFAULT_MM, SEAM_LIMITS));
      }
      return buildWrapLabel(context, kind, range('overlapMm', options.overlapMm ?? OVERLAP_DEFAULT_MM, OVERLAP_LIMITS));
    case 'can':
      return buildCanBand(context);
    case 'tube':
      return buildTubeLaminate(context, range('seamMm', options.seamMm ?? TUBE_SEAM_DEFAULT_MM, SEAM_LIMITS));
    case 'pouch':
      return buildDoyenPouch(context);
  }
}

export { DielineSizeError };
