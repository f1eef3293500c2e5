/**
 * ASCII DXF R12 (AC1009) for die makers and sample-table plotters: millimetres, print side up,
 * y up, one layer per line type, only LINE, ARC and CIRCLE entities so every die-making CAD reads
 * it. `$INSUNITS` 4 (mm) is an R2000 header variable that R12 readers skip and newer ones honour.
 */
import { boundsOf } from './geometry.js';
import { cadNumber as n, cadSegments, toYUp } from './cad.js';
import type { CurveSegment } from './curves.js';
import type { Bounds, Dieline, DielinePathType } from './types.js';

interface DxfLayer {
  name: string;
  /** AutoCAD colour index. */
  color: number;
  linetype: 'CONTINUOUS' | 'DASHED';
}

type LayerType = DielinePathType;

/** Glue areas are for the gluer, not the die: they get no layer. */
export const DXF_LAYERS: Readonly<Partial<Record<LayerType, DxfLayer>>> = {
  cut: { name: 'CUT', color: 7, linetype: 'CONTINUOUS' },
  crease: { name: 'CREASE', color: 1, linetype: 'DASHED' },
  'reverse-crease': { name: 'REVERSE_CREASE', color: 6, linetype: 'DASHED' },
  perforation: { name: 'PERFORATION', color: 4, linetype: 'DASHED' },
  'half-cut': { name: 'HALF_CUT', color: 30, linetype: 'DASHED' },
  'v-groove': { name: 'V_GROOVE', color: 2, linetype: 'DASHED' },
  bleed: { name: 'BLEED', color: 3, linetype: 'CONTINUOUS' },
  safe: { name: 'SAFE', color: 5, linetype: 'DASHED' },
};

const EOL = '\r\n';

function pairs(out: string[], ...tags: (string | number)[]): void {
  for (let i = 0; i < tags.length; i += 2) out.push(String(tags[i]), String(tags[i + 1]));
}

const degrees = (radians: number): number => ((radians * 180) / Math.PI + 360) % 360;

export function dxfEntity(out: string[], layer: string, segment: CurveSegment): void {
  if (segment.kind === 'line') {
    const [[x1, y1], [x2, y2]] = [segment.start, segment.end];
    pairs(out, 0, 'LINE', 8, layer, 10, n(x1), 20, n(y1), 30, 0, 11, n(x2), 21, n(y2), 31, 0);
    return;
  }
  const [cx, cy] = segment.center;
  if (Math.abs(Math.abs(segment.sweep) - 2 * Math.PI) < 1e-9) {
    pairs(out, 0, 'CIRCLE', 8, layer, 10, n(cx), 20, n(cy), 30, 0, 40, n(segment.radius));
    return;
  }
  // DXF arcs run counter-clockwise from the start angle to the end angle.
  const [from, to] = segment.ccw ? [segment.start, segment.end] : [segment.end, segment.start];
  const start = degrees(Math.atan2(from[1] - cy, from[0] - cx));
  const end = degrees(Math.atan2(to[1] - cy, to[0] - cx));
  pairs(out, 0, 'ARC', 8, layer, 10, n(cx), 20, n(cy), 30, 0, 40, n(segment.radius), 50, n(start), 51, n(end));
}

export interface DxfOptions {
  /** Only the die's layers: leaves out BLEED and SAFE. */
  dieOnly?: boolean;
}

/** Layers of the artwork guides, which a die maker may not want. */
const GUIDE_LAYERS: ReadonlySet<LayerType> = new Set<LayerType>(['bleed', 'safe']);

/** Writes the ENTITIES section's entities. */
export type DxfWriter = (out: string[]) => void;

/**
 * A whole R12 document: header, the line types and `layers`, an optional block (its entities by
 * layer type, base point 0,0) and the entities `write` adds.
 */
