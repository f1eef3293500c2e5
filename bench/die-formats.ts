/**
 * Die formats benchmark, in process: per box style at its catalog size, the median wall time of
 * one DXF and one CF2 (dieline generation included), the same with two nicks per long cut edge, and of
 * one sheet layout on the default 787 × 1092 mm sheet with the default margins (where the blank
 * fits). Targets: DXF and CF2 under 20 ms each, the layout under 200 ms.
 * Run alone: npx tsx bench/die-formats.ts [iterations]; part of npm run bench as row #36.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TEMPLATES } from '../src/catalog/data.js';
import { generateDieline, renderDielineCf2, renderDielineDxf, type BoxDimensions } from '../src/dielines/index.js';
import { BlankTooLargeError, blankShape, layoutSheet } from '../src/dielines/layout.js';
import type { ModelBenchRow } from './models.js';
import { median } from './support.js';

export const DIE_FORMAT_TARGET_MS = 20;
export const LAYOUT_TARGET_MS = 200;
/** The default sheet, margins and grain as the layout route uses them. */
const SHEET = { widthMm: 787, heightMm: 1092, gripperMm: 10, gapMm: 3 };
/** Nicks as a die shop asks for them. */
const NICKS = { nicks: 2, nickWidthMm: 0.5 };

/** A row of npm run bench's table, as the 3D model bench makes them. */
export type DieFormatBenchRow = ModelBenchRow;

function time(iterations: number, run: () => unknown): number {
  run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function layoutOnce(templateId: string, dims: BoxDimensions): boolean {
  const dieline = generateDieline(templateId, dims);
  try {
    layoutSheet(blankShape(dieline), SHEET);
    return true;
  } catch (error) {
    if (error instanceof BlankTooLargeError) return false;
    throw error;
  }
}

export function benchDieFormats(iterations = 100): DieFormatBenchRow[] {
  const rows: DieFormatBenchRow[] = [];
  for (const template of TEMPLATES.filter((entry) => entry.dielineAvailable)) {
    const dims = template.defaultDimensions;
    const dxf = time(iterations, () => renderDielineDxf(generateDieline(template.id, dims)));
    const cf2 = time(iterations, () => renderDielineCf2(generateDieline(template.id, dims)));
    const structure = { structure: NICKS };
    const dxfNicks = time(iterations, () => renderDielineDxf(generateDieline(template.id, dims, structure)));
    const cf2Nicks = time(iterations, () => renderDielineCf2(generateDieline(template.id, dims, structure)));
    const figures: Record<string, number> = { 'ms dxf': dxf, 'ms cf2': cf2, 'ms dxf nicks': dxfNicks, 'ms cf2 nicks': cf2Nicks };
    const fits = layoutOnce(template.id, dims);
    if (fits) figures['ms layout'] = time(Math.max(3, Math.floor(iterations / 20)), () => layoutOnce(template.id, dims));
    rows.push({
      id: '36',
      workload: `DXF and CF2 ${template.id}`,
      figures,
      target: `< ${DIE_FORMAT_TARGET_MS} ms each, layout < ${LAYOUT_TARGET_MS} ms`,
      met:
        Math.max(dxf, cf2, dxfNicks, cf2Nicks) < DIE_FORMAT_TARGET_MS &&
        (figures['ms layout'] === undefined || figures['ms layout'] < LAYOUT_TARGET_MS),
    });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const iterations = Number(process.argv[2]);
  const rows = benchDieFormats(Number.isFinite(iterations) && iterations > 0 ? iterations : 100);
  const r = (v: number | undefined) => (v === undefined ? '–' : String(Math.round(v * 100) / 100));
  console.log(
    `Node ${process.version}; median of ${Number.isFinite(iterations) && iterations > 0 ? iterations : 100} runs, ` +
      `dieline generation included`,
  );
  console.log(
    '| template | DXF ms | CF2 ms | DXF ms, 2 nicks | CF2 ms, 2 nicks | layout ms (787 × 1092) | DXF/CF2 < 20 ms, layout < 200 ms |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const f = row.figures;
    console.log(
      `| ${row.workload.replace('DXF and CF2 ', '')} | ${r(f['ms dxf'])} | ${r(f['ms cf2'])} | ` +
        `${r(f['ms dxf nicks'])} | ${r(f['ms cf2 nicks'])} | ${r(f['ms layout'])} | ${row.met ? 'yes' : 'no'} |`,
    );
  }
  if (rows.some((row) => !row.met)) process.exitCode = 1;
}
