/**
 * Dieline benchmark: per template and format, mean and p99 wall time of one dieline.
 *   json = generateDieline + JSON.stringify
 *   svg  = generateDieline + renderDielineSvg
 *   pdf  = generateDieline + renderDielinePdf
 *   dxf  = generateDieline + renderDielineDxf (R12, lines and arcs recovered)
 *   cf2  = generateDieline + renderDielineCf2
 * Run: npx tsx bench/dielines.ts [iterations]
 */
import { performance } from 'node:perf_hooks';
import { TEMPLATES } from '../src/catalog/data.js';
import {
  DIELINE_STYLES,
  generateDieline,
  DIELINE_FORMATS,
  renderDielineCf2,
  renderDielineDxf,
  renderDielinePdf,
  renderDielineSvg,
  type BoxDimensions,
  type DielineFormat,
} from '../src/dielines/index.js';

const TARGET_MS: Readonly<Record<DielineFormat, number>> = { json: 2, svg: 2, pdf: 20, dxf: 20, cf2: 20 };
const WARMUP = 50;
const iterationsArgument = Number(process.argv[2]);
const ITERATIONS: Readonly<Record<DielineFormat, number>> = Number.isFinite(iterationsArgument) && iterationsArgument > 0
  ? { json: iterationsArgument, svg: iterationsArgument, pdf: iterationsArgument, dxf: iterationsArgument, cf2: iterationsArgument }
  : { json: 2000, svg: 2000, pdf: 300, dxf: 500, cf2: 500 };

const RUNNERS: Readonly<Record<DielineFormat, (templateId: string, dims: BoxDimensions) => unknown>> = {
  json: (templateId, dims) => JSON.stringify(generateDieline(templateId, dims)),
  svg: (templateId, dims) => renderDielineSvg(generateDieline(templateId, dims)),
  pdf: (templateId, dims) => renderDielinePdf(generateDieline(templateId, dims)),
  dxf: (templateId, dims) => renderDielineDxf(generateDieline(templateId, dims)),
  cf2: (templateId, dims) => renderDielineCf2(generateDieline(templateId, dims)),
};

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

async function measure(format: DielineFormat, templateId: string, dims: BoxDimensions): Promise<{ mean: number; p99: number }> {
  const run = RUNNERS[format];
  for (let i = 0; i < WARMUP; i++) await run(templateId, dims);
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS[format]; i++) {
    const start = performance.now();
    await run(templateId, dims);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return { mean, p99: percentile(samples, 99) };
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const header =
    `${'template'.padEnd(22)}${'style'.padEnd(24)}${'format'.padEnd(8)}` +
    `${'mean ms'.padStart(9)}${'p99 ms'.padStart(9)}${'target'.padStart(8)}  ok`;
  rows.push(header, '-'.repeat(header.length));
  let failures = 0;
  for (const [templateId, style] of Object.entries(DIELINE_STYLES)) {
    const template = TEMPLATES.find((entry) => entry.id === templateId);
    if (!template) throw new Error(`Template ${templateId} is missing from the catalog.`);
    for (const format of DIELINE_FORMATS) {
      const { mean, p99 } = await measure(format, templateId, template.defaultDimensions);
      const ok = mean < TARGET_MS[format];
      if (!ok) failures++;
      rows.push(
        `${templateId.padEnd(22)}${style.padEnd(24)}${format.padEnd(8)}` +
          `${mean.toFixed(3).padStart(9)}${p99.toFixed(3).padStart(9)}${`<${TARGET_MS[format]}`.padStart(8)}  ${ok ? 'yes' : 'NO'}`,
      );
    }
  }
  console.log(
    `Node ${process.version}, iterations json/svg ${ITERATIONS.json}, pdf ${ITERATIONS.pdf}, dxf/cf2 ${ITERATIONS.dxf}, warm-up ${WARMUP}`,
  );
  console.log(rows.join('\n'));
  if (failures > 0) process.exitCode = 1;
}

await main();
