// Dieline rules: which template may have one, the defaults a request leaves out, the caliper a
// project's EditorState implies, and the rendered bytes with their ETag. The output is a pure
// function of the resolved parameters, so recent results are kept in a small LRU.
import { LRUCache } from 'lru-cache';
import { getTemplate, type Template } from '../catalog/index.js';
import {
  DEFAULT_BLEED_MM,
  DielineOptionError,
  defaultThicknessMm,
  dielineFileName,
  dielineTemplateInfo,
  DielineSizeError,
  generatePart,
  isDielineTemplate,
  renderDieline,
  type Dieline,
  type DielineFormat,
  type RenderedDieline,
} from '../dielines/index.js';
import { isContainerKind } from '../dielines/containers/index.js';
import { badRequest, MESSAGES, notFound } from '../errors.js';
import type { Project } from '../repositories/projects.js';
import type { DielineReplyBody, ProjectDielineQuery, TemplateDielineQuery } from '../schemas/dielines.js';
import { strongEtag } from '../lib/entity-tags.js';
import { resolvePart, type ResolvedPart } from './parts.js';
import { resolveDimensions } from './projects.js';
import { containerOptionsKey, containerOptionsOf, printGeometry, requireContainerOptions } from './print-geometry.js';
import type { ContainerOptions } from '../dielines/containers/index.js';
import type { StructureOptions } from '../dielines/types.js';
import { DIELINE_STYLES, templatesTaking } from '../dielines/registry.js';
import { structureOptionsOf } from '../schemas/structure.js';

export interface RenderedDielineReply extends RenderedDieline {
  format: DielineFormat;
  /** Strong ETag (quoted) of body. */
  etag: string;
}

/** Everything the output depends on, after defaults. */
interface DielineSpec {
  templateId: string;
  widthMm: number;
  heightMm: number;
  depthMm: number;
  thicknessMm: number;
  bleedMm: number;
  format: DielineFormat;
  /** Board unless the template has parts and the wrap is asked for. */
  part: ResolvedPart;
  /** Containers' layout options as sent (checked against the template). */
  containers: ContainerOptions;
  /** Locks, lid height and nicks as sent (checked against the style). */
  structure: StructureOptions;
  /** DXF without the BLEED and SAFE layers. */
  dieOnly: boolean;
}

// Bodies are 5–20 KB at catalog sizes; a PDF costs ~1–2 ms to draw, a cache hit ~nothing.
export const DIELINE_CACHE_ENTRIES = 256;
export const DIELINE_CACHE_BYTES = 8 * 1024 * 1024;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A box with a dieline or a container (its print layout); options it does not take → 400. */
export function requireDielineTemplate(templateId: string, containers: ContainerOptions = {}): Template {
  const template = getTemplate(templateId);
  const printable = template && (isContainerKind(template.kind) || (template.dielineAvailable && isDielineTemplate(templateId)));
  if (!printable) throw badRequest(MESSAGES.templateHasNoDieline(templateId));
  requireContainerOptions(template, containers);
  return template;
}

/**
 * The caliper for a project: the EditorState's thicknessMm when the style can be built with it,
 * otherwise the default for the EditorState's material (the default EditorState says 3 mm,
 * which no folding carton accepts).
 */
export function projectThicknessMm(template: Template, state: Project['artworkJson'] | null | undefined): number {
  const material = typeof state?.material === 'string' && (template.materials as string[]).includes(state.material)
    ? state.material
    : undefined;
  const wanted = state?.thicknessMm;
  if (isContainerKind(template.kind)) return 0;
  const range = dielineTemplateInfo(template.id).limits.thicknessMm;
  if (typeof wanted === 'number' && Number.isFinite(wanted) && wanted >= range.min && wanted <= range.max) return wanted;
  return defaultThicknessMm(template.id, material);
}

/** What a dieline request says beyond the size and caliper, with its defaults. */
function requested(templateId: string, query: ProjectDielineQuery, containers: ContainerOptions) {
  return {
    bleedMm: query.bleedMm ?? DEFAULT_BLEED_MM,
    format: query.format ?? 'json',
    part: resolvePart(templateId, query, 'board'),
    containers,
    structure: structureOptionsOf(query),
    dieOnly: query.dieOnly ?? false,
  };
}

async function encode(dieline: Dieline, format: DielineFormat, dieOnly: boolean): Promise<RenderedDieline> {
  if (format !== 'json') return renderDieline(dieline, format, { dieOnly });
  const reply: DielineReplyBody = { dieline };
  return { contentType: JSON_CONTENT_TYPE, fileName: dielineFileName(dieline, format), body: JSON.stringify(reply) };
}

