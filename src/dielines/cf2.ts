/**
 * CF2 (Common Format 2), the die-making exchange format: one MAIN block with the cut (type 1) and
 * crease (type 2) rules as line and arc records, millimetres, print side up, y up. Pointage (rule
 * thickness in points) is 2 for folding carton and 3 for corrugated board.
 */
import { cadNumber as n, cadSegments, isCorrugated } from './cad.js';
import type { CurveSegment } from './curves.js';
import type { Dieline } from './types.js';

const EOL = '\r\n';
const CF2_CUT = 1;
const CF2_CREASE = 2;

function cf2Pointage(dieline: Dieline): number {
  return isCorrugated(dieline) ? 3 : 2;
}

function record(pointage: number, type: number, segment: CurveSegment): string {
  const [sx, sy] = segment.start;
  const [ex, ey] = segment.end;
  if (segment.kind === 'line') return ['L', pointage, type, 0, n(sx), n(sy), n(ex), n(ey), 0, 0].join(',');
  const [cx, cy] = segment.center;
  return ['A', pointage, type, 0, n(sx), n(sy), n(ex), n(ey), n(cx), n(cy), segment.ccw ? 1 : -1, 0, 0].join(',');
}

export function renderDielineCf2(dieline: Dieline): string {
  const name = dieline.templateId.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase();
  const pointage = cf2Pointage(dieline);
  const lines = ['$BOF', 'V2', 'ORDER', `MAIN,${name}`, 'END', `MAIN,${name}`, 'UM'];
  lines.push(`LL,0,0`, `UR,${n(dieline.blank.width)},${n(dieline.blank.height)}`, 'SCALE,1,1');
  for (const segment of cadSegments(dieline, 'cut')) lines.push(record(pointage, CF2_CUT, segment));
  for (const segment of cadSegments(dieline, 'crease')) lines.push(record(pointage, CF2_CREASE, segment));
  lines.push('END', '$EOF');
  return lines.join(EOL) + EOL;
}
