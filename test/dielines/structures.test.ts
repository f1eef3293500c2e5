// A die shop's structures: line types through every format, tuck locks (slits, friction shoulders,
// thumb notches, crease relief), interlocking auto-bottom flaps, nicks, the rigid lid's height, and
// sheet layouts with turned copies, margins, grain, common-line cutting and the n-up die. The DXF
// files are read by ezdxf (readfile + audit), the CF2 files by the tests' own parser.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/catalog/data.js';
import { cadSegments } from '../../src/dielines/cad.js';
import { distanceToBoundary } from '../../src/dielines/geometry.js';
import {
  generateDieline,
  renderDielineCf2,
  renderDielineDxf,
  renderDielinePdf,
  renderDielineSvg,
  type Dieline,
  type DielinePathType,
  type Point,
} from '../../src/dielines/index.js';
import { blankShape, layoutSheet, type SheetLayout, type SheetSpec } from '../../src/dielines/layout.js';
import { renderSheetCf2, renderSheetDxf } from '../../src/dielines/sheet-cad.js';
import type { StructureOptions } from '../../src/dielines/types.js';
import { dielineLength, lengthTolerance, parseCf2, readDxf } from './cad-readers.js';

const run = promisify(execFile);
const SHEET_SCRIPT = fileURLToPath(new URL('./dxf-sheet.py', import.meta.url));
const BOX_TEMPLATES = TEMPLATES.filter((template) => template.dielineAvailable);
const TUCK_TEMPLATES = ['reverse-tuck-carton', 'straight-tuck-box', 'auto-bottom-box'];
const LAYER: Readonly<Partial<Record<DielinePathType, string>>> = {
  cut: 'CUT',
  crease: 'CREASE',
  'reverse-crease': 'REVERSE_CREASE',
  perforation: 'PERFORATION',
  'half-cut': 'HALF_CUT',
  'v-groove': 'V_GROOVE',
};
const CF2_TYPE: Readonly<Record<string, number>> = { cut: 1, crease: 2, perforation: 3, 'half-cut': 4, 'reverse-crease': 5, 'v-groove': 6 };

/** Every option a template takes, one variant each, plus nicks. */
function variants(templateId: string): { label: string; structure: StructureOptions }[] {
  const out: { label: string; structure: StructureOptions }[] = [
    { label: 'defaults', structure: {} },
    { label: 'nicks 2 × 0.5', structure: { nicks: 2 } },
    { label: 'nicks 4 × 1', structure: { nicks: 4, nickWidthMm: 1 } },
  ];
  if (TUCK_TEMPLATES.includes(templateId)) {
    for (const lock of ['slit', 'friction', 'none'] as const) out.push({ label: `lock ${lock}`, structure: { lock } });
    out.push({ label: 'lock none, nicks 3', structure: { lock: 'none', nicks: 3, nickWidthMm: 0.3 } });
  }
  if (templateId === 'rigid-lid-box') out.push({ label: 'lidHeightMm 60', structure: { lidHeightMm: 60 } });
  return out;
}

const key = ([x, y]: Point): string => `${Math.round(x * 1000)},${Math.round(y * 1000)}`;

/** Degree of every end point of the die's cut segments (lines and arcs), y up. */
function cutDegrees(dieline: Dieline): Map<string, number> {
  const degree = new Map<string, number>();
  for (const segment of cadSegments(dieline, 'cut')) {
    if (segment.kind === 'arc' && Math.abs(Math.abs(segment.sweep) - 2 * Math.PI) < 1e-9) continue;
    for (const end of [segment.start, segment.end]) degree.set(key(end), (degree.get(key(end)) ?? 0) + 1);
  }
  return degree;
}

