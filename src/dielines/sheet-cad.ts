/**
 * The n-up die of a sheet layout in the CAD formats, sheet millimetres, y up, print side up.
 * With a gap between copies: DXF R12 with the blank's die as one BLOCK and an INSERT per copy, and
 * CF2 with the blank as one SUB and a `C,<sub>,<x>,<y>,<angle>,1,1` call per copy (the blank's
 * origin, its bottom-left corner, at x, y; angle counter-clockwise). With no gap the copies share
 * knives (common-line cutting): every copy is written out in place and each shared cut is drawn once.
 */
import { cadNumber as n, cadSegments } from './cad.js';
import { CF2_TYPES, cf2Document, cf2Name, cf2Pointage, cf2Record, cf2Records } from './cf2.js';
import type { CurveSegment } from './curves.js';
import { dxfDocument, dxfEntity, DXF_LAYERS, type DxfWriter } from './dxf.js';
import type { LayoutCopy, SheetLayout } from './layout.js';
import { DIE_LINE_TYPES, type Dieline, type DielinePathType, type Point } from './types.js';

/** Cut lines closer than this and overlapping are one knife. */
const SHARED_TOLERANCE_MM = 0.01;

/** Where a copy puts the blank's y-up origin on the sheet (y up), and its counter-clockwise angle. */
export function copyPlacement(dieline: Dieline, layout: SheetLayout, copy: LayoutCopy): { x: number; y: number; angle: number } {
  const { width: w, height: h } = dieline.blank;
  // The blank's y-up origin is its bottom-left corner, (0, h) with y down.
  const origin: Record<LayoutCopy['rotationDeg'], Point> = {
    0: [copy.x, copy.y + h],
    90: [copy.x, copy.y],
    180: [copy.x + w, copy.y],
    270: [copy.x + h, copy.y + w],
  };
  const [x, yDown] = origin[copy.rotationDeg];
  return { x, y: layout.sheet.heightMm - yDown, angle: (360 - copy.rotationDeg) % 360 };
}

function transformSegment(segment: CurveSegment, place: { x: number; y: number; angle: number }): CurveSegment {
  const radians = (place.angle * Math.PI) / 180;
  const cos = Math.round(Math.cos(radians));
  const sin = Math.round(Math.sin(radians));
  const map = ([px, py]: Point): Point => [place.x + cos * px - sin * py, place.y + sin * px + cos * py];
  if (segment.kind === 'line') return { kind: 'line', start: map(segment.start), end: map(segment.end) };
  return { ...segment, start: map(segment.start), end: map(segment.end), center: map(segment.center) };
}

/** The blank's die lines, y up. */
const dieSegments = (dieline: Dieline) =>
  DIE_LINE_TYPES.flatMap((type) => cadSegments(dieline, type).map((segment) => ({ type, segment })));

/** Every copy's die lines on the sheet, y up. */
function sheetSegments(dieline: Dieline, layout: SheetLayout): { type: DielinePathType; segment: CurveSegment }[] {
  const blank = dieSegments(dieline);
  return layout.copies.flatMap((copy) => {
    const place = copyPlacement(dieline, layout, copy);
    return blank.map(({ type, segment }) => ({ type, segment: transformSegment(segment, place) }));
  });
}

/**
 * Straight cuts on a common line merged so overlapping stretches are drawn once; arcs and the
 * other rules as they are (identical arcs once).
 */
