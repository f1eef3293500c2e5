// 3D models: which template, at which size, in which material and finish, and (for a project)
// which print texture; the GLB (or, for AR, USDZ) bytes with their strong ETag. Template models are a pure function
// of the resolved parameters and projects' of their content, so recent results are kept in an LRU.
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { FINISH_IDS, getTemplate, type FinishId, type MaterialId, type Template } from '../catalog/index.js';
import { DielineSizeError, type BoxDimensions } from '../dielines/index.js';
import { badRequest, MESSAGES, notFound } from '../errors.js';
import { createLimiter } from '../lib/concurrency.js';
import {
  buildModel,
  buildUsdz,
  MODEL_CONTENT_TYPE,
  modelParts,
  USDZ_CONTENT_TYPE,
  type ModelInput,
  type TextureAtlas,
} from '../models/index.js';
import { printMaterial } from '../models/materials.js';
import { resolveWhite, substrateColor, type WhiteMode } from '../print/effects.js';
import type { TextureLook, TextureMaps } from '../print/index.js';
import type { Project } from '../repositories/projects.js';
import { TEXTURE_SIZE_DEFAULT, type ModelFormat, type ProjectModelQuery, type TemplateModelQuery } from '../schemas/models.js';
import { LIGHTING_IDS } from '../schemas/projects.js';
import { strongEtag } from '../lib/entity-tags.js';
import { projectThicknessMm } from './dielines.js';
import { containerOptionsKey, containerOptionsOf, requireContainerOptions } from './print-geometry.js';
import type { PrintService } from './print.js';
import { resolveDimensions } from './projects.js';

export interface RenderedModel {
  contentType: typeof MODEL_CONTENT_TYPE | typeof USDZ_CONTENT_TYPE;
  /** e.g. `mailer-box-300x220x80.glb` (or `.usdz`) */
  fileName: string;
  body: Buffer;
  etag: string;
}

// A model is 15–90 KB without a texture; a project's adds its JPEG.
export const MODEL_CACHE_ENTRIES = 128;
export const MODEL_CACHE_BYTES = 32 * 1024 * 1024;
/** Textured builds at once: a 4096 px texture is 64 MB of pixels while it is rasterised. */
export const TEXTURED_BUILDS_AT_ONCE = 2;

function fileName(templateId: string, d: BoxDimensions, format: ModelFormat): string {
  const mm = (value: number) => String(Math.round(value * 1000) / 1000);
  return `${templateId}-${mm(d.widthMm)}x${mm(d.depthMm)}x${mm(d.heightMm)}.${format}`;
}

/** The file a format writes: binary glTF, or USDZ for AR. */
type ModelWriter = (input: ModelInput, built?: ReturnType<typeof modelParts>) => Promise<Uint8Array>;
const WRITERS: Record<ModelFormat, { contentType: RenderedModel['contentType']; write: ModelWriter }> = {
  glb: { contentType: MODEL_CONTENT_TYPE, write: buildModel },
  usdz: { contentType: USDZ_CONTENT_TYPE, write: async (input, built) => buildUsdz(input, built) },
};

function requireTemplate(templateId: string): Template {
  const template = getTemplate(templateId);
  if (!template) throw notFound(MESSAGES.templateNotFound(templateId));
  return template;
}

/** The project's choice when the template offers it, else fallback (the template's first). */
const offeredOr = <T extends string>(offered: readonly T[], wanted: unknown, fallback: T): T =>
  typeof wanted === 'string' && (offered as readonly string[]).includes(wanted) ? (wanted as T) : fallback;

/** What the texture paints besides the print: the substrate where nothing prints, the finish's metal and gloss. */
function textureLook(material: MaterialId, finish: FinishId, clear: boolean): TextureLook {
  const printed = printMaterial(material, finish, true);
  return {
    substrate: substrateColor(material),
    surface: { metallic: printed.metallic, roughness: printed.roughness },
    ...(clear ? { clear } : {}),
  };
}

/** Clear film (glass, plastic) printed without white ink: the print lets the container through. */
function printsOnClearFilm(material: MaterialId, finish: FinishId, white: WhiteMode | undefined): boolean {
  return substrateColor(material) === null && resolveWhite(white, material, finish) === 'none';
}

/** What a project's model wears: its print (a box's blank, a container's layout), from the print service. */
export type ProjectTextures = Pick<PrintService, 'texture' | 'imagesIdentity'>;