/** Structure options apply to box styles only: a container answers as an option the template does not take. */
export function requireNoStructure(structure: StructureOptions): void {
  const option = (Object.keys(structure) as (keyof StructureOptions)[]).find((key) => structure[key] !== undefined);
  if (option === undefined) return;
  const boxes = Object.keys(DIELINE_STYLES);
  const taking: Record<keyof StructureOptions, readonly string[]> = {
    lock: templatesTaking('lock'),
    lidHeightMm: templatesTaking('lidHeightMm'),
    nicks: boxes,
    nickWidthMm: boxes,
  };
  throw new DielineOptionError(option, taking[option]);
}

/** Recent replies, at most `max` of them and `maxBytes` of bodies. */
export const createReplyCache = (max: number, maxBytes: number) =>
  new LRUCache<string, RenderedDielineReply>({
    max,
    maxSize: maxBytes,
    sizeCalculation: (reply) => (typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : reply.body.length),
  });

export function createDielineService() {
  const cache = createReplyCache(DIELINE_CACHE_ENTRIES, DIELINE_CACHE_BYTES);

  async function render(spec: DielineSpec): Promise<RenderedDielineReply> {
    const template = getTemplate(spec.templateId)!;
    const key = JSON.stringify({ ...spec, containers: containerOptionsKey(template, spec.containers) });
    const cached = cache.get(key);
    if (cached) return cached;
    let dieline: Dieline;
    try {
      const dims = { widthMm: spec.widthMm, heightMm: spec.heightMm, depthMm: spec.depthMm };
      if (isContainerKind(template.kind)) requireNoStructure(spec.structure);
      dieline = isContainerKind(template.kind)
        ? printGeometry(template, dims, { containers: spec.containers, bleedMm: spec.bleedMm }).dieline
        : generatePart(spec.templateId, dims, spec.part.part, {
            thicknessMm: spec.thicknessMm,
            bleedMm: spec.bleedMm,
            structure: spec.structure,
            ...(spec.part.turnInMm !== undefined ? { turnInMm: spec.part.turnInMm } : {}),
          });
      // The JSON dieline is the layout itself; the wrap period is the print pipeline's business.
      if ('wrapWidth' in dieline) {
        const { wrapWidth: _period, ...plain } = dieline as Dieline & { wrapWidth?: number };
        dieline = plain;
      }
    } catch (error) {
      if (error instanceof DielineSizeError || error instanceof DielineOptionError) throw badRequest(error.message);
      throw error;
    }
    if ((spec.format === 'dxf' || spec.format === 'cf2') && !dieline.paths.some((path) => path.type === 'cut')) {
      throw badRequest(MESSAGES.noCuttingDie(spec.templateId));
    }
    const encoded = await encode(dieline, spec.format, spec.dieOnly);
    const reply = { format: spec.format, ...encoded, etag: strongEtag(encoded.body) };
    cache.set(key, reply);
    return reply;
  }

  return {
    /** GET /templates/:id/dieline: query values, else the template's defaults. */
    forTemplate(templateId: string, query: TemplateDielineQuery): Promise<RenderedDielineReply> {
      if (!getTemplate(templateId)) throw notFound(MESSAGES.templateNotFound(templateId));
      const containers = containerOptionsOf(query);
      const template = requireDielineTemplate(templateId, containers);
      const { material } = query;
      if (material !== undefined && !(template.materials as string[]).includes(material)) {
        throw badRequest(MESSAGES.materialNotForTemplate(material, templateId));
      }
      return render({
        templateId,
        ...resolveDimensions(query, undefined, template),
        thicknessMm: isContainerKind(template.kind) ? 0 : (query.thicknessMm ?? defaultThicknessMm(templateId, material)),
        ...requested(templateId, query, containers),
      });
    },

    /** GET /projects/:id/dieline: the project's dimensions and EditorState (ownership checked by the caller). */
    forProject(project: Project, query: ProjectDielineQuery): Promise<RenderedDielineReply> {
      const containers = containerOptionsOf(query);
      const template = requireDielineTemplate(project.templateId, containers);
      return render({
        templateId: template.id,
        widthMm: project.widthMm,
        heightMm: project.heightMm,
        depthMm: project.depthMm,
        thicknessMm: projectThicknessMm(template, project.artworkJson),
        ...requested(template.id, query, containers),
      });
    },
  };
}

export type DielineService = ReturnType<typeof createDielineService>;
