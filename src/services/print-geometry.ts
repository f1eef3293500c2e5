// What a project prints on: a box template's dieline, or a container's print layout (label,
// sleeve, band, laminate or pouch web) at the options the request gives. Both are Dielines, so
// placement, preflight, the print PDF, the preview and the 3D texture treat them alike.
import type { Template } from '../catalog/index.js';
import {
  checkContainerOptions,
  ContainerOptionError,
  generateContainerLayout,
  isContainerKind,
  resolvedContainerOptions,
  type ContainerOptions,
} from '../dielines/containers/index.js';
import { generatePart, isDielineTemplate, type Bounds, type Dieline } from '../dielines/index.js';
import { badRequest } from '../errors.js';
import type { PrintSurface } from '../print/index.js';
import type { ResolvedPart } from './parts.js';

export interface PrintGeometry {
  dieline: Dieline & Pick<PrintSurface, 'wrapWidth'>;
  /** Containers: the region of the layout the 3D model shows. */
  textureWindow?: Bounds;
}

/** The container options of a query (anything else in it is ignored). */
export function containerOptionsOf(query: ContainerOptions): ContainerOptions {
  const options: ContainerOptions = {};
  if (query.labelStyle !== undefined) options.labelStyle = query.labelStyle;
  if (query.overlapMm !== undefined) options.overlapMm = query.overlapMm;
  if (query.fitMm !== undefined) options.fitMm = query.fitMm;
  if (query.seamMm !== undefined) options.seamMm = query.seamMm;
  return options;
}

export function hasPrintGeometry(template: Template): boolean {
  return isContainerKind(template.kind) || (template.dielineAvailable && isDielineTemplate(template.id));
}

/** Options a template does not take → 400, before anything is read or rendered. */
export function requireContainerOptions(template: Template, options: ContainerOptions): void {
  try {
    checkContainerOptions(template.id, template.kind, options);
  } catch (error) {
    if (error instanceof ContainerOptionError) throw badRequest(error.message);
    throw error;
  }
}

/** The options after defaults, for cache keys and ETags ({} for boxes, the pouch and the can). */
export function containerOptionsKey(template: Template, options: ContainerOptions): object {
  return isContainerKind(template.kind) ? resolvedContainerOptions(template.kind, options) : {};
}

/**
 * The geometry at the given size. Throws DielineSizeError for a size the style cannot build and
 * a 400 for an option out of range.
 */
export function printGeometry(
  template: Template,
  dims: { widthMm: number; heightMm: number; depthMm: number },
  options: { containers: ContainerOptions; bleedMm: number; thicknessMm?: number; part?: ResolvedPart },
): PrintGeometry {
  if (!isContainerKind(template.kind)) {
    const part = options.part ?? { part: 'board' };
    return {
      dieline: generatePart(template.id, dims, part.part, {
        bleedMm: options.bleedMm,
        ...(options.thicknessMm !== undefined ? { thicknessMm: options.thicknessMm } : {}),
        ...(part.turnInMm !== undefined ? { turnInMm: part.turnInMm } : {}),
      }),
    };
  }
  try {
    const layout = generateContainerLayout(template.id, template.kind, dims, options.containers, options.bleedMm);
    return {
      dieline: { ...layout.dieline, ...(layout.wrapWidth ? { wrapWidth: layout.wrapWidth } : {}) },
      textureWindow: layout.textureWindow,
    };
  } catch (error) {
    if (error instanceof ContainerOptionError) throw badRequest(error.message);
    throw error;
  }
}
