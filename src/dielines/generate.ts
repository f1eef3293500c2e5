import { assembleDieline } from './assemble.js';
import { DielineOptionError, DielineSizeError } from './errors.js';
import { BLEED_LIMITS, checkStaticLimits, requireInRange, type StyleLimits } from './limits.js';
import { DEFAULT_NICK_WIDTH_MM, NICK_COUNT_LIMITS, NICK_WIDTH_LIMITS, type NickSpec } from './nicks.js';
import { styleForTemplate, templatesTaking, type StyleDefinition, type StyleOption } from './registry.js';
import { defaultThicknessMm } from './thickness.js';
import type { BoxDimensions, Dieline, DielineOptions, DielineStyleId, StructureOptions } from './types.js';

/** EU norm; the US uses 1/8″ (3.175 mm). */
export const DEFAULT_BLEED_MM = 3;

/**
 * Builds the dieline of a catalog template at the given inside dimensions.
 * Throws `DielineUnsupportedError` when the template has no dieline style and `DielineSizeError`
 * (naming the offending parameter) when the style cannot be built at that size or thickness.
 */
export function generateDieline(templateId: string, dims: BoxDimensions, options: DielineOptions = {}): Dieline {
  const style = styleForTemplate(templateId);
  const thicknessMm = options.thicknessMm ?? defaultThicknessMm(templateId, options.material);
  const bleedMm = options.bleedMm ?? DEFAULT_BLEED_MM;
  const inside: BoxDimensions = { widthMm: dims.widthMm, heightMm: dims.heightMm, depthMm: dims.depthMm };
  checkStaticLimits(inside, thicknessMm, style.limits, style.subject);
  requireInRange('bleedMm', bleedMm, BLEED_LIMITS, 'a dieline');
  const structure = options.structure ?? {};
  requireStyleOptions(style, structure);
  const nicks = nickSpec(structure);
  const geometry = style.build(inside, thicknessMm, {
    bleedMm,
    lock: structure.lock ?? 'slit',
    ...(structure.lidHeightMm !== undefined ? { lidHeightMm: structure.lidHeightMm } : {}),
  });
  return assembleDieline({
    ...(nicks ? { nicks } : {}),
    templateId,
    style: style.id,
    styleName: style.name,
    thicknessMm,
    bleedMm,
    inside,
    geometry,
  });
}

/** An option the style does not take → DielineOptionError naming the templates that take it. */
function requireStyleOptions(style: StyleDefinition, structure: StructureOptions): void {
  for (const option of ['lock', 'lidHeightMm'] as const satisfies readonly StyleOption[]) {
    if (structure[option] !== undefined && !style.options.includes(option)) throw new DielineOptionError(option, templatesTaking(option));
  }
}

function nickSpec(structure: StructureOptions): NickSpec | undefined {
  const count = structure.nicks ?? 0;
  const width = structure.nickWidthMm ?? DEFAULT_NICK_WIDTH_MM;
  if (!Number.isInteger(count) || count < NICK_COUNT_LIMITS.min || count > NICK_COUNT_LIMITS.max) {
    throw new DielineSizeError(
      'nicks',
      `nicks must be a whole number from ${NICK_COUNT_LIMITS.min} to ${NICK_COUNT_LIMITS.max}.`,
      'invalid',
    );
  }
  requireInRange('nickWidthMm', width, NICK_WIDTH_LIMITS, 'a nick');
  return count > 0 ? { count, width } : undefined;
}

export interface DielineTemplateInfo {
  templateId: string;
  style: DielineStyleId;
  styleName: string;
  /** Outer bounds per parameter; some combinations inside them are still rejected. */
  limits: StyleLimits & { bleedMm: { min: number; max: number } };
  defaultThicknessMm: number;
  defaultBleedMm: number;
}

/** Style, bounds and defaults of a template, e.g. for request validation or an OpenAPI schema. */
export function dielineTemplateInfo(templateId: string): DielineTemplateInfo {
  const style = styleForTemplate(templateId);
  return {
    templateId,
    style: style.id,
    styleName: style.name,
    limits: {
      widthMm: { ...style.limits.widthMm },
      heightMm: { ...style.limits.heightMm },
      depthMm: { ...style.limits.depthMm },
      thicknessMm: { ...style.limits.thicknessMm },
      bleedMm: { ...BLEED_LIMITS },
    },
    defaultThicknessMm: defaultThicknessMm(templateId),
    defaultBleedMm: DEFAULT_BLEED_MM,
  };
}