/** Straight cut segments that lie on one line and overlap (a knife drawn twice). */
function overlappingKnives(dieline: Dieline): string[] {
  const lines = cadSegments(dieline, 'cut').filter((segment) => segment.kind === 'line');
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i]!;
      const b = lines[j]!;
      const u: Point = [a.end[0] - a.start[0], a.end[1] - a.start[1]];
      const length = Math.hypot(...u);
      const cross = (p: Point) => (u[0] * (p[1] - a.start[1]) - u[1] * (p[0] - a.start[0])) / length;
      if (Math.abs(cross(b.start)) > 1e-3 || Math.abs(cross(b.end)) > 1e-3) continue;
      const along = (p: Point) => (u[0] * (p[0] - a.start[0]) + u[1] * (p[1] - a.start[1])) / length;
      const lo = Math.max(0, Math.min(along(b.start), along(b.end)));
      const hi = Math.min(length, Math.max(along(b.start), along(b.end)));
      if (hi - lo > 1e-3) found.push(`${a.start}–${a.end} and ${b.start}–${b.end}`);
    }
  }
  return found;
}

/** Straight runs of a closed outline longer than 50 mm: the edges that take nicks. */
function longEdges(outline: readonly Point[]): number {
  const n = outline.length;
  const dir = (i: number) => Math.atan2(outline[(i + 1) % n]![1] - outline[i]![1], outline[(i + 1) % n]![0] - outline[i]![0]);
  const same = (p: number, q: number) => Math.abs(Math.atan2(Math.sin(p - q), Math.cos(p - q))) < 1e-6;
  let start = 0;
  while (same(dir(start), dir((start - 1 + n) % n))) start++;
  let count = 0;
  for (let k = 0; k < n; ) {
    let length = 0;
    const d = dir((start + k) % n);
    do {
      const i = (start + k) % n;
      length += Math.hypot(outline[(i + 1) % n]![0] - outline[i]![0], outline[(i + 1) % n]![1] - outline[i]![1]);
      k++;
    } while (k < n && same(dir((start + k) % n), d));
    if (length > 50) count++;
  }
  return count;
}

