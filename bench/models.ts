/**
 * 3D model benchmark, in process: per template, the median wall time of one GLB without a texture
 * (geometry + glTF encoding) and with a 2048 px print texture (the dieline or label sheet, the
 * texture PNG from the print renderer with a background colour, the GLB), and the sizes of both.
 * Run: npx tsx bench/models.ts [iterations]   (also the models workload of `npm run bench`)
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { TEMPLATES } from '../src/catalog/data.js';
import { generateDieline } from '../src/dielines/index.js';
import { generateContainerLayout } from '../src/dielines/containers/index.js';
import { buildModel, modelParts, type ModelInput } from '../src/models/index.js';
import { placeDesign, renderTextureJpeg } from '../src/print/index.js';
import type { Row } from './rows.js';

export const MODEL_TARGET_MS = 50;
export const TEXTURED_TARGET_MS = 500;
const TEXTURE_PX = 2048;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(iterations: number, run: () => Promise<Uint8Array>): Promise<{ ms: number; bytes: number }> {
  let bytes = (await run()).length; // warm-up
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    bytes = (await run()).length;
    samples.push(performance.now() - start);
  }
  return { ms: median(samples), bytes };
}

export async function benchModels(iterations = 20): Promise<Row[]> {
  const rows: Row[] = [];
  for (const template of TEMPLATES) {
    const input: ModelInput = {
      templateId: template.id,
      kind: template.kind,
      dimensions: template.defaultDimensions,
      material: template.materials[0]!,
      finish: template.finishes[0] ?? 'matte',
    };
    const plain = await time(iterations, () => buildModel(input));
    const textured = await time(Math.max(3, Math.floor(iterations / 4)), async () => {
      const state = { background: { kind: 'color', value: '#d0342c' } };
      if (template.kind === 'box') {
        const dieline = generateDieline(template.id, template.defaultDimensions, { material: input.material });
        const built = modelParts({ ...input, textureSize: TEXTURE_PX });
        const placement = placeDesign({ dieline, state, assets: new Map() });
        return buildModel({ ...input, texture: await renderTextureJpeg(placement, TEXTURE_PX, undefined, built.atlas) }, built);
      }
      const layout = generateContainerLayout(template.id, template.kind, template.defaultDimensions);
      const placement = placeDesign({ dieline: layout.dieline, state, assets: new Map() });
      return buildModel({ ...input, texture: await renderTextureJpeg(placement, TEXTURE_PX, layout.textureWindow) });
    });
    rows.push({
      name: 'models',
      workload: `3D model ${template.id}`,
      figures: { 'ms': plain.ms, 'KB': plain.bytes / 1024, 'ms 2048 px': textured.ms, 'KB 2048 px': textured.bytes / 1024 },
      target: `< ${MODEL_TARGET_MS} ms, < ${TEXTURED_TARGET_MS} ms textured`,
      met: plain.ms < MODEL_TARGET_MS && textured.ms < TEXTURED_TARGET_MS,
    });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const iterations = Number(process.argv[2]);
  const rows = await benchModels(Number.isFinite(iterations) && iterations > 0 ? iterations : 20);
  console.log('| template | ms | KB | ms (2048 px texture) | KB (2048 px texture) | targets met |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    const f = row.figures;
    const r = (v: number) => Math.round(v * 10) / 10;
    const cells = [f['ms']!, f['KB']!, f['ms 2048 px']!, f['KB 2048 px']!].map(r);
    console.log(`| ${row.workload.replace('3D model ', '')} | ${cells.join(' | ')} | ${row.met ? 'yes' : 'no'} |`);
  }
}
