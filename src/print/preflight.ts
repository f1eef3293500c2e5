/**
 * Preflight: the findings of a placement plus the checks that need the template (material), and
 * the findings for designs that cannot be placed at all (no dieline, a size the style cannot build).
 */
import { boardTooThin } from '../dielines/board.js';
import { formatNumber } from '../dielines/format.js';
import type { Dieline } from '../dielines/types.js';
import { effectFindings } from './effect-findings.js';
import { DEFAULT_GLUE_AREAS, structureFindings, type StructureOptions } from './preflight-structure.js';
import type { Finding, Placement } from './types.js';

export interface PreflightReport {
  ready: boolean;
  findings: Finding[];
}

const RANK: Readonly<Record<Finding['severity'], number>> = { error: 2, warning: 1, info: 0 };

/**
 * The findings once per artwork and code (the most severe, the first among equals, in the place
 * of the first); findings about no artwork once per code, panel and message.
 */
export function report(findings: Finding[]): PreflightReport {
  const kept = new Map<string, Finding>();
  for (const finding of findings) {
    const key = JSON.stringify(
      finding.artworkId ? [finding.code, finding.artworkId] : [finding.code, finding.panelId ?? null, finding.message],
    );
    const earlier = kept.get(key);
    if (!earlier || RANK[finding.severity] > RANK[earlier.severity]) kept.set(key, finding);
  }
  const once = [...kept.values()];
  return { ready: !once.some((finding) => finding.severity === 'error'), findings: once };
}

export function noDielineFinding(templateId: string): Finding {
  return { severity: 'error', code: 'TEMPLATE_HAS_NO_DIELINE', message: `Template '${templateId}' has no dieline.` };
}

export function dielineSizeFinding(message: string): Finding {
  return { severity: 'error', code: 'DIELINE_SIZE', message };
}

export function materialFindings(material: unknown, offered: readonly string[], templateId: string): Finding[] {
  if (typeof material !== 'string' || offered.includes(material)) return [];
  return [
    {
      severity: 'warning',
      code: 'MATERIAL_NOT_OFFERED',
      message: `Material '${material}' is not offered for template '${templateId}' (offered: ${offered.join(', ')}).`,
    },
  ];
}

/** BOARD_TOO_THIN: a folding carton on board thinner than max(0.3 mm, largest inside dimension ÷ 600). */
export function boardFindings(surface: object): Finding[] {
  if (!('style' in surface && 'dimensions' in surface && 'thicknessMm' in surface)) return [];
  const dieline = surface as Pick<Dieline, 'style' | 'dimensions' | 'thicknessMm'>;
  const wanted = boardTooThin(dieline);
  if (wanted === null) return [];
  return [
    {
      severity: 'warning',
      code: 'BOARD_TOO_THIN',
      message:
        `Board of ${formatNumber(dieline.thicknessMm)} mm is too thin for this carton: ` +
        `it wants at least ${formatNumber(Math.ceil(wanted * 100) / 100)} mm (the largest inside dimension ÷ 600, at least 0.3 mm).`,
    },
  ];
}

export function preflightPlacement(
  placement: Placement,
  material: unknown,
  offered: readonly string[],
  options: StructureOptions = {},
): PreflightReport {
  const structure = structureFindings(placement, options);
  return report([
    ...placement.findings,
    ...structure,
    ...boardFindings(placement.dieline),
    ...materialFindings(material, offered, placement.dieline.templateId),
    ...effectFindings(placement, structure, material, options.glueAreas ?? DEFAULT_GLUE_AREAS),
  ]);
}