export function createModelService(textures: ProjectTextures) {
  const cache = new LRUCache<string, RenderedModel>({
    max: MODEL_CACHE_ENTRIES,
    maxSize: MODEL_CACHE_BYTES,
    sizeCalculation: (model) => model.body.length,
  });
  const texturedBuilds = createLimiter(TEXTURED_BUILDS_AT_ONCE);

  type Texture = (atlas?: TextureAtlas) => Promise<TextureMaps | null>;

  async function build(key: string, input: ModelInput, texture?: Texture, format: ModelFormat = 'glb'): Promise<RenderedModel> {
    const cached = cache.get(key);
    if (cached) return cached;
    const writer = WRITERS[format];
    let body: Buffer;
    try {
      body = texture
        ? await texturedBuilds(async () => {
            // A box's texture is drawn into the cells its UVs point at.
            const built = modelParts(input);
            const maps = await texture(built.atlas);
            return Buffer.from(await writer.write(maps ? { ...input, texture: maps.baseColor, surfaceMaps: maps } : input, built));
          })
        : Buffer.from(await writer.write(input));
    } catch (error) {
      if (error instanceof DielineSizeError) throw badRequest(error.message);
      throw error;
    }
    const model: RenderedModel = {
      contentType: writer.contentType,
      fileName: fileName(input.templateId, input.dimensions, format),
      body,
      etag: strongEtag(body),
    };
    cache.set(key, model);
    return model;
  }

  return {
    /** GET /templates/:id/model: query values, else the template's defaults. */
    forTemplate(templateId: string, query: TemplateModelQuery): Promise<RenderedModel> {
      const template = requireTemplate(templateId);
      const { material, finish } = query;
      if (material !== undefined && !(template.materials as string[]).includes(material)) {
        throw badRequest(MESSAGES.materialNotForTemplate(material, templateId));
      }
      if (finish !== undefined && !(template.finishes as string[]).includes(finish)) {
        throw badRequest(MESSAGES.finishNotForTemplate(finish, templateId));
      }
      const input: ModelInput = {
        templateId,
        kind: template.kind,
        dimensions: resolveDimensions(query, undefined, template),
        material: material ?? template.materials[0]!,
        finish: finish ?? template.finishes[0] ?? FINISH_IDS[0],
        ...(template.kind === 'box' && query.thicknessMm !== undefined ? { thicknessMm: query.thicknessMm } : {}),
      };
      return build(JSON.stringify(['template', input]), input);
    },

    /** GET /projects/:id/model: the project's size, material, finish and print (ownership checked by the caller). */
    async forProject(project: Project, query: ProjectModelQuery, signal?: AbortSignal): Promise<RenderedModel> {
      const template = requireTemplate(project.templateId);
      const state = project.artworkJson;
      const sizePx = query.textureSize ?? TEXTURE_SIZE_DEFAULT;
      const container = containerOptionsOf(query);
      requireContainerOptions(template, container);
      const dimensions = { widthMm: project.widthMm, heightMm: project.heightMm, depthMm: project.depthMm };
      const input: ModelInput = {
        templateId: template.id,
        kind: template.kind,
        dimensions,
        material: offeredOr(template.materials, state?.material, template.materials[0]!),
        textureSize: sizePx,
        finish: offeredOr(template.finishes, state?.finish, template.finishes[0] ?? FINISH_IDS[0]),
        ...(template.kind === 'box' ? { thicknessMm: projectThicknessMm(template, state) } : {}),
        ...(savedLighting(state) ? { lighting: savedLighting(state)! } : {}),
      };
      if (printsOnClearFilm(input.material, input.finish, query.white)) input.clearPrint = true;
      // Everything the texture reads, the project row and which of its images still exist, keys
      // the cache: a deleted image (on any process) makes a new model without it.
      const images = await textures.imagesIdentity(project);
      const content = createHash('sha256')
        .update(JSON.stringify([project.id, input, state, sizePx, images, containerOptionsKey(template, container)]))
        .digest('base64url');
      const look = textureLook(input.material, input.finish, input.clearPrint === true);
      const sheet = template.kind === 'box' ? null : container;
      const texture: Texture = (atlas) => textures.texture(project, sheet, sizePx, look, signal, atlas);
      const format = query.format ?? 'glb';
      return build(`project:${format}:${content}`, input, texture, format);
    },
  };
}

export type ModelService = ReturnType<typeof createModelService>;

/** The lighting preset the project was saved with, when it is one the viewer has. */
export function savedLighting(state: Project['artworkJson']): Lighting | null {
  const wanted = (state as { lighting?: unknown } | null | undefined)?.lighting;
  return typeof wanted === 'string' && (LIGHTING_IDS as readonly string[]).includes(wanted) ? (wanted as Lighting) : null;
}

export type Lighting = (typeof LIGHTING_IDS)[number];