async function readSheetDxf(texts: readonly string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'dxf-sheet-'));
  try {
    const files = texts.map((_, index) => join(dir, `${index}.dxf`));
    await Promise.all(texts.map((text, index) => writeFile(files[index]!, text)));
    const { stdout } = await run('/usr/bin/python3', [SHEET_SCRIPT, ...files], { maxBuffer: 64 * 1024 * 1024 });
    const parsed = JSON.parse(stdout) as Record<
      string,
      {
        version: string;
        errors: string[];
        inserts: { block: string; x: number; y: number; rotation: number }[];
        blocks: string[];
        lengths: Record<string, number>;
      }
    >;
    return files.map((file) => parsed[file]!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('every box style and option in DXF and CF2', () => {
  for (const template of BOX_TEMPLATES) {
    it(`${template.id}: ezdxf reads every variant clean; CF2 matches DXF; ` +
      `no short or doubled knife; even degree without locks and nicks`, async () => {
      const cases = variants(template.id).map(({ label, structure }) => ({
        label,
        structure,
        dieline: generateDieline(template.id, template.defaultDimensions, { structure }),
      }));
      const readings = await readDxf(cases.map(({ dieline }) => renderDielineDxf(dieline)));
      cases.forEach(({ label, structure, dieline }, index) => {
        const what = `${template.id} ${label}`;
        const reading = readings[index]!;
        expect(reading.version).toBe('AC1009');
        expect(reading.errors, what).toEqual([]);
        const cf2 = parseCf2(renderDielineCf2(dieline));
        for (const rule of cf2.rules) expect(Object.values(CF2_TYPE), what).toContain(rule.type);
        for (const [type, layer] of Object.entries(LAYER)) {
          const model = dielineLength(dieline, type);
          const dxf = reading.lengths[layer] ?? 0;
          const cf2Length = cf2.rules.filter((rule) => rule.type === CF2_TYPE[type]).reduce((sum, rule) => sum + rule.length, 0);
          expect(Math.abs(dxf - model), `${what} ${layer}: DXF ${dxf} vs model ${model}`).toBeLessThanOrEqual(lengthTolerance(model));
          expect(Math.abs(cf2Length - dxf), `${what} ${layer}: CF2 ${cf2Length} vs DXF ${dxf}`).toBeLessThanOrEqual(lengthTolerance(dxf));
        }
        // A 2 pt rule cannot bend a jog under 1 mm: only the chords of a split curve may be shorter.
        for (const segment of cadSegments(dieline, 'cut')) {
          if (segment.kind !== 'line') continue;
          const length = Math.hypot(segment.end[0] - segment.start[0], segment.end[1] - segment.start[1]);
          expect(length, `${what}: a ${length} mm cut at ${segment.start}`).toBeGreaterThanOrEqual(1 - 1e-6);
        }
        expect(overlappingKnives(dieline), what).toEqual([]);
        if ((structure.lock === 'none' || !TUCK_TEMPLATES.includes(template.id)) && !structure.nicks) {
          for (const [node, degree] of cutDegrees(dieline)) expect(degree % 2, `${what}: node ${node} has degree ${degree}`).toBe(0);
        }
      });
    });
  }
});

describe('nicks', () => {
  for (const template of BOX_TEMPLATES) {
    it(`${template.id}: shorten the cut by nicks × width per long edge in JSON, DXF and CF2; the outline stays whole`, async () => {
      const plain = generateDieline(template.id, template.defaultDimensions);
      const nicked = generateDieline(template.id, template.defaultDimensions, { structure: { nicks: 3, nickWidthMm: 0.8 } });
      const edges = plain.paths.filter((path) => path.type === 'cut' && path.closed).reduce((sum, path) => sum + longEdges(path.points), 0);
      expect(edges).toBeGreaterThan(0);
      const expected = dielineLength(plain, 'cut') - 3 * 0.8 * edges;
      expect(Math.abs(dielineLength(nicked, 'cut') - expected)).toBeLessThan(1e-3 * edges + 1e-6);
      const [reading] = await readDxf([renderDielineDxf(nicked)]);
      expect(reading!.errors).toEqual([]);
      expect(Math.abs(reading!.lengths.CUT! - expected)).toBeLessThanOrEqual(lengthTolerance(expected));
      const cf2 = parseCf2(renderDielineCf2(nicked));
      const cf2Cut = cf2.rules.filter((rule) => rule.type === 1).reduce((sum, rule) => sum + rule.length, 0);
      expect(Math.abs(cf2Cut - expected)).toBeLessThanOrEqual(lengthTolerance(expected));
      // Bridges stay 0,0: nicks are gaps, not die-board ties.
      for (const line of renderDielineCf2(nicked).split('\r\n').filter((record) => /^[LA],/.test(record))) {
        expect(line.split(',').slice(-2)).toEqual(['0', '0']);
      }
      // The outline for layout and clipping is whole; the cut paths are its runs between the nicks.
      for (const piece of nicked.pieces) {
        expect(piece.outline).toEqual(plain.paths.find((p) => p.role === 'outline' && p.pieceId === piece.id)!.points);
      }
      expect(blankShape(nicked).outlines).toEqual(blankShape(plain).outlines);
      // SVG and PDF draw the runs.
      const svg = renderDielineSvg(nicked);
      const cutGroup = svg.split('<g id="cut"')[1]!.split('</g>')[0]!;
      expect(cutGroup.match(/<path /g)!.length).toBe(nicked.paths.filter((p) => p.type === 'cut').length);
      expect(nicked.paths.filter((p) => p.type === 'cut').length).toBeGreaterThan(plain.paths.filter((p) => p.type === 'cut').length);
      // No gap within 5 mm of a corner: each run's ends are on a straight edge, > 5 mm from its vertices.
      for (const path of nicked.paths.filter((p) => p.type === 'cut' && !p.closed && p.role === 'outline')) {
        const end = path.points.at(-1)!;
        const outline = nicked.pieces.find((piece) => piece.id === path.pieceId)!.outline!;
        expect(distanceToBoundary(end, outline)).toBeLessThan(1e-3);
        expect(Math.min(...outline.map(([x, y]) => Math.hypot(x - end[0], y - end[1])))).toBeGreaterThan(5);
      }
    });
  }

  it('are rejected out of range', () => {
    expect(() => generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 }, { structure: { nicks: 5 } })).toThrow(/nicks/);
    expect(() => generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 }, { structure: { nicks: 1.5 } })).toThrow(
      /nicks/,
    );
    expect(() => generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 }, { structure: { nickWidthMm: 1.2 } })).toThrow(
      /nickWidthMm/,
    );
  });
});

