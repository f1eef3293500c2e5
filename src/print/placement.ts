/**
 * Placement: an EditorState on a dieline → positioned layers per piece (background, then artworks in
 * array order), in blank millimetres, plus every finding met on the way. Preflight, the print PDF
 * and the preview all read this one result, so they always agree.
 *
 * Rules (extensions §2): an artwork sits in its panel's upright frame (origin at the panel centre,
 * x right, y down); `offsetX/Y` place the image centre; `scale` × panel upright width = printed
 * width, the height follows the image's aspect ratio; `rotationDeg` turns it clockwise about its
 * centre. Nothing is clipped at the panel, everything at the piece's bleed outline.
 *
 * Floats are bounded here, before any renderer sees them: rotations are taken mod 360, a scale
 * outside [MIN_SCALE, MAX_SCALE] is an error finding, and an artwork that misses the bleed outline
 * (any offset, however large) is a warning and is left out of the layers.
 */
import { pointInPolygon, segmentIntersection } from '../dielines/geometry.js';
import type { Dieline, DielinePanel, Point } from '../dielines/index.js';
import { parseColor, parseLinearGradient } from './background.js';
import { isEffect } from './effects.js';
import { assetNameFromUrl } from './image-url.js';
import type {
  AssetLookup,
  BackgroundPaint,
  DesignState,
  Finding,
  FindingCode,
  PieceLayers,
  Placement,
  PlacedImage,
  PrintSurface,
  ResolvedAsset,
  Severity,
} from './types.js';

export const MIN_SCALE = 0.001;
export const MAX_SCALE = 100;
export const RECOMMENDED_DPI = 300;
export const MINIMUM_DPI = 150;
/** One image's pixels (the upload limit's decompression-bomb bound). */
export const MAX_IMAGE_PIXELS = 100_000_000;
/**
 * All distinct images of one project together: two images at the per-image limit. A print child
 * peaks near 0.5 GB decoding one such image, plus the compressed streams it holds until the file
 * is written, within its RENDER_CHILD_MEMORY_MB (docs/rendering.md).
 */
export const MAX_TOTAL_PIXELS = 200_000_000;
const MM_PER_INCH = 25.4;
const SVG_MIME = 'image/svg+xml';

export interface PlacementInput<S extends PrintSurface = Dieline> {
  dieline: S;
  state: DesignState;
  assets: AssetLookup;
  publicBaseUrl?: string;
}

/** Clockwise rotation in y-down coordinates. */
export function rotate([x, y]: Point, degrees: number): Point {
  const a = (degrees * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [x * c - y * s, x * s + y * c];
}

export function normaliseDegrees(degrees: number): number {
  const r = degrees % 360;
  const n = r < 0 ? r + 360 : r;
  return n >= 360 ? 0 : n;
}

/** The corners of a placed image on the blank, clockwise from its top-left. */
export function imageCorners(image: Pick<PlacedImage, 'center' | 'width' | 'height' | 'rotationDeg'>): Point[] {
  const hw = image.width / 2;
  const hh = image.height / 2;
  return ([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]] as Point[]).map((p) => {
    const [x, y] = rotate(p, image.rotationDeg);
    return [image.center[0] + x, image.center[1] + y];
  });
}

export function polygonsIntersect(a: readonly Point[], b: readonly Point[]): boolean {
  if (a.some((p) => pointInPolygon(p, b)) || b.some((p) => pointInPolygon(p, a))) return true;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (segmentIntersection(a[i]!, a[(i + 1) % a.length]!, b[j]!, b[(j + 1) % b.length]!)) return true;
    }
  }
  return false;
}

/** Effective resolution of a placed image (the same along both axes: the aspect ratio is kept). */
export function effectiveDpi(image: Pick<PlacedImage, 'asset' | 'width'>): number {
  return image.asset.widthPx / (image.width / MM_PER_INCH);
}

const quote = (text: string) => `'${text.length > 60 ? `${text.slice(0, 57)}...` : text}'`;

