/** Shared fixtures and geometric checks for the dieline tests. */
import { expect } from 'vitest';
import {
  distanceToBoundary,
  findSelfIntersection,
  pointInOrOnPolygon,
  pointInPolygon,
  polygonArea,
  segmentIntersection,
} from '../../src/dielines/geometry.js';
import type { BoxDimensions, Dieline, DielinePanel, DielinePath, Point } from '../../src/dielines/index.js';

/** Coordinates are rounded to 1 µm, so "on a line" means within a couple of µm. */
export const ON_LINE_MM = 0.002;

export interface GridCase {
  label: string;
  dims: BoxDimensions;
}

const box = (label: string, widthMm: number, depthMm: number, heightMm: number): GridCase => ({
  label,
  dims: { widthMm, depthMm, heightMm },
});

/** Sizes per template: smallest buildable, catalog default, largest allowed, and an awkward one. */
export const SIZE_GRID: Readonly<Record<string, readonly GridCase[]>> = {
  'reverse-tuck-carton': [
    box('small', 20, 15, 25),
    box('default', 70, 70, 180),
    box('large', 400, 400, 600),
    box('odd', 155.5, 23.25, 61.7),
  ],
  'straight-tuck-box': [
    box('small', 20, 15, 25),
    box('default', 100, 40, 150),
    box('large', 400, 400, 600),
    box('deep', 40, 120, 90),
  ],
  'auto-bottom-box': [
    box('small', 25, 25, 40),
    box('default', 120, 80, 160),
    box('large', 400, 400, 600),
    box('deep', 60, 150, 200),
  ],
  'rsc-box': [
    box('small', 50, 50, 30),
    box('default', 400, 300, 300),
    box('large', 1200, 1200, 1500),
    box('deep', 200, 400, 250),
  ],
  'mailer-box': [
    box('small', 80, 60, 25),
    box('default', 300, 220, 80),
    box('large', 800, 600, 250),
    box('narrow', 250, 60, 120),
  ],
  'rigid-lid-box': [
    box('small', 30, 30, 10),
    box('default', 250, 180, 100),
    box('large', 600, 600, 300),
    box('flat', 320, 45.5, 12.25),
  ],
};

/** Thinnest, default and thickest board per template. */
export const THICKNESS_GRID: Readonly<Record<string, readonly number[]>> = {
  'reverse-tuck-carton': [0.2, 0.4, 2],
  'straight-tuck-box': [0.2, 0.45, 2],
  'auto-bottom-box': [0.2, 0.4, 2],
  'rsc-box': [0.8, 3, 12],
  'mailer-box': [0.8, 1.5, 7],
  'rigid-lid-box': [0.8, 2, 4],
};

export function outlines(d: Dieline): DielinePath[] {
  return d.paths.filter((path) => path.type === 'cut' && path.role === 'outline');
}

export function holes(d: Dieline): DielinePath[] {
  return d.paths.filter((path) => path.type === 'cut' && path.role === 'hole');
}

export function creases(d: Dieline): DielinePath[] {
  return d.paths.filter((path) => path.type === 'crease' || path.type === 'reverse-crease' || path.type === 'v-groove');
}

export function panel(d: Dieline, id: string): DielinePanel {
  const found = d.panels.find((p) => p.id === id);
  if (!found) throw new Error(`panel ${id} missing; have ${d.panels.map((p) => p.id).join(', ')}`);
  return found;
}

export function closeTo(actual: number, expected: number, tolerance = 0.002): void {
  expect(Math.abs(actual - expected), `${actual} ≈ ${expected}`).toBeLessThanOrEqual(tolerance);
}

function inMaterial(p: Point, d: Dieline): boolean {
  const piece = outlines(d).find((o) => pointInOrOnPolygon(p, o.points, ON_LINE_MM));
  if (!piece) return false;
  return !holes(d).some((h) => pointInPolygon(p, h.points) && distanceToBoundary(p, h.points) > ON_LINE_MM);
}

function onAnyCut(p: Point, d: Dieline): boolean {
  return d.paths.some((path) => path.type === 'cut' && distanceToBoundary(p, path.points) <= ON_LINE_MM);
}

/** Crease relief: the end stops exactly one caliper short of the nearest cut. */
function relievedFromCut(p: Point, d: Dieline): boolean {
  const nearest = Math.min(...d.paths.filter((path) => path.type === 'cut').map((path) => distanceToBoundary(p, path.points)));
  return Math.abs(nearest - d.thicknessMm) <= ON_LINE_MM;
}

function onAnotherCrease(p: Point, self: DielinePath, all: readonly DielinePath[]): boolean {
  return all.some((c) => c !== self && distanceToBoundary(p, c.points) <= ON_LINE_MM);
}