describe('tuck locks', () => {
  const dims = { widthMm: 70, depthMm: 70, heightMm: 180 };
  const t = 0.4;
  const tuckCreases = (d: Dieline) => {
    const depth = d.parameters.closureDepthMm!;
    return d.paths.filter(
      (p) =>
        p.type === 'crease' &&
        Math.abs(p.points[0]![1] - p.points[1]![1]) < 1e-9 &&
        d.panels.some((panel) => panel.role === 'tuck' && panel.polygon.some(([, y]) => Math.abs(y - p.points[0]![1]) < 1e-9)) &&
        depth > 0,
    );
  };

  it('slit: a slit at each end of every tuck hinge from the side edge inward, 3 mm up to a quarter of the hinge, and crease relief', () => {
    const d = generateDieline('reverse-tuck-carton', dims, { thicknessMm: t });
    const slits = d.paths.filter((path) => path.role === 'slit');
    expect(slits).toHaveLength(4);
    const hinge = 70 + t;
    for (const slit of slits) {
      const [a, b] = slit.points as [Point, Point];
      const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
      expect(length).toBeGreaterThanOrEqual(3);
      expect(length).toBeLessThanOrEqual(hinge / 4 + 0.5);
      expect(a[1]).toBeCloseTo(b[1], 6);
      // It starts on the outline (the closure's side edge) and ends in the board.
      const outline = d.paths.find((p) => p.role === 'outline')!.points;
      expect(distanceToBoundary(a, outline)).toBeLessThan(1e-3);
      expect(distanceToBoundary(b, outline)).toBeGreaterThan(1);
    }
    for (const crease of tuckCreases(d)) {
      for (const end of crease.points) {
        const nearest = Math.min(...d.paths.filter((p) => p.type === 'cut').map((p) => distanceToBoundary(end, p.points)));
        expect(nearest).toBeGreaterThanOrEqual(t - 1e-3);
      }
    }
  });

  it('every lock: a half-round thumb notch of radius clamp(width / 8, 8, 12) biting into the wall the tuck closes on', () => {
    for (const lock of ['slit', 'friction'] as const) {
      const d = generateDieline(
        'reverse-tuck-carton',
        { widthMm: 120, depthMm: 50, heightMm: 150 },
        { thicknessMm: t, structure: { lock } },
      );
      const front = d.panels.find((panel) => panel.id === 'front')!;
      const back = d.panels.find((panel) => panel.id === 'back')!;
      const outline = d.paths.find((p) => p.role === 'outline')!.points;
      for (const [wall, edge] of [
        [front, front.bounds.y],
        [back, back.bounds.y + back.bounds.height],
      ] as const) {
        const radius = Math.min(12, Math.max(8, wall.bounds.width / 8));
        const centreX = wall.bounds.x + wall.bounds.width / 2;
        const depth = edge === wall.bounds.y ? edge + radius : edge - radius;
        expect(outline.some(([x, y]) => Math.abs(x - centreX) < 0.05 && Math.abs(y - depth) < 0.06), `${lock} ${wall.id}`).toBe(true);
        expect(wall.polygon.some(([x, y]) => Math.abs(x - centreX) < 0.05 && Math.abs(y - depth) < 0.06)).toBe(true);
      }
      expect(d.parameters.thumbNotchTopRadiusMm).toBeCloseTo(Math.min(12, Math.max(8, front.bounds.width / 8)), 6);
    }
    const none = generateDieline(
      'reverse-tuck-carton',
      { widthMm: 120, depthMm: 50, heightMm: 150 },
      { thicknessMm: t, structure: { lock: 'none' } },
    );
    expect(none.paths.some((p) => p.role === 'slit')).toBe(false);
    expect(none.parameters.thumbNotchTopRadiusMm).toBe(0);
  });

  it('friction: the tuck shoulders stand proud of the closure', () => {
    const d = generateDieline('straight-tuck-box', { widthMm: 100, depthMm: 40, heightMm: 150 }, { structure: { lock: 'friction' } });
    for (const id of ['top', 'bottom']) {
      const closure = d.panels.find((panel) => panel.id === id)!.bounds;
      const tuck = d.panels.find((panel) => panel.id === `tuck-${id}`)!.bounds;
      expect(tuck.width).toBeGreaterThan(closure.width + 0.5);
      expect(tuck.width).toBeGreaterThanOrEqual(100 + 1 - 1e-6);
    }
    expect(d.paths.some((p) => p.role === 'slit')).toBe(false);
  });

  it("auto-bottom: the lock flaps' leading edges are stepped so the two interlock; the top takes the lock", () => {
    const d = generateDieline('auto-bottom-box', { widthMm: 120, depthMm: 80, heightMm: 160 });
    const overlap = d.parameters.lockOverlapMm!;
    for (const id of ['bottom-flap-back', 'bottom-flap-front']) {
      const flap = d.panels.find((panel) => panel.id === id)!;
      const levels = new Set(flap.polygon.map(([, y]) => Math.round(y * 1000)));
      const deepest = Math.max(...levels);
      // The deep half reaches the overlap further than the short half.
      expect(levels.has(Math.round(deepest - overlap * 1000))).toBe(true);
    }
    expect(d.paths.filter((p) => p.role === 'slit')).toHaveLength(2);
    expect(() => generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 }, { structure: { lock: 'slit' } })).toThrow(
      'lock applies to reverse-tuck-carton, straight-tuck-box and auto-bottom-box.',
    );
  });
});