export function shareKnives(
  items: readonly { type: DielinePathType; segment: CurveSegment }[],
): { type: DielinePathType; segment: CurveSegment }[] {
  const lines = new Map<string, { u: Point; origin: Point; spans: [number, number][] }>();
  const out: { type: DielinePathType; segment: CurveSegment }[] = [];
  const arcs = new Set<string>();
  for (const item of items) {
    const { segment } = item;
    if (item.type !== 'cut' || segment.kind !== 'line') {
      if (item.type === 'cut' && segment.kind === 'arc') {
        const key = [segment.center, segment.start, segment.end].flat().map((v) => Math.round(v / SHARED_TOLERANCE_MM)).join(',');
        const reverse = [segment.center, segment.end, segment.start].flat().map((v) => Math.round(v / SHARED_TOLERANCE_MM)).join(',');
        if (arcs.has(key) || arcs.has(reverse)) continue;
        arcs.add(key);
      }
      out.push(item);
      continue;
    }
    const [sx, sy] = segment.start;
    const [ex, ey] = segment.end;
    const length = Math.hypot(ex - sx, ey - sy);
    if (length === 0) continue;
    let u: Point = [(ex - sx) / length, (ey - sy) / length];
    if (u[0] < -1e-9 || (Math.abs(u[0]) <= 1e-9 && u[1] < 0)) u = [-u[0], -u[1]];
    // The line's key: its direction and its distance from the origin, on a coarse grid.
    const offset = u[0] * sy - u[1] * sx;
    const angle = Math.atan2(u[1], u[0]);
    const key = `${Math.round(angle * 1e4)},${Math.round(offset / SHARED_TOLERANCE_MM)}`;
    let line = lines.get(key);
    if (!line) lines.set(key, (line = { u, origin: [sx, sy], spans: [] }));
    const along = ([px, py]: Point): number => (px - line!.origin[0]) * line!.u[0] + (py - line!.origin[1]) * line!.u[1];
    const a = along(segment.start);
    const b = along(segment.end);
    line.spans.push([Math.min(a, b), Math.max(a, b)]);
  }
  for (const line of lines.values()) {
    line.spans.sort((p, q) => p[0] - q[0]);
    const merged: [number, number][] = [];
    for (const span of line.spans) {
      const last = merged[merged.length - 1];
      // Overlapping stretches merge; stretches that only touch stay apart, so nicks keep their ends.
      if (last && span[0] < last[1] - SHARED_TOLERANCE_MM) last[1] = Math.max(last[1], span[1]);
      else merged.push([...span]);
    }
    const at = (t: number): Point => [line.origin[0] + line.u[0] * t, line.origin[1] + line.u[1] * t];
    for (const [from, to] of merged) out.push({ type: 'cut', segment: { kind: 'line', start: at(from), end: at(to) } });
  }
  return out;
}

const BLOCK = 'BLANK';

export function renderSheetDxf(dieline: Dieline, layout: SheetLayout, gapMm: number): string {
  const extents = { x: 0, y: 0, width: layout.sheet.widthMm, height: layout.sheet.heightMm };
  if (gapMm > 0) {
    const blank = dieSegments(dieline);
    const write: DxfWriter = (out) => {
      for (const copy of layout.copies) {
        const place = copyPlacement(dieline, layout, copy);
        out.push('0', 'INSERT', '8', '0', '2', BLOCK, '10', n(place.x), '20', n(place.y), '30', '0', '50', n(place.angle));
      }
    };
    return dxfDocument(`${dieline.styleName}, ${layout.count} up`, layersOf(blank), extents, [extents.width, extents.height], write, {
      name: BLOCK,
      items: blank,
    });
  }
  const items = shareKnives(sheetSegments(dieline, layout));
  const write: DxfWriter = (out) => {
    for (const { type, segment } of items) dxfEntity(out, DXF_LAYERS[type]!.name, segment);
  };
  return dxfDocument(
    `${dieline.styleName}, ${layout.count} up, common-line cutting`,
    layersOf(items),
    extents,
    [extents.width, extents.height],
    write,
  );
}

function layersOf(items: readonly { type: DielinePathType }[]): DielinePathType[] {
  return DIE_LINE_TYPES.filter((type) => items.some((item) => item.type === type));
}

export function renderSheetCf2(dieline: Dieline, layout: SheetLayout, gapMm: number): string {
  const pointage = cf2Pointage(dieline);
  const body =
    gapMm > 0
      ? [
          ...layout.copies.map((copy) => {
            const place = copyPlacement(dieline, layout, copy);
            return `C,${BLOCK},${n(place.x)},${n(place.y)},${n(place.angle)},1,1`;
          }),
          'END',
          `SUB,${BLOCK}`,
          ...cf2Records(dieline),
        ]
      : shareKnives(sheetSegments(dieline, layout)).map(({ type, segment }) => cf2Record(pointage, CF2_TYPES[type]!, segment));
  return cf2Document(`${cf2Name(dieline)}_SHEET`, layout.sheet.widthMm, layout.sheet.heightMm, body);
}
