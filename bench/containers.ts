/**
 * Container print benchmark: each container template at its catalog size with two 6000 × 4000 JPEG
 * placements (front and back, the back wrapping across the layout's ends), as the service runs it:
 * layout, placement with the wrap repeated, the print PDF (rgb, JPEGs passed through) and the
 * 1024 px preview. Medians of `rounds` runs after one warm-up. Run alone: npx tsx bench/containers.ts [rounds]
 */
import { performance } from 'node:perf_hooks';
import { TEMPLATES } from '../src/catalog/data.js';
import { generateContainerLayout, isContainerKind } from '../src/dielines/containers/index.js';
import { unwrapPlacement } from '../src/print/containers.js';
import { placeDesign, renderPreviewPng, renderPrintPdf, type ResolvedAsset } from '../src/print/index.js';
import { median, peakRss, photo, PREVIEW_TARGET_MS, PRINT_TARGET_MS } from './print.js';

export interface ContainerPrintRow {
  id: string;
  workload: string;
  figures: Record<string, number>;
  target: string;
  met: boolean;
}

export async function benchContainerPrint(rounds = 5): Promise<ContainerPrintRow[]> {
  const images = await Promise.all([0, 1].map(photo));
  const assets = new Map<string, ResolvedAsset>(
    images.map((bytes, i) => [
      `photo${i}.jpg`,
      {
        name: `photo${i}.jpg`,
        mimeType: 'image/jpeg',
        widthPx: 6000,
        heightPx: 4000,
        orientation: 1,
        sizeBytes: bytes.length,
        load: async () => bytes,
      },
    ]),
  );
  const state = {
    background: { kind: 'color', value: '#f4efe6' },
    artworks: ['front', 'back'].map((panelId, i) => ({
      id: `art-${i + 1}`,
      panelId,
      imageUrl: `/files/photo${i}.jpg`,
      offsetX: 0,
      offsetY: 0,
      scale: 0.8,
      rotationDeg: 0,
    })),
  };
  const options = { bleedMm: 3, marks: true, dieline: true, colorSpace: 'rgb' as const };
  const rows: ContainerPrintRow[] = [];
  for (const template of TEMPLATES) {
    if (!isContainerKind(template.kind)) continue;
    const place = () => {
      const layout = generateContainerLayout(template.id, template.kind as never, template.defaultDimensions);
      const surface = { ...layout.dieline, ...(layout.wrapWidth ? { wrapWidth: layout.wrapWidth } : {}) };
      return unwrapPlacement(placeDesign({ dieline: surface, state, assets }));
    };
    await renderPrintPdf(place(), options);
    await renderPreviewPng(place(), 1024);
    const print: number[] = [];
    const preview: number[] = [];
    for (let i = 0; i < rounds; i++) {
      print.push((await peakRss(() => renderPrintPdf(place(), options))).ms);
      const start = performance.now();
      await renderPreviewPng(place(), 1024);
      preview.push(performance.now() - start);
    }
    const figures = { 'print ms': median(print), 'preview 1024 px ms': median(preview) };
    rows.push({
      id: '13c',
      workload: `container print PDF + preview, ${template.id}, two 6000 × 4000 JPEGs`,
      figures,
      target: `print < ${PRINT_TARGET_MS} ms, preview < ${PREVIEW_TARGET_MS} ms`,
      met: figures['print ms'] < PRINT_TARGET_MS && figures['preview 1024 px ms'] < PREVIEW_TARGET_MS,
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchContainerPrint(Number(process.argv[2]) || 5)) {
    console.log(row.workload, row.figures, row.met ? 'met' : 'MISSED');
  }
}