describe('line types', () => {
  it('the rigid trays fold on V-grooves: V_GROOVE in DXF, type 6 in CF2, VGroove in the PDF, no crease', async () => {
    const d = generateDieline('rigid-lid-box', { widthMm: 250, depthMm: 180, heightMm: 100 });
    expect(d.paths.filter((p) => p.type === 'v-groove')).toHaveLength(8);
    expect(d.paths.some((p) => p.type === 'crease')).toBe(false);
    const [reading] = await readDxf([renderDielineDxf(d)]);
    expect(reading!.layers).toContain('V_GROOVE');
    expect(parseCf2(renderDielineCf2(d)).rules.filter((rule) => rule.type === 6)).toHaveLength(8);
    expect((await renderDielinePdf(d)).includes('/VGroove')).toBe(true);
    expect(renderDielineSvg(d)).toContain('<g id="v-groove"');
  });

  it('reverse creases, perforations and half-cuts reach every format on their own layer and type', async () => {
    const base = generateDieline('straight-tuck-box', { widthMm: 100, depthMm: 40, heightMm: 150 });
    const extra = (['reverse-crease', 'perforation', 'half-cut'] as const).map((type, k) => ({
      type,
      closed: false,
      points: [
        [30, 40 + 10 * k],
        [80, 40 + 10 * k],
      ] as Point[],
      d: `M30 ${40 + 10 * k} L80 ${40 + 10 * k}`,
    }));
    const d: Dieline = { ...base, paths: [...base.paths, ...extra] };
    const [reading] = await readDxf([renderDielineDxf(d)]);
    expect(reading!.errors).toEqual([]);
    for (const layer of ['REVERSE_CREASE', 'PERFORATION', 'HALF_CUT']) expect(reading!.lengths[layer]).toBeCloseTo(50, 6);
    const types = parseCf2(renderDielineCf2(d)).rules.map((rule) => rule.type);
    for (const type of [3, 4, 5]) expect(types.filter((value) => value === type)).toHaveLength(1);
    const svg = renderDielineSvg(d);
    for (const id of ['reverse-crease', 'perforation', 'half-cut']) expect(svg).toContain(`<g id="${id}"`);
    const pdf = await renderDielinePdf(d);
    for (const ink of ['/ReverseCrease', '/Perforation', '/HalfCut']) expect(pdf.includes(ink), ink).toBe(true);
  });

  it('dieOnly leaves BLEED and SAFE out of the DXF', async () => {
    const d = generateDieline('reverse-tuck-carton', { widthMm: 70, depthMm: 70, heightMm: 180 });
    const [full, die] = await readDxf([renderDielineDxf(d), renderDielineDxf(d, { dieOnly: true })]);
    expect(full!.layers).toEqual(expect.arrayContaining(['BLEED', 'SAFE']));
    expect(die!.layers).not.toContain('BLEED');
    expect(die!.layers).not.toContain('SAFE');
    expect(die!.lengths.CUT).toBeCloseTo(full!.lengths.CUT!, 6);
  });

  it('lidHeightMm sets the lid walls within 10 mm … base height + caliper', () => {
    const d = generateDieline(
      'rigid-lid-box',
      { widthMm: 250, depthMm: 180, heightMm: 100 },
      { thicknessMm: 2, structure: { lidHeightMm: 60 } },
    );
    expect(d.parameters.lidHeightMm).toBe(60);
    expect(d.panels.find((panel) => panel.id === 'lid-front')!.bounds.height).toBeCloseTo(62, 6);
    expect(() =>
      generateDieline('rigid-lid-box', { widthMm: 250, depthMm: 180, heightMm: 100 }, { thicknessMm: 2, structure: { lidHeightMm: 103 } }),
    ).toThrow(/lidHeightMm/);
    expect(() =>
      generateDieline('rigid-lid-box', { widthMm: 250, depthMm: 180, heightMm: 100 }, { structure: { lidHeightMm: 9 } }),
    ).toThrow(/lidHeightMm/);
  });
});