export function placeDesign<S extends PrintSurface>(input: PlacementInput<S>): Placement<S> {
  const { dieline, state, assets, publicBaseUrl } = input;
  const findings: Finding[] = [];
  const bleedOf = new Map(
    dieline.paths.filter((path) => path.type === 'bleed').map((path) => [path.pieceId!, path.points] as const),
  );
  const pieces: PieceLayers[] = dieline.pieces.map((piece) => ({
    piece,
    bleed: bleedOf.get(piece.id)!,
    background: null,
    images: [],
  }));
  const used = new Map<string, ResolvedAsset>();
  const lookup = (url: string): ResolvedAsset | null => {
    const name = assetNameFromUrl(url, publicBaseUrl);
    const asset = name === null ? null : (assets.get(name) ?? null);
    if (asset) used.set(asset.name, asset);
    return asset;
  };

  const background = resolveBackground(state.background, lookup, findings);
  // Glue areas, folds, safe zones and clipping are preflight-structure.ts's: it reads these layers.
  if (background) for (const layers of pieces) layers.background = background;

  const panels = new Map(dieline.panels.map((panel) => [panel.id, panel]));
  for (const artwork of state.artworks ?? []) {
    const id = artwork.id;
    const flag = (severity: Severity, code: FindingCode, message: string, panelId: string) =>
      findings.push({ severity, code, message, artworkId: id, panelId });
    const panel = panels.get(artwork.panelId);
    if (!panel) {
      const message = `${id} is placed on panel ${quote(artwork.panelId)}, which the ${dieline.styleName} does not have.`;
      flag('error', 'PANEL_NOT_FOUND', message, artwork.panelId);
      continue;
    }
    const asset = lookup(artwork.imageUrl);
    if (!asset) {
      flag('error', 'ASSET_NOT_FOUND', `${id} on ${panel.id} uses ${quote(artwork.imageUrl)}, which is not one of your assets.`, panel.id);
      continue;
    }
    if (!(artwork.scale >= MIN_SCALE && artwork.scale <= MAX_SCALE)) {
      const message = `${id} on ${panel.id} has scale ${artwork.scale}; it must be between ${MIN_SCALE} and ${MAX_SCALE}.`;
      flag('error', 'ARTWORK_SCALE', message, panel.id);
      continue;
    }
    const image = placeImage(panel, artwork, asset, dieline.wrapWidth);
    const layers = pieces.find((entry) => entry.piece.id === panel.pieceId)!;
    if (!polygonsIntersect(imageCorners(image), layers.bleed)) {
      const message = `${id} on ${panel.id} lies entirely outside the bleed of ${layers.piece.id}, so it does not print.`;
      flag('warning', 'ARTWORK_OUTSIDE', message, panel.id);
      continue;
    }
    const dpi = effectiveDpi(image);
    // An SVG prints as vector paths: its nominal pixel size says nothing about sharpness.
    if (asset.mimeType !== SVG_MIME && dpi < RECOMMENDED_DPI) {
      const minimum = dpi < MINIMUM_DPI ? ` and ${MINIMUM_DPI} dpi is the minimum` : '';
      const message = `${id} on ${panel.id} prints at ${Math.floor(dpi)} dpi; ${RECOMMENDED_DPI} dpi is recommended${minimum}.`;
      flag(dpi < MINIMUM_DPI ? 'error' : 'warning', 'LOW_RESOLUTION', message, panel.id);
    }
    layers.images.push(image);
  }

  checkPixelBudget([...used.values()], findings);
  return { dieline, pieces, findings };
}

/** On a wrapping label the centre's x is taken into [0, wrapWidth): the same place on the container. */
function placeImage(
  panel: DielinePanel,
  artwork: NonNullable<DesignState['artworks']>[number],
  asset: ResolvedAsset,
  wrapWidth: number | undefined,
): PlacedImage {
  const { frame } = panel;
  const width = artwork.scale * frame.width;
  const height = (width * asset.heightPx) / asset.widthPx;
  const [dx, dy] = rotate([artwork.offsetX, artwork.offsetY], frame.rotationDeg);
  let x = frame.center[0] + dx;
  if (wrapWidth) x = ((x % wrapWidth) + wrapWidth) % wrapWidth;
  return {
    artworkId: artwork.id,
    panelId: panel.id,
    asset,
    center: [x, frame.center[1] + dy],
    width,
    height,
    rotationDeg: normaliseDegrees(frame.rotationDeg + normaliseDegrees(artwork.rotationDeg)),
    ...(isEffect(artwork.effect) ? { effect: artwork.effect } : {}),
  };
}

function resolveBackground(
  background: DesignState['background'],
  lookup: (url: string) => ResolvedAsset | null,
  findings: Finding[],
): BackgroundPaint | null {
  if (!background) return null;
  const invalid = (reason: string): null => {
    findings.push({ severity: 'error', code: 'BACKGROUND_INVALID', message: `The background ${background.kind} ${reason}.` });
    return null;
  };
  switch (background.kind) {
    case 'color': {
      const color = parseColor(background.value);
      return color ? { kind: 'color', color } : invalid(`${quote(background.value)} is not a #rgb, #rrggbb or rgb() colour`);
    }
    case 'gradient': {
      const parsed = parseLinearGradient(background.value);
      return parsed.ok ? { kind: 'gradient', ...parsed.value } : invalid(parsed.reason);
    }
    case 'image': {
      const asset = lookup(background.value);
      if (asset) return { kind: 'image', asset };
      findings.push({
        severity: 'error',
        code: 'ASSET_NOT_FOUND',
        message: `The background image ${quote(background.value)} is not one of your assets.`,
      });
      return null;
    }
    default:
      return invalid('kind is not color, gradient or image');
  }
}

function checkPixelBudget(assets: readonly ResolvedAsset[], findings: Finding[]): void {
  let total = 0;
  for (const asset of assets) {
    const pixels = asset.widthPx * asset.heightPx;
    total += pixels;
    if (pixels > MAX_IMAGE_PIXELS) {
      findings.push({
        severity: 'error',
        code: 'PRINT_BUDGET',
        message: `The image ${asset.name} has ${Math.round(pixels / 1e6)} megapixels; at most ${MAX_IMAGE_PIXELS / 1e6} are supported.`,
      });
    }
  }
  if (total > MAX_TOTAL_PIXELS) {
    findings.push({
      severity: 'error',
      code: 'PRINT_BUDGET',
      message: `The placed images total ${Math.round(total / 1e6)} megapixels; at most ${MAX_TOTAL_PIXELS / 1e6} fit in one print file.`,
    });
  }
}
