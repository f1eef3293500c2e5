/**
 * The dieline model: one JSON-serialisable geometry object from which SVG and PDF (and later DXF)
 * are rendered. All lengths are millimetres; the origin is the top-left corner of the blank, x runs
 * right and y runs down (SVG convention). Coordinates are rounded to 3 decimals.
 *
 * The flat blank is drawn with the printed (outside) face towards the viewer.
 */

/** A point as `[x, y]` in millimetres. */
export type Point = [number, number];

/** Inside dimensions as the catalog carries them: width = L (front panel), depth = W, height = D/H. */
export interface BoxDimensions {
  widthMm: number;
  heightMm: number;
  depthMm: number;
}

export type DielineStyleId = BoxStyleId | ContainerStyleId;

/** The folding and rigid box styles (src/dielines/styles). */
export type BoxStyleId =
  | 'fefco-0427'
  | 'fefco-0201'
  | 'ecma-reverse-tuck-end'
  | 'ecma-straight-tuck-end'
  | 'tuck-top-auto-bottom'
  | 'rigid-two-piece';

/** The containers' print layouts (src/dielines/containers): label, sleeve, band, laminate, film. */
export type ContainerStyleId = 'wrap-label' | 'shrink-sleeve' | 'can-band' | 'tube-laminate' | 'doyen-pouch';

/**
 * Line types, one SVG group / PDF spot colour each. `fold`: where a printed wrap folds over a board
 * edge; not a creasing rule, so the die formats leave it out. `zone` and `eyemark`: container
 * layouts' marked regions and the tube's registration mark.
 */
export type DielinePathType = 'cut' | RuleType | 'bleed' | 'safe' | 'glue' | 'fold' | 'zone' | 'eyemark';

/**
 * The die's rules besides the cut, one straight segment each: `crease` (folds towards the unprinted
 * side), `reverse-crease` (folds towards the printed side), `perforation` (cut and tie, tears off),
 * `half-cut` (cuts part of the board's depth), `v-groove` (milled in greyboard, which is too thick
 * to crease).
 */
export type RuleType = 'crease' | 'reverse-crease' | 'perforation' | 'half-cut' | 'v-groove';

export const RULE_TYPES: readonly RuleType[] = ['crease', 'reverse-crease', 'perforation', 'half-cut', 'v-groove'];

/** The line types a cutting die is made of: the cut and every rule. */
export const DIE_LINE_TYPES: readonly DielinePathType[] = ['cut', ...RULE_TYPES];

/** Rules a panel folds about (the 3D fold hinges on these). */
export const FOLDING_RULE_TYPES: readonly DielinePathType[] = ['crease', 'reverse-crease', 'v-groove'];

/** Drawing order: guides first, then the rules, the cut on top. */
const GUIDE_TYPES: readonly DielinePathType[] = ['bleed', 'safe', 'glue', 'zone', 'eyemark', 'fold'];
export const DRAW_ORDER: readonly DielinePathType[] = [...GUIDE_TYPES, ...[...RULE_TYPES].reverse(), 'cut'];

export const DIELINE_PATH_TYPES: readonly DielinePathType[] = ['cut', ...RULE_TYPES, 'bleed', 'safe', 'glue', 'fold', 'zone', 'eyemark'];

/** How a tuck is held closed: slits at its hinge, wider (friction) shoulders, or nothing. */
export type TuckLock = 'slit' | 'friction' | 'none';

export const TUCK_LOCKS: readonly TuckLock[] = ['slit', 'friction', 'none'];

/** What a die shop adds to a box style's structure (each option applies to the styles that take it). */
export interface StructureOptions {
  /** Tuck-end styles: the tuck's lock (default `slit`). */
  lock?: TuckLock;
  /** Rigid box: the lid's inside height (default H/3, at least 20 mm). */
  lidHeightMm?: number;
  /** Nicks per cut edge longer than 50 mm (0–4, default 0). */
  nicks?: number;
  /** Width of each nick (0.3–1.0 mm, default 0.5). */
  nickWidthMm?: number;
}

/**
 * What a container layout's `zone` path marks: `overlap` (a label's or band's overlap strip),
 * `seal` (heat or solvent seal, side seam, crimp), `unprinted` (film left clear), `shrink` (where a
 * sleeve shrinks onto a narrower body), `neck` and `base` (a can's necked and domed zones),
 * `zipper`, `fold` (the pouch gusset's fold line, open).
 */
