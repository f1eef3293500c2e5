/**
 * 3D models of the templates as binary glTF (and USDZ for AR): the six boxes folded from their own dielines, the
 * five containers as parametric meshes. Pure: no HTTP, database or file access.
 *
 * Metres, +Y up, the front facing +Z, standing on y = 0. Box panels are nodes named by their
 * panelId, with UVs into the texture atlas of their printed regions; containers have a `label` node with UVs into the label.
 */
import type { FinishId, MaterialId } from '../catalog/index.js';
import { generateDieline, generateWrap, hasParts, type BoxDimensions, type Dieline } from '../dielines/index.js';
import { boxModel } from './boxes.js';
import { containerParts, type ContainerKind } from './containers.js';
import { writeGlb, type SurfaceMaps } from './gltf.js';
import { CLEAR_LABEL_BACK, CLOSURE, LABEL_BACK, printMaterial, SUBSTRATES, type PbrMaterial } from './materials.js';
import type { NodeAnimation } from './fold-animation.js';
import type { MeshPart, Surface } from './mesh.js';
import { writeUsdz } from './usdz.js';
import type { TextureAtlas } from '../print/atlas.js';

export { foldDieline, type FoldedPanel } from './fold.js';
export type { NodeAnimation, NodeTrack } from './fold-animation.js';
export { FINISHES, SUBSTRATES } from './materials.js';
export { CONTAINER_LIMITS, type ContainerKind } from './containers.js';
export type { MeshPart, Primitive, Surface } from './mesh.js';

export type { TextureAtlas } from '../print/atlas.js';

export const MODEL_CONTENT_TYPE = 'model/gltf-binary';
/** The side of the texture a box's UVs are laid out for when none is asked (the project model's default). */
export const MODEL_TEXTURE_SIZE_DEFAULT = 2048;
export { USDZ_CONTENT_TYPE, usdName } from './usdz.js';

export type ModelKind = 'box' | ContainerKind;

export interface ModelInput {
  templateId: string;
  kind: ModelKind;
  dimensions: BoxDimensions;
  material: MaterialId;
  finish: FinishId;
  /** Box caliper; the style's default for the material when absent. */
  thicknessMm?: number;
  /** Side of a box's square texture atlas, px (MODEL_TEXTURE_SIZE_DEFAULT when absent): its UVs are laid out for it. */
  textureSize?: number;
  /** JPEG (or PNG) of the box's atlas (modelParts' `atlas`) or of the label (containers), applied as base colour. */
  texture?: Uint8Array;
  /** Maps over the same UVs where effects change the surface: metallic-roughness (foil, spot UV) and normal (emboss, deboss). */
  surfaceMaps?: SurfaceMaps;
  /** The project's saved lighting preset, carried in the scene's extras for the viewer. */
  lighting?: string;
  /** Clear film printed without white ink: the texture's alpha lets the container through. */
  clearPrint?: boolean;
}

/** The geometry alone (no materials): what the tests and the texture renderer measure. */
export function modelParts(input: Pick<ModelInput, 'templateId' | 'kind' | 'dimensions' | 'thicknessMm' | 'material' | 'textureSize'>): {
  parts: MeshPart[];
  dieline?: Dieline;
  animation?: NodeAnimation;
  /** A box's texture atlas: the cells the texture is drawn in. */
  atlas?: TextureAtlas;
} {
  if (input.kind === 'box') {
    const dieline = generateDieline(input.templateId, input.dimensions, {
      ...(input.thicknessMm !== undefined ? { thicknessMm: input.thicknessMm } : {}),
      material: input.material,
    });
    // A rigid box's print is its wraps: the trays wear them.
    const printed = hasParts(input.templateId)
      ? generateWrap(input.templateId, input.dimensions, { thicknessMm: dieline.thicknessMm })
      : dieline;
    return { ...boxModel(dieline, printed, input.textureSize ?? MODEL_TEXTURE_SIZE_DEFAULT), dieline };
  }
  return { parts: containerParts(input.kind, input.dimensions) };
}

function surfaceMaterials(input: ModelInput): Record<Surface, PbrMaterial> {
  const substrate = SUBSTRATES[input.material];
  return {
    print: printMaterial(input.material, input.finish, input.texture !== undefined, input.clearPrint),
    inside: { ...substrate, name: `${substrate.name}-inside` },
    body: substrate,
    closure: CLOSURE,
    'label-back': input.clearPrint ? CLEAR_LABEL_BACK : LABEL_BACK,
  };
}

export async function buildModel(input: ModelInput, built: ReturnType<typeof modelParts> = modelParts(input)): Promise<Uint8Array> {
  const { parts, animation } = built;
  return writeGlb(parts, {
    rootName: input.templateId,
    texture: input.texture,
    ...(input.texture && input.surfaceMaps ? { surfaceMaps: input.surfaceMaps } : {}),
    ...(input.lighting ? { lighting: input.lighting } : {}),
    ...(animation ? { animation } : {}),
    materials: surfaceMaterials(input),
  });
}

/** The same parts, materials and print as a USDZ package for AR (closed, without the fold). */
export function buildUsdz(input: ModelInput, built: ReturnType<typeof modelParts> = modelParts(input)): Uint8Array {
  const { parts } = built;
  return writeUsdz(parts, {
    rootName: input.templateId,
    materials: surfaceMaterials(input),
    ...(input.texture ? { texture: input.texture } : {}),
    ...(input.texture && input.surfaceMaps ? { surfaceMaps: input.surfaceMaps } : {}),
  });
}
