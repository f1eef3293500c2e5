/**
 * A glued four-panel tube, the body shared by FEFCO 0201 and the ECMA tuck-end cartons.
 *
 * Across the blank, printed side up: glue flap | back (L) | left (W) | front (L) | right (W).
 * The glue flap is hinged on the back panel and glued inside the free edge of the right panel,
 * so the seam sits on the back-right corner. Every feature above or below a panel (flaps,
 * closures) is an `EdgeFeature` given in panel-local coordinates.
 */
import { DielineDraft, rect } from '../draft.js';
import { offsetPolygon } from '../geometry.js';
import { arcPoints, OutlineBuilder } from '../profile.js';
import type { FrameRotation, PanelRole, Point } from '../types.js';

export type TubePanelId = 'back' | 'left' | 'front' | 'right';

export const TUBE_ORDER: readonly TubePanelId[] = ['back', 'left', 'front', 'right'];

const TUBE_PANEL_NAMES: Readonly<Record<TubePanelId, string>> = {
  back: 'Back',
  left: 'Left side',
  front: 'Front',
  right: 'Right side',
};

/**
 * Upright-frame rotation of everything hinged on a tube panel's top or bottom edge. Tops read as
 * seen from above with the front edge down, bottoms as seen from below with the front edge up;
 * walls and the glue flap read upright as drawn (0).
 */
export const TOP_FEATURE_ROTATION: Readonly<Record<TubePanelId, FrameRotation>> = { back: 180, left: 270, front: 0, right: 90 };
export const BOTTOM_FEATURE_ROTATION: Readonly<Record<TubePanelId, FrameRotation>> = { back: 180, left: 90, front: 0, right: 270 };

/**
 * Flaps hinged on a wall whose printed face is hidden when the box is closed (under a closure or an
 * outer flap): they keep the wall's frame (0), so a wall's design runs on across the crease. Tucks
 * and glue tabs keep the closure's or flap's rotation above, being hinged on those.
 */
const HIDDEN_ON_WALL: ReadonlySet<PanelRole> = new Set<PanelRole>(['dust-flap', 'minor-flap']);

/** Inset of the marked glue area from the edges of a glue flap or tab. */
export const GLUE_AREA_INSET_MM = 1;

/**
 * Crease-to-crease panel widths for inside length L and depth W, measured on the board's
 * mid-plane (each 90° fold costs half a caliper on each side of the inside face).
 */
export function tubePanelWidths(L: number, W: number, t: number): Record<TubePanelId, number> {
  return {
    // Its glue-flap crease sits half a caliper inside the seam corner.
    back: L + t,
    left: W + t,
    // Opposite the joint: the glue flap's caliper lies inside the right panel, pushing it out by t.
    front: L + 2 * t,
    // The free edge stops half a caliper short of the back's outer face, clear of the glue-flap fold.
    right: W + t,
  };
}

/** Outside size of a tube with two closure layers at each end. */
export function tubeOutside(L: number, W: number, D: number, t: number): { widthMm: number; depthMm: number; heightMm: number } {
  return { widthMm: L + 3 * t, depthMm: W + 2 * t, heightMm: D + 4 * t };
}

export interface FeaturePanel {
  id: string;
  name: string;
  role: PanelRole;
  polygon: Point[];
}

/**
 * Geometry hinged on the top or bottom edge of a tube panel, in panel-local coordinates
 * `[s, h]`: s runs from the panel's left (west) end, h away from the body (up for the top edge,
 * down for the bottom edge). `profile` is the cut outline from `[0, 0]` to `[width, 0]`.
 */
export interface EdgeFeature {
  profile: Point[];
  panels: FeaturePanel[];
  creases: [Point, Point][];
  /** Open cuts ending in the board (lock slits). */
  slits?: [Point, Point][];
  glue?: { panelId: string; polygon: Point[] }[];
}

/** A flap whose outline is its whole profile, hinged along the panel's edge. */
export function plainFlap(width: number, profile: Point[], panel: Omit<FeaturePanel, 'polygon'>): EdgeFeature {
  return { profile, panels: [{ ...panel, polygon: profile }], creases: [[[0, 0], [width, 0]]] };
}

/** A half-round notch centred on a wall's free top or bottom edge, biting into the wall. */
export interface WallNotch {
  panel: TubePanelId;
  radius: number;
}

export interface TubeSpec {
  widths: Record<TubePanelId, number>;
  bodyHeight: number;
  glueFlap: { width: number; endAngleDeg: number; id: string; name: string };
  top: Partial<Record<TubePanelId, EdgeFeature>>;
  bottom: Partial<Record<TubePanelId, EdgeFeature>>;
  /** Thumb notches on walls with nothing hinged on that edge. */
  notches?: { top?: WallNotch; bottom?: WallNotch };
}