export type ZoneKind = 'overlap' | 'seal' | 'unprinted' | 'shrink' | 'neck' | 'base' | 'zipper' | 'fold';

export const ZONE_KINDS: readonly ZoneKind[] = ['overlap', 'seal', 'unprinted', 'shrink', 'neck', 'base', 'zipper', 'fold'];

export type PanelRole =
  | 'wall'
  | 'bottom'
  | 'lid'
  | 'closure'
  | 'tuck'
  | 'dust-flap'
  | 'glue-flap'
  | 'major-flap'
  | 'minor-flap'
  | 'lock-flap'
  | 'glue-tab'
  | 'corner-flap'
  | 'rim'
  | 'inner-wall';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One separately cut part. Most styles have a single piece, `blank`; the rigid box has `base` and `lid`. */
export interface DielinePiece {
  id: string;
  name: string;
  bounds: Bounds;
  /**
   * The piece's whole outline (closed), present when nicks split the cut lines: layout and clipping
   * use it, the die uses the cut paths.
   */
  outline?: Point[];
}

/** Clockwise quarter turn from a panel's upright frame to the blank. */
export type FrameRotation = 0 | 90 | 180 | 270;

/**
 * Where artwork goes on a panel: its centre on the blank (mm), the clockwise rotation from the
 * panel's upright frame (as it reads on the assembled box, printed side out) to the blank, and the
 * panel's extent in that upright frame. See README.md "Panel frames".
 */
export interface PanelFrame {
  center: Point;
  rotationDeg: FrameRotation;
  width: number;
  height: number;
}

/**
 * A region between creases and cut lines. `id` is the stable `panelId` the editor uses to place
 * artwork (kebab-case, unique within a dieline).
 */
export interface DielinePanel {
  id: string;
  name: string;
  role: PanelRole;
  pieceId: string;
  polygon: Point[];
  bounds: Bounds;
  frame: PanelFrame;
}

/**
 * A drawn line. `points` is the polyline geometry (closed when `closed` is true); `d` is the same
 * geometry as SVG path data in millimetres.
 * - cut: `role` is `outline` (one closed, simple polygon per piece) or `hole` (an inner cut-out).
 * - crease: one straight segment each; fold (wraps) likewise.
 * - bleed: one closed polygon per piece (`pieceId`).
 * - safe and glue: one closed polygon per panel (`panelId`).
 * - zone (containers): a marked region (`zone` says which), closed, or open for a fold line.
 * - eyemark (tube laminate): the solid registration mark a tube line reads, printed above artwork.
 */
export type CutRole = 'outline' | 'hole' | 'slit';

export interface DielinePath {
  type: DielinePathType;
  closed: boolean;
  points: Point[];
  d: string;
  /**
   * Cut lines only: `outline` (a piece's outline: closed, or an open run of it between nicks),
   * `hole` (an inner cut-out, likewise) or `slit` (an open cut that ends in the board).
   */
  role?: CutRole;
  pieceId?: string;
  panelId?: string;
  /** zone paths only. */
  zone?: ZoneKind;
}

export interface Dieline {
  templateId: string;
  style: DielineStyleId;
  styleName: string;
  units: 'mm';
  thicknessMm: number;
  bleedMm: number;
  safeMarginMm: number;
  /** Size of the cut blank (bounding box of every piece's outline). */
  blank: { width: number; height: number };
  /** Blank plus bleed on every side: the SVG viewBox and the PDF page. */
  artboard: Bounds;
  dimensions: { inside: BoxDimensions; outside: BoxDimensions };
  /** Derived construction values of the style (flap depths, allowances, …), in millimetres. */
  parameters: Record<string, number>;
  pieces: DielinePiece[];
  panels: DielinePanel[];
  paths: DielinePath[];
}

export interface DielineOptions {
  /** Board caliper. Defaults to `defaultThicknessMm(templateId, material)`. */
  thicknessMm?: number;
  /** Bleed around every cut outline. Defaults to 3 mm. */
  bleedMm?: number;
  /** Used only to choose the default thickness. */
  material?: string;
  /** Locks, lid height and nicks (checked against the style). */
  structure?: StructureOptions;
}
