// What a project's 3D model wears: the JPEG of its printed blank (boxes) or label (containers). The
// model service only knows this interface; the print service renders both from the print's layers
// (background colour, gradient or image, and the placed artworks).
import type { Dieline } from '../dielines/index.js';
import type { PrintSurface } from '../print/index.js';
import type { Project } from '../repositories/projects.js';

export interface ProjectTextureRequest {
  project: Project;
  /** The box's dieline at the project's size and caliper; absent for containers. */
  dieline?: Dieline;
  /** The container's label sheet at the project's size; absent for boxes. */
  label?: PrintSurface;
  /** Longest side of the image in pixels. */
  sizePx: number;
}

export interface ProjectTextureSource {
  /** JPEG bytes, or null when the project has nothing printable to show. */
  render(request: ProjectTextureRequest): Promise<Uint8Array | null>;
  /**
   * What the texture reads besides the project row: the identity of each image the design names
   * (gone, or which file), without reading a file. A deleted image changes it.
   */
  imagesIdentity(project: Project): Promise<string>;
}

/** What the print service offers a texture source. */
export interface PrintTextureRenderer {
  /** The printed blank of a box project. */
  texture(project: Project, sizePx: number): Promise<Uint8Array | null>;
  /** A container project's label. */
  labelTexture(project: Project, sheet: PrintSurface, sizePx: number): Promise<Uint8Array | null>;
  /** The identity of each image the design names (see ProjectTextureSource.imagesIdentity). */
  imagesIdentity(project: Project): Promise<string>;
}

/** The project's full print on a box's blank or a container's label. */
export function createPrintTextureSource(print: PrintTextureRenderer): ProjectTextureSource {
  return {
    async render({ project, dieline, label, sizePx }) {
      if (dieline) return print.texture(project, sizePx);
      if (label) return print.labelTexture(project, label, sizePx);
      return null;
    },
    imagesIdentity: (project) => print.imagesIdentity(project),
  };
}
