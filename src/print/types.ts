/**
 * The print pipeline's inputs and outputs. Pure data: the service resolves the project's assets
 * (owner's only) into `AssetLookup`, this module never touches storage, HTTP or the database.
 */
import type { BarcodeFacts } from '../barcodes/types.js';
import type { Dieline, DielinePiece, Point } from '../dielines/index.js';
import type { Effect } from './effects.js';
import type { FontFace } from './fonts.js';

/**
 * What a design is placed on: a box's dieline, or a container's label sheet (one piece, the label
 * rectangle, whose panels are regions of the label). `wrapWidth` marks a label that wraps around
 * the container: x is periodic with that period, so artwork crosses the seam and shows on both
 * edges of the sheet.
 */
export type PrintSurface = Pick<Dieline, 'styleName' | 'blank' | 'artboard' | 'pieces' | 'panels' | 'paths'> & { wrapWidth?: number };

/** An image the project's owner stored, with its oriented pixel size and a way to read its bytes. */
export interface ResolvedAsset {
  name: string;
  mimeType: string;
  widthPx: number;
  heightPx: number;
  sizeBytes: number;
  /** Set when the asset is a barcode the service made: printed in one ink and checked where placed. */
  barcode?: BarcodeFacts | null;
  /**
   * A file on this machine with the same bytes (local-disk storage): a render child reads it
   * itself, so the bytes never cross the IPC channel (render/transport.ts).
   */
  localFile?: string;
  load(): Promise<Buffer>;
}

/** Asset name → the asset, or null when the owner has no asset of that name (deleted, foreign, unknown). */
export type AssetLookup = ReadonlyMap<string, ResolvedAsset | null>;

/** The parts of an EditorState the pipeline reads; anything else in the document is ignored. */
export interface DesignState {
  material?: string;
  finish?: string;
  background?: { kind: string; value: string };
  artworks?: readonly {
    id: string;
    panelId: string;
    imageUrl: string;
    offsetX: number;
    offsetY: number;
    scale: number;
    rotationDeg: number;
    effect?: string;
  }[];
}

export type Severity = 'error' | 'warning' | 'info';

export type FindingCode =
  | 'TEMPLATE_HAS_NO_DIELINE'
  | 'DIELINE_SIZE'
  | 'PANEL_NOT_FOUND'
  | 'ASSET_NOT_FOUND'
  | 'BACKGROUND_INVALID'
  | 'LOW_RESOLUTION'
  | 'ARTWORK_OUTSIDE'
  | 'ARTWORK_SCALE'
  | 'GLUE_AREA'
  | 'BOARD_TOO_THIN'
  | 'MATERIAL_NOT_OFFERED'
  | 'PRINT_BUDGET'
  | 'INK_COVERAGE'
  | 'SAFE_ZONE'
  | 'CROSSES_FOLD'
  | 'CLIPPED'
  | 'SEAL_AREA'
  | 'OVERLAP_AREA'
  | 'DISTORTION_ZONE'
  | 'EFFECT_TOO_FINE'
  | 'EFFECT_CROSSES_FOLD'
  | 'EFFECT_ON_GLUE'
  | 'EFFECT_NOT_OFFERED'
  | 'BARCODE_SIZE'
  | 'BARCODE_QUIET_ZONE'
  | 'BARCODE_CONTRAST'
  | 'PROFILE_MISMATCH'
  | 'NO_BLEED'

  | 'FONT_SUBSTITUTED'
  | 'FONT_MISSING'
  | 'SVG_IMAGE_DROPPED'
  | 'SVG_TOO_COSTLY'
  | 'THIN_LINE'
  | 'SMALL_TEXT';

export interface Finding {
  severity: Severity;
  code: FindingCode;
  message: string;
  artworkId?: string;
  panelId?: string;
}

/** A finding about a placed artwork, on its panel. */
export function artworkFinding(
  image: Pick<PlacedImage, 'artworkId' | 'panelId'>,
  severity: Severity,
  code: FindingCode,
  message: string,
): Finding {
  return { severity, code, message, artworkId: image.artworkId, panelId: image.panelId };
}

export type Rgb = readonly [number, number, number];

export interface GradientStop {
  /** 0–1 along the gradient line. */
  offset: number;
  color: Rgb;
}

export type BackgroundPaint =
  | { kind: 'color'; color: Rgb }
  | { kind: 'gradient'; angleDeg: number; stops: GradientStop[] }
  | { kind: 'image'; asset: ResolvedAsset };

/** An image on the blank: centre, printed size (mm) and clockwise rotation in [0, 360). */
export interface PlacedImage {
  artworkId: string;
  panelId: string;
  asset: ResolvedAsset;
  center: Point;
  width: number;
  height: number;
  rotationDeg: number;
  /** A finish on the artwork's mask (effects.ts); none: it prints as ink only. */
  effect?: Effect;
}

/** What prints on one piece, bottom to top, all clipped to `bleed`. */
export interface PieceLayers {
  piece: DielinePiece;
  /** The piece's bleed outline (the clip path), mm on the blank. */
  bleed: Point[];
  background: BackgroundPaint | null;
  images: PlacedImage[];
}

export interface Placement<S extends PrintSurface = Dieline> {
  dieline: S;
  pieces: PieceLayers[];
  findings: Finding[];
  /** The owner's fonts, as files, that SVG text is outlined with besides the bundled ones. */
  fonts?: readonly FontFace[];
}

/** What an image XObject needs: dictionary values and the already-encoded stream. */
export interface PdfImageData {
  width: number;
  height: number;
  /**
   * `sRGB`: the document's shared ICC-based sRGB colour space; `{ icc }`: an ICC-based colour space
   * of the RGB profile the image carries.
   */
  colorSpace: 'sRGB' | { icc: Buffer } | 'DeviceCMYK' | 'DeviceGray';
  filter: 'DCTDecode' | 'FlateDecode';
  /** Adobe CMYK JPEGs are stored inverted. */
  decode?: number[];
  data: Buffer;
  /** The alpha channel as a Flate-encoded DeviceGray soft mask, when the image has one. */
  smask?: Buffer;
}