describe('sheet layouts', () => {
  const sheet: SheetSpec = { widthMm: 787, heightMm: 1092, gripperMm: 10, gapMm: 3 };
  const layoutOf = (templateId: string, spec: SheetSpec, dims?: { widthMm: number; depthMm: number; heightMm: number }) => {
    const template = TEMPLATES.find((entry) => entry.id === templateId)!;
    const dieline = generateDieline(templateId, dims ?? template.defaultDimensions);
    return { dieline, layout: layoutSheet(blankShape(dieline), spec) };
  };
  const inMargins = (layout: SheetLayout, dieline: Dieline, spec: SheetSpec, margin: number) => {
    for (const copy of layout.copies) {
      const quarter = copy.rotationDeg % 180 !== 0;
      const w = quarter ? dieline.blank.height : dieline.blank.width;
      const h = quarter ? dieline.blank.width : dieline.blank.height;
      expect(copy.x).toBeGreaterThanOrEqual(margin - 1e-6);
      expect(copy.y).toBeGreaterThanOrEqual(spec.gripperMm - 1e-6);
      expect(copy.x + w).toBeLessThanOrEqual(spec.widthMm - margin + 1e-6);
      expect(copy.y + h).toBeLessThanOrEqual(spec.heightMm - margin + 1e-6);
    }
  };

  it('the default straight tuck fits 9 on 787 × 1092 by turning copies within rows; none in the margins', () => {
    const { dieline, layout } = layoutOf('straight-tuck-box', sheet);
    expect(layout.count).toBe(9);
    // Side by side (their heights overlap) yet turned differently: alternating within a row.
    const side = dieline.blank.width;
    const turnedInRow = layout.copies.some((a) =>
      layout.copies.some((b) => a.rotationDeg !== b.rotationDeg && a.x !== b.x && Math.abs(a.y - b.y) < side / 2),
    );
    expect(turnedInRow).toBe(true);
    inMargins(layout, dieline, sheet, 5);
  });

  it('the rigid box fits 2 on 720 × 1020', () => {
    const spec = { widthMm: 720, heightMm: 1020, gripperMm: 10, gapMm: 3 };
    const { dieline, layout } = layoutOf('rigid-lid-box', spec);
    expect(layout.count).toBe(2);
    inMargins(layout, dieline, spec, 5);
  });

  it('marginMm keeps copies off the side, tail and trim edges', () => {
    const spec = { ...sheet, marginMm: 40 };
    const { dieline, layout } = layoutOf('reverse-tuck-carton', spec);
    expect(layout.count).toBeGreaterThan(0);
    inMargins(layout, dieline, spec, 40);
  });

  it('grain: along keeps the blank upright on a portrait sheet, across turns it a quarter', () => {
    const along = layoutOf('straight-tuck-box', { ...sheet, grain: 'along' }).layout;
    const across = layoutOf('straight-tuck-box', { ...sheet, grain: 'across' }).layout;
    expect(along.copies.every((copy) => copy.rotationDeg % 180 === 0)).toBe(true);
    expect(across.copies.every((copy) => copy.rotationDeg % 180 === 90)).toBe(true);
    const landscape = layoutOf('straight-tuck-box', { ...sheet, widthMm: 1092, heightMm: 787, grain: 'along' }).layout;
    expect(landscape.copies.every((copy) => copy.rotationDeg % 180 === 90)).toBe(true);
  });

  it('the n-up DXF opens in ezdxf with one INSERT per copy; the n-up CF2 calls one SUB once per copy', async () => {
    const { dieline, layout } = layoutOf('straight-tuck-box', sheet);
    const [reading] = await readSheetDxf([renderSheetDxf(dieline, layout, 3)]);
    const [single] = await readDxf([renderDielineDxf(dieline)]);
    expect(reading!.version).toBe('AC1009');
    expect(reading!.errors).toEqual([]);
    expect(reading!.inserts).toHaveLength(layout.count);
    expect(new Set(reading!.inserts.map((insert) => insert.block))).toEqual(new Set(['BLANK']));
    const blankCut = single!.lengths.CUT!;
    expect(Math.abs(reading!.lengths.CUT! - layout.count * blankCut)).toBeLessThanOrEqual(lengthTolerance(layout.count * blankCut));
    const text = renderSheetCf2(dieline, layout, 3);
    expect(text.match(/^SUB,/gm)).toHaveLength(1);
    expect(text.match(/^C,BLANK,/gm)).toHaveLength(layout.count);
    const cf2 = parseCf2(text);
    const cf2Cut = cf2.rules.filter((rule) => rule.type === 1).reduce((sum, rule) => sum + rule.length, 0);
    expect(Math.abs(cf2Cut - reading!.lengths.CUT!)).toBeLessThanOrEqual(lengthTolerance(cf2Cut));
    // The CF2 calls and the DXF INSERTs place the blank at the same points and angles.
    const calls = [...text.matchAll(/^C,BLANK,([^,]+),([^,]+),([^,]+),1,1/gm)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
    reading!.inserts.forEach((insert, index) => {
      expect(insert.x).toBeCloseTo(calls[index]![0]!, 5);
      expect(insert.y).toBeCloseTo(calls[index]![1]!, 5);
      expect(insert.rotation % 360).toBeCloseTo(calls[index]![2]! % 360, 5);
    });
  });

  it('gapMm 0: common-line cutting draws shared knives once (less cut than copies × one blank)', async () => {
    const spec = { ...sheet, gapMm: 0 };
    const { dieline, layout } = layoutOf('rsc-box', spec, { widthMm: 200, depthMm: 150, heightMm: 100 });
    expect(layout.count).toBeGreaterThan(1);
    const [reading] = await readSheetDxf([renderSheetDxf(dieline, layout, 0)]);
    expect(reading!.errors).toEqual([]);
    expect(reading!.inserts).toHaveLength(0);
    const blankCut = dielineLength(dieline, 'cut');
    expect(reading!.lengths.CUT!).toBeLessThan(layout.count * blankCut - 1);
    const cf2 = parseCf2(renderSheetCf2(dieline, layout, 0));
    const cf2Cut = cf2.rules.filter((rule) => rule.type === 1).reduce((sum, rule) => sum + rule.length, 0);
    expect(Math.abs(cf2Cut - reading!.lengths.CUT!)).toBeLessThanOrEqual(lengthTolerance(cf2Cut));
  });
});
