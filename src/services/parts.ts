// Which part of a template a request means: `part` and `turnInMm` exist only for templates with
// parts (the rigid box); anywhere else they are a 400 rather than silently ignored.
import { hasParts, type DielinePart } from '../dielines/index.js';
import { badRequest } from '../errors.js';
import type { PartQuery } from '../schemas/parts.js';

export interface ResolvedPart {
  part: DielinePart;
  turnInMm?: number;
}

export const partsNotOffered = (templateId: string) =>
  `Template '${templateId}' has no parts; part and turnInMm apply to rigid-lid-box only.`;

export function resolvePart(templateId: string, query: PartQuery, fallback: DielinePart): ResolvedPart {
  if (!hasParts(templateId)) {
    if (query.part !== undefined || query.turnInMm !== undefined) throw badRequest(partsNotOffered(templateId));
    return { part: 'board' };
  }
  const part = query.part ?? fallback;
  return part === 'wrap' && query.turnInMm !== undefined ? { part, turnInMm: query.turnInMm } : { part };
}