export function dxfDocument(
  comment: string,
  layers: readonly LayerType[],
  extents: Bounds,
  /** $LIMMAX: the blank's or the sheet's top-right corner ($LIMMIN is 0,0). */
  limitsMax: readonly [number, number],
  write: DxfWriter,
  block?: { name: string; items: readonly { type: LayerType; segment: CurveSegment }[] },
): string {
  const out: string[] = [];
  pairs(out, 999, comment);
  pairs(out, 0, 'SECTION', 2, 'HEADER');
  pairs(out, 9, '$ACADVER', 1, 'AC1009');
  pairs(out, 9, '$INSBASE', 10, 0, 20, 0, 30, 0);
  pairs(out, 9, '$EXTMIN', 10, n(extents.x), 20, n(extents.y), 30, 0);
  pairs(out, 9, '$EXTMAX', 10, n(extents.x + extents.width), 20, n(extents.y + extents.height), 30, 0);
  pairs(out, 9, '$LIMMIN', 10, 0, 20, 0);
  pairs(out, 9, '$LIMMAX', 10, n(limitsMax[0]), 20, n(limitsMax[1]));
  pairs(out, 9, '$LUNITS', 70, 2);
  pairs(out, 9, '$INSUNITS', 70, 4);
  pairs(out, 0, 'ENDSEC');

  pairs(out, 0, 'SECTION', 2, 'TABLES');
  pairs(out, 0, 'TABLE', 2, 'LTYPE', 70, 2);
  pairs(out, 0, 'LTYPE', 2, 'CONTINUOUS', 70, 0, 3, 'Solid line', 72, 65, 73, 0, 40, 0);
  pairs(out, 0, 'LTYPE', 2, 'DASHED', 70, 0, 3, '__ __ __ __', 72, 65, 73, 2, 40, 4.5, 49, 3, 49, -1.5);
  pairs(out, 0, 'ENDTAB');
  pairs(out, 0, 'TABLE', 2, 'LAYER', 70, layers.length + 1);
  pairs(out, 0, 'LAYER', 2, '0', 70, 0, 62, 7, 6, 'CONTINUOUS');
  for (const type of layers) {
    const layer = DXF_LAYERS[type]!;
    pairs(out, 0, 'LAYER', 2, layer.name, 70, 0, 62, layer.color, 6, layer.linetype);
  }
  pairs(out, 0, 'ENDTAB');
  pairs(out, 0, 'ENDSEC');

  pairs(out, 0, 'SECTION', 2, 'BLOCKS');
  if (block) {
    pairs(out, 0, 'BLOCK', 8, '0', 2, block.name, 70, 0, 10, 0, 20, 0, 30, 0, 3, block.name);
    for (const { type, segment } of block.items) dxfEntity(out, DXF_LAYERS[type]!.name, segment);
    pairs(out, 0, 'ENDBLK', 8, '0');
  }
  pairs(out, 0, 'ENDSEC');
  pairs(out, 0, 'SECTION', 2, 'ENTITIES');
  write(out);
  pairs(out, 0, 'ENDSEC', 0, 'EOF');
  return out.join(EOL) + EOL;
}

export function renderDielineDxf(dieline: Dieline, options: DxfOptions = {}): string {
  const present = (Object.keys(DXF_LAYERS) as LayerType[]).filter(
    (type) => !(options.dieOnly && GUIDE_LAYERS.has(type)) && dieline.paths.some((path) => path.type === type),
  );
  const extents = boundsOf(dieline.paths.flatMap((path) => (present.includes(path.type) ? toYUp(dieline, path.points) : [])));
  const limitsMax = [dieline.blank.width, dieline.blank.height] as const;
  return dxfDocument(`${dieline.styleName}, ${dieline.templateId}; millimetres, print side up`, present, extents, limitsMax, (out) => {
    for (const type of present) {
      const layer = DXF_LAYERS[type]!.name;
      for (const segment of cadSegments(dieline, type)) dxfEntity(out, layer, segment);
    }
  });
}
