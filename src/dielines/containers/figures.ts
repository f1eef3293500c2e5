/**
 * The container shapes' figures that both the 3D meshes (src/models/containers.ts) and the print
 * layouts read, so a label printed from the layout lands where the model shows it. Millimetres;
 * heights measured from the container's base (y = 0) upwards.
 */
import { requireInRange, type Range } from '../limits.js';
import type { BoxDimensions } from '../types.js';

export type ContainerKind = 'bottle' | 'jar' | 'can' | 'tube' | 'pouch';

export interface ContainerLimits {
  subject: string;
  widthMm: Range;
  heightMm: Range;
  /** Only the pouch uses depth (its bottom gusset); round containers take widthMm as the diameter. */
  depthMm?: Range;
}

/** Sizes each parametric shape stays sensible at; outside them the request is a 400. */
export const CONTAINER_LIMITS: Record<ContainerKind, ContainerLimits> = {
  bottle: { subject: 'a bottle model', widthMm: { min: 20, max: 200 }, heightMm: { min: 60, max: 600 } },
  jar: { subject: 'a jar model', widthMm: { min: 30, max: 300 }, heightMm: { min: 20, max: 300 } },
  can: { subject: 'a can model', widthMm: { min: 40, max: 120 }, heightMm: { min: 50, max: 300 } },
  tube: { subject: 'a tube model', widthMm: { min: 15, max: 80 }, heightMm: { min: 50, max: 350 } },
  pouch: { subject: 'a pouch model', widthMm: { min: 60, max: 500 }, heightMm: { min: 80, max: 700 }, depthMm: { min: 20, max: 250 } },
};

/** Throws DielineSizeError (naming the dimension) outside the container's CONTAINER_LIMITS. */
export function requireContainerSize(kind: ContainerKind, dims: BoxDimensions): void {
  const limits = CONTAINER_LIMITS[kind];
  requireInRange('widthMm', dims.widthMm, limits.widthMm, limits.subject);
  requireInRange('heightMm', dims.heightMm, limits.heightMm, limits.subject);
  if (limits.depthMm) requireInRange('depthMm', dims.depthMm, limits.depthMm, limits.subject);
}

/** A lathe container's label band: a cylinder of `radius` from `bottom` to `top`. */
export interface LatheLabel {
  radius: number;
  bottom: number;
  top: number;
}

export const jarLidHeight = (h: number): number => Math.max(8, h * 0.3);

/** Where each round container's label sits on the model. */
export const LATHE_LABELS = {
  bottle: ({ widthMm: d, heightMm: h }: BoxDimensions): LatheLabel => ({ radius: d / 2 + 0.3, bottom: h * 0.12, top: h * 0.55 }),
  jar: ({ widthMm: d, heightMm: h }: BoxDimensions): LatheLabel => ({ radius: d / 2 + 0.2, bottom: 4, top: h - jarLidHeight(h) - 4 }),
  can: ({ widthMm: d, heightMm: h }: BoxDimensions): LatheLabel => ({ radius: d / 2, bottom: 6, top: h - 14 }),
} as const;

/** The bottle's body: straight to `bodyTop`, then the shoulder eases in to the neck at `neckBottom`. */
export function bottleBody(h: number): { capHeight: number; bodyTop: number; neckBottom: number } {
  const capHeight = Math.min(0.12 * h, 30);
  return { capHeight, bodyTop: h * 0.62, neckBottom: h - capHeight - Math.min(12, h * 0.05) };
}

/** The radius at the foot of a bottle or jar eases in over this height. */
export const BASE_ROUNDING_MM = 3;

/** The jar's body runs straight to 3 mm below the lid, then steps in to its neck. */
export function jarBody(h: number): { bodyTop: number; neckStart: number } {
  const bodyTop = h - jarLidHeight(h);
  return { bodyTop, neckStart: bodyTop - 3 };
}

/** The can: straight wall from the base dome to the neck, flange on top. */
export const CAN_BASE_MM = 6;
export const CAN_NECK_MM = 14;
export const CAN_RIM_MM = 2.5;

/** The tube's printed body runs from above its cap and shoulder to below its crimp. */
export function tubeBody(h: number): { capHeight: number; bodyBottom: number; bodyTop: number } {
  const capHeight = Math.min(20, h * 0.15);
  const shoulder = 4;
  const crimp = Math.min(10, h * 0.08);
  return { capHeight, bodyBottom: capHeight + shoulder, bodyTop: h - crimp };
}
