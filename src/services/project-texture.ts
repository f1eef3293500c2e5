// What a project's 3D model wears: the PNG of its printed blank (boxes) or label (containers).
// The model service only knows this interface; the implementation here paints the project's
// background colour over the printed area (the bleed outline of each piece). A renderer of the
// full print (background, gradient, images, artworks) plugs in behind the same interface.
import { renderAsync } from '@resvg/resvg-js';
import type { Dieline } from '../dielines/index.js';
import type { Project } from '../repositories/projects.js';

export interface ProjectTextureRequest {
  project: Project;
  /** The box's dieline at the project's size and caliper; absent for containers. */
  dieline?: Dieline;
  /** Longest side of the image in pixels. */
  sizePx: number;
}

export interface ProjectTextureSource {
  /** PNG bytes, or null when the project has nothing printable to show. */
  render(request: ProjectTextureRequest): Promise<Uint8Array | null>;
}

/**
 * `#rgb`, `#rrggbb` or `rgb(r, g, b)` as `#rrggbb`, or null. Only this normalised form ever reaches
 * the SVG, so no client text is interpolated into markup.
 */
export function parseCssColor(value: string): string | null {
  const text = value.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  const rgb = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(text);
  if (rgb) {
    const channels = rgb.slice(1, 4).map(Number);
    if (channels.some((c) => c > 255)) return null;
    return `#${channels.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  }
  return null;
}

/** The background colour over the printed area; null for other backgrounds or none. */
export function createBackgroundTextureSource(): ProjectTextureSource {
  return {
    async render({ project, dieline, sizePx }) {
      const background = project.artworkJson?.background;
      if (!background || background.kind !== 'color') return null;
      const color = parseCssColor(background.value);
      if (!color) return null;
      let svg: string;
      if (dieline) {
        const { width, height } = dieline.blank;
        const outlines = dieline.paths
          .filter((path) => path.type === 'bleed')
          .map((path) => `<path d="${path.d}" fill="${color}"/>`)
          .join('');
        svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${outlines}</svg>`;
      } else {
        svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${sizePx}" height="${sizePx}"><rect width="100%" height="100%" fill="${color}"/></svg>`;
      }
      const wide = !dieline || dieline.blank.width >= dieline.blank.height;
      // Rasterised on libuv's thread pool, off the event loop.
      const rendered = await renderAsync(svg, { fitTo: wide ? { mode: 'width', value: sizePx } : { mode: 'height', value: sizePx } });
      return rendered.asPng();
    },
  };
}

/** What the print service offers a texture source: the printed blank of a box project. */
export interface PrintedBlankRenderer {
  texture(project: Project, sizePx: number): Promise<Uint8Array | null>;
}

/**
 * The project's full print (background, gradient, images, artworks: the print module's layers) on
 * a box; the background colour on a container's label, which has no printed blank.
 */
export function createPrintTextureSource(print: PrintedBlankRenderer, containers: ProjectTextureSource): ProjectTextureSource {
  return {
    async render(request) {
      if (!request.dieline) return containers.render(request);
      return print.texture(request.project, request.sizePx);
    },
  };
}
