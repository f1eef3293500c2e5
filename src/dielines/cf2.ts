/**
 * CF2 (Common Format 2), the die-making exchange format: one MAIN block with the die's rules as
 * line and arc records, millimetres, print side up, y up. Pointage (rule thickness in points) is 2
 * for folding carton and 3 for corrugated board. CF2 fixes only types 1 (cut) and 2 (crease); the
 * other rules take the numbers in CF2_TYPES (docs/die-formats.md gives the mapping for CAD imports).
 */
import { cadNumber as n, cadSegments, isCorrugated } from './cad.js';
import type { CurveSegment } from './curves.js';
import { DIE_LINE_TYPES, type Dieline, type DielinePathType } from './types.js';

const EOL = '\r\n';

/** CF2 line type per die line type. */
export const CF2_TYPES: Readonly<Partial<Record<DielinePathType, number>>> = {
  cut: 1,
  crease: 2,
  perforation: 3,
  'half-cut': 4,
  'reverse-crease': 5,
  'v-groove': 6,
};

export function cf2Pointage(dieline: Dieline): number {
  return isCorrugated(dieline) ? 3 : 2;
}

/** One L or A record; bridge fields stay 0,0 (die-board ties are the die maker's). */
export function cf2Record(pointage: number, type: number, segment: CurveSegment): string {
  const [sx, sy] = segment.start;
  const [ex, ey] = segment.end;
  if (segment.kind === 'line') return ['L', pointage, type, 0, n(sx), n(sy), n(ex), n(ey), 0, 0].join(',');
  const [cx, cy] = segment.center;
  return ['A', pointage, type, 0, n(sx), n(sy), n(ex), n(ey), n(cx), n(cy), segment.ccw ? 1 : -1, 0, 0].join(',');
}

/** Every die line of the dieline as CF2 records, y up, in the blank's frame. */
export function cf2Records(dieline: Dieline): string[] {
  const pointage = cf2Pointage(dieline);
  const records: string[] = [];
  for (const type of DIE_LINE_TYPES) {
    for (const segment of cadSegments(dieline, type)) records.push(cf2Record(pointage, CF2_TYPES[type]!, segment));
  }
  return records;
}

export function cf2Name(dieline: Dieline): string {
  return dieline.templateId.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase();
}

/** A CF2 file whose MAIN block `name` spans (0, 0)–(width, height) and holds `body`. */
export function cf2Document(name: string, width: number, height: number, body: readonly string[]): string {
  const head = ['$BOF', 'V2', 'ORDER', `MAIN,${name}`, 'END', `MAIN,${name}`, 'UM', 'LL,0,0', `UR,${n(width)},${n(height)}`, 'SCALE,1,1'];
  return [...head, ...body, 'END', '$EOF'].join(EOL) + EOL;
}

export function renderDielineCf2(dieline: Dieline): string {
  return cf2Document(cf2Name(dieline), dieline.blank.width, dieline.blank.height, cf2Records(dieline));
}