/** Structural validity shared by every style. */
export function expectValidGeometry(d: Dieline): void {
  const cuts = outlines(d);
  expect(cuts.length).toBe(d.pieces.length);
  for (const cut of cuts) {
    expect(cut.closed).toBe(true);
    expect(cut.points.length).toBeGreaterThanOrEqual(4);
    expect(cut.d.startsWith('M')).toBe(true);
    expect(cut.d.endsWith('Z')).toBe(true);
    expect(findSelfIntersection(cut.points, 1e-4), `${cut.pieceId} outline self-intersects`).toBeNull();
  }
  // One outline per piece, and pieces do not overlap.
  for (let i = 0; i < cuts.length; i++) {
    for (let j = i + 1; j < cuts.length; j++) {
      expect(cuts[j]!.points.some((p) => pointInOrOnPolygon(p, cuts[i]!.points, ON_LINE_MM))).toBe(false);
    }
  }
  for (const hole of holes(d)) {
    expect(findSelfIntersection(hole.points, 1e-4)).toBeNull();
    const owner = cuts.find((c) => c.pieceId === hole.pieceId)!;
    for (const p of hole.points) {
      expect(pointInPolygon(p, owner.points)).toBe(true);
      expect(distanceToBoundary(p, owner.points)).toBeGreaterThan(0.1);
    }
  }
  const allCreases = creases(d);
  expect(allCreases.length).toBeGreaterThan(0);
  for (const crease of allCreases) {
    const [a, b] = crease.points as [Point, Point];
    expect(crease.points).toHaveLength(2);
    for (let k = 0; k <= 8; k++) {
      const p: Point = [a[0] + ((b[0] - a[0]) * k) / 8, a[1] + ((b[1] - a[1]) * k) / 8];
      expect(inMaterial(p, d), `crease point ${p} outside the board`).toBe(true);
    }
    for (const end of [a, b]) {
      expect(
        onAnyCut(end, d) || onAnotherCrease(end, crease, allCreases) || relievedFromCut(end, d),
        `crease end ${end} is neither on a cut, nor on another crease, nor a caliper short of a cut`,
      ).toBe(true);
    }
    // Creases never cross a cut line (they may only end on one).
    for (const cut of d.paths.filter((path) => path.type === 'cut')) {
      const n = cut.points.length;
      for (let i = 0; i < n; i++) {
        const hit = segmentIntersection(a, b, cut.points[i]!, cut.points[(i + 1) % n]!, 1e-6);
        if (hit) {
          const atEnd = Math.hypot(hit[0] - a[0], hit[1] - a[1]) <= ON_LINE_MM || Math.hypot(hit[0] - b[0], hit[1] - b[1]) <= ON_LINE_MM;
          expect(atEnd, `crease ${a}–${b} crosses a cut at ${hit}`).toBe(true);
        }
      }
    }
  }
}

/** Panels cover the board exactly: areas add up and every panel lies on its piece. */
export function expectPanelsTileTheBoard(d: Dieline): void {
  const ids = d.panels.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  for (const piece of d.pieces) {
    const outline = outlines(d).find((o) => o.pieceId === piece.id)!;
    const panels = d.panels.filter((p) => p.pieceId === piece.id);
    const panelArea = panels.reduce((sum, p) => sum + polygonArea(p.polygon), 0);
    const outlineArea = polygonArea(outline.points);
    expect(Math.abs(panelArea - outlineArea)).toBeLessThan(1e-6 * outlineArea + 0.05);
    for (const p of panels) {
      for (const v of p.polygon) expect(pointInOrOnPolygon(v, outline.points, ON_LINE_MM), `${p.id} vertex ${v}`).toBe(true);
    }
  }
}

export function expectBleedAndSafe(d: Dieline): void {
  const bleeds = d.paths.filter((path) => path.type === 'bleed');
  expect(bleeds.map((b) => b.pieceId).sort()).toEqual(d.pieces.map((p) => p.id).sort());
  for (const bleed of bleeds) {
    const outline = outlines(d).find((o) => o.pieceId === bleed.pieceId)!;
    expect(findSelfIntersection(bleed.points, 1e-4)).toBeNull();
    for (const p of outline.points) expect(pointInOrOnPolygon(p, bleed.points, ON_LINE_MM)).toBe(true);
    for (const p of bleed.points) {
      expect(distanceToBoundary(p, outline.points)).toBeGreaterThanOrEqual(d.bleedMm - ON_LINE_MM);
      expect(p[0]).toBeGreaterThanOrEqual(d.artboard.x - ON_LINE_MM);
      expect(p[1]).toBeGreaterThanOrEqual(d.artboard.y - ON_LINE_MM);
      expect(p[0]).toBeLessThanOrEqual(d.artboard.x + d.artboard.width + ON_LINE_MM);
      expect(p[1]).toBeLessThanOrEqual(d.artboard.y + d.artboard.height + ON_LINE_MM);
    }
  }
  const safes = d.paths.filter((path) => path.type === 'safe');
  expect(safes.length).toBeGreaterThan(0);
  for (const safe of safes) {
    const owner = panel(d, safe.panelId!);
    expect(findSelfIntersection(safe.points, 1e-4)).toBeNull();
    for (const p of safe.points) {
      expect(pointInPolygon(p, owner.polygon)).toBe(true);
      expect(distanceToBoundary(p, owner.polygon)).toBeGreaterThanOrEqual(d.safeMarginMm - ON_LINE_MM);
    }
  }
  // Every large wall gets a safe zone.
  for (const p of d.panels.filter((x) => x.role === 'wall' && x.bounds.width > 20 && x.bounds.height > 20)) {
    expect(safes.some((s) => s.panelId === p.id), `${p.id} has no safe zone`).toBe(true);
  }
}

/** Every coordinate is rounded to 3 decimals. */
export function expectRounded(d: Dieline): void {
  const check = (v: number): void => {
    expect(Math.abs(v * 1000 - Math.round(v * 1000))).toBeLessThan(1e-6);
  };
  const checkPoint = ([x, y]: readonly [number, number]): void => {
    check(x);
    check(y);
  };
  for (const path of d.paths) path.points.forEach(checkPoint);
  for (const p of d.panels) p.polygon.forEach(checkPoint);
}