/** Adds the tube (one piece, `blank`) to the draft. The body spans y = 0 … bodyHeight. */
export function buildTube(draft: DielineDraft, spec: TubeSpec): void {
  const { widths, bodyHeight: H } = spec;
  const glueWidth = spec.glueFlap.width;
  const columns = {} as Record<TubePanelId, [number, number]>;
  let x = glueWidth;
  for (const id of TUBE_ORDER) {
    columns[id] = [x, x + widths[id]];
    x += widths[id];
  }
  const [backX0] = columns.back;
  const [, rightX1] = columns.right;
  const topToSheet = (id: TubePanelId) => ([s, h]: Point): Point => [columns[id][0] + s, -h];
  const bottomToSheet = (id: TubePanelId) => ([s, h]: Point): Point => [columns[id][0] + s, H + h];

  // A notch's arc, left to right along the top edge (y = 0) or right to left along the bottom (y = H).
  const notchPoints = (edge: 'top' | 'bottom', id: TubePanelId): Point[] => {
    const notch = spec.notches?.[edge];
    if (!notch || notch.panel !== id) return [];
    if (spec[edge][id]) throw new Error(`a notch on the ${edge} of ${id}, where a flap is hinged`);
    const centre = (columns[id][0] + columns[id][1]) / 2;
    return edge === 'top' ? arcPoints([centre, 0], notch.radius, Math.PI, 0) : arcPoints([centre, H], notch.radius, 0, -Math.PI);
  };
  const outline = new OutlineBuilder().to([backX0, 0]);
  for (const id of TUBE_ORDER) {
    const feature = spec.top[id];
    if (feature) outline.to(...feature.profile.map(topToSheet(id)));
    else outline.to([columns[id][0], 0], ...notchPoints('top', id), [columns[id][1], 0]);
  }
  outline.to([rightX1, H]);
  for (const id of [...TUBE_ORDER].reverse()) {
    const feature = spec.bottom[id];
    if (feature) outline.to(...[...feature.profile].reverse().map(bottomToSheet(id)));
    else outline.to([columns[id][1], H], ...notchPoints('bottom', id), [columns[id][0], H]);
  }
  // Glue flap ends are angled so they clear the closures folding over the seam corner.
  const chamfer = glueWidth * Math.tan((spec.glueFlap.endAngleDeg * Math.PI) / 180);
  const glueFlap: Point[] = [
    [backX0, 0],
    [backX0, H],
    [backX0 - glueWidth, H - chamfer],
    [backX0 - glueWidth, chamfer],
  ];
  outline.to(glueFlap[2]!, glueFlap[3]!);
  draft.addPiece('blank', 'Blank', outline.close());

  draft.addPanel(spec.glueFlap.id, spec.glueFlap.name, 'glue-flap', glueFlap);
  draft.addGlueArea(spec.glueFlap.id, offsetPolygon(glueFlap, -GLUE_AREA_INSET_MM));
  draft.addCrease([backX0, 0], [backX0, H]);
  for (const id of TUBE_ORDER) {
    const [x0, x1] = columns[id];
    const top = notchPoints('top', id);
    const bottom = notchPoints('bottom', id);
    const wall = top.length + bottom.length > 0 ? [[x0, 0], ...top, [x1, 0], [x1, H], ...bottom, [x0, H]] as Point[] : rect(x0, 0, x1, H);
    draft.addPanel(id, TUBE_PANEL_NAMES[id], 'wall', wall);
    if (id !== 'right') draft.addCrease([x1, 0], [x1, H]);
  }
  for (const [features, toSheet, rotations] of [
    [spec.top, topToSheet, TOP_FEATURE_ROTATION],
    [spec.bottom, bottomToSheet, BOTTOM_FEATURE_ROTATION],
  ] as const) {
    for (const id of TUBE_ORDER) {
      const feature = features[id];
      if (!feature) continue;
      const map = toSheet(id);
      for (const panel of feature.panels) {
        const rotation = HIDDEN_ON_WALL.has(panel.role) ? 0 : rotations[id];
        draft.addPanel(panel.id, panel.name, panel.role, panel.polygon.map(map), 'blank', rotation);
      }
      for (const [a, b] of feature.creases) draft.addCrease(map(a), map(b));
      for (const [a, b] of feature.slits ?? []) draft.addSlit(map(a), map(b));
      for (const glue of feature.glue ?? []) draft.addGlueArea(glue.panelId, glue.polygon.map(map));
    }
  }
}
