// What a project's 3D model wears: the JPEG of its printed blank (boxes) or print layout (containers). The
// model service only knows this interface; the print service renders both from the print's layers
// (background colour, gradient or image, and the placed artworks).
import type { ContainerOptions } from '../dielines/containers/index.js';
import type { Dieline } from '../dielines/index.js';
import type { TextureLook, TextureMaps } from '../print/index.js';
import type { Project } from '../repositories/projects.js';

export interface ProjectTextureRequest {
  project: Project;
  /** The box's dieline at the project's size and caliper; absent for containers. */
  dieline?: Dieline;
  /** Containers: the layout's options (label style, overlap, fit, seam); absent for boxes. */
  container?: ContainerOptions;
  /** Longest side of the image in pixels. */
  sizePx: number;
  /** The substrate where nothing prints, and the printed surface's metal and gloss outside effects. */
  look: TextureLook;
  /** Aborts when the client goes away: the render stops. */
  signal?: AbortSignal;
}

export interface ProjectTextureSource {
  /** The print (JPEG) and its effect maps, or null when the project has nothing printable to show. */
  render(request: ProjectTextureRequest): Promise<TextureMaps | null>;
  /**
   * What the texture reads besides the project row: the identity of each image the design names
   * (gone, or which file), without reading a file. A deleted image changes it.
   */
  imagesIdentity(project: Project): Promise<string>;
}

/** What the print service offers a texture source. */
export interface PrintTextureRenderer {
  /** The printed blank of a box project. */
  texture(project: Project, sizePx: number, look: TextureLook, signal?: AbortSignal): Promise<TextureMaps | null>;
  /** A container project's print layout, over the part the model shows. */
  containerTexture(
    project: Project,
    options: ContainerOptions,
    sizePx: number,
    look: TextureLook,
    signal?: AbortSignal,
  ): Promise<TextureMaps | null>;
  /** The identity of each image the design names (see ProjectTextureSource.imagesIdentity). */
  imagesIdentity(project: Project): Promise<string>;
}

/** The project's full print on a box's blank or a container's label. */
export function createPrintTextureSource(print: PrintTextureRenderer): ProjectTextureSource {
  return {
    async render({ project, dieline, container, sizePx, look, signal }) {
      if (dieline) return print.texture(project, sizePx, look, signal);
      if (container) return print.containerTexture(project, container, sizePx, look, signal);
      return null;
    },
    imagesIdentity: (project) => print.imagesIdentity(project),
  };
}
