/**
 * Print pipeline benchmark (issue 16): a mailer-box with five 6000 × 4000 JPEG placements.
 * - print: placement + renderPrintPdf (rgb; the JPEGs pass through), wall time and peak RSS growth
 *   above the level before the run (sampled every 5 ms);
 * - preview: placement + renderPreviewPng at 1024 px (shrink-on-load downsampling).
 * Medians of `rounds` runs after one warm-up. Run alone: npx tsx bench/print.ts [rounds]
 * PDF/X-4 in CMYK and RGB (benchPressPrint): npx tsx bench/print.ts press [rounds]
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { generateDieline } from '../src/dielines/index.js';
import { placeDesign, renderPreviewPng, renderPrintPdf, type ResolvedAsset } from '../src/print/index.js';

export const PRINT_TARGET_MS = 2000;
export const PRINT_TARGET_RSS_MB = 300;
export const PREVIEW_TARGET_MS = 400;
/** PDF/X-4 rows: the same mailer in CMYK (converted, resampled to 300 ppi) and in RGB (pass-through). */
export const PRESS_CMYK_TARGET_MS = 4000;
export const PRESS_RGB_TARGET_MS = 2000;

/**
 * A photo-sized JPEG: a smooth gradient with fine grain, ~4–6 MB at quality 90 like a camera
 * file (pure noise would be ~13 MB and decode slower than any photograph).
 */
export async function photo(index: number): Promise<Buffer> {
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="4000"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
      `<stop offset="0" stop-color="rgb(${40 * index},120,200)"/><stop offset="1" ` +
      `stop-color="rgb(240,${200 - 30 * index},60)"/></linearGradient></defs>` +
      `<rect width="6000" height="4000" fill="url(#g)"/></svg>`,
  );
  const grain = await sharp({
    create: { width: 6000, height: 4000, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 12 } },
  })
    .raw()
    .toBuffer();
  return sharp(gradient)
    .composite([{ input: grain, raw: { width: 6000, height: 4000, channels: 3 }, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function peakRss<T>(task: () => Promise<T>): Promise<{ ms: number; rssMb: number }> {
  global.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const start = performance.now();
  await task();
  const ms = performance.now() - start;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms, rssMb: (peak - before) / 1e6 };
}

/** The mailer with five photos, one per panel at 0.8 of its width. */
async function fiveJpegMailer() {
  const dieline = generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 });
  const images = await Promise.all([0, 1, 2, 3, 4].map(photo));
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
  const panels = ['front', 'back', 'lid', 'bottom', 'left'];
  const state = {
    background: { kind: 'color', value: '#f4efe6' },
    artworks: panels.map((panelId, i) => ({
      id: `art-${i + 1}`,
      panelId,
      imageUrl: `/files/photo${i}.jpg`,
      offsetX: 0,
      offsetY: 0,
      scale: 0.8,
      rotationDeg: 0,
    })),
  };
  const place = () => placeDesign({ dieline, state, assets });
  return { images, place };
}

export async function benchPrint(rounds = 5): Promise<Record<string, number>> {
  const { images, place } = await fiveJpegMailer();
  const options = { bleedMm: 3, marks: true, dieline: true, colorSpace: 'rgb' as const };
  await renderPrintPdf(place(), options);
  // The first preview decodes every photo (shrink-on-load); later ones reuse the downsampled copies.
  let start = performance.now();
  await renderPreviewPng(place(), 1024);
  const previewCold = performance.now() - start;
  const print: { ms: number; rssMb: number }[] = [];
  const preview: number[] = [];
  for (let i = 0; i < rounds; i++) {
    print.push(await peakRss(() => renderPrintPdf(place(), options)));
    start = performance.now();
    await renderPreviewPng(place(), 1024);
    preview.push(performance.now() - start);
  }
  return {
    'print ms': median(print.map((r) => r.ms)),
    'print peak RSS growth MB': Math.max(...print.map((r) => r.rssMb)),
    'preview 1024 px ms': median(preview),
    'first preview 1024 px ms (decodes the photos)': previewCold,
    'JPEG MB each': images[0]!.length / 1e6,
  };
}

/** Sum of the stored lengths of the image streams and the OutputIntent's profile (`/N 4`), from the file's bytes. */
function imageAndProfileBytes(pdf: Buffer): number {
  let total = 0;
  for (const match of pdf.toString('latin1').matchAll(/\n\d+ 0 obj\n<<\n((?:(?!>>)[\s\S])*)>>\nstream\n/g)) {
    const dict = match[1]!;
    const length = /\/Length (\d+)/.exec(dict);
    if (length && (dict.includes('/Subtype /Image') || /\/N 4\b/.test(dict))) total += Number(length[1]);
  }
  return total;
}

/**
 * The five-photo mailer as PDF/X-4 in CMYK (FOGRA39: each photo resampled to 300 ppi and converted
 * once, one JPEG stream at quality 90) and RGB (the JPEGs pass through): wall time, peak RSS growth,
 * file size, and in CMYK how far the file is above its image streams plus the profile.
 */
export async function benchPressPrint(rounds = 3): Promise<Record<string, number>> {
  const { place } = await fiveJpegMailer();
  const run = async (colorSpace: 'rgb' | 'cmyk') => {
    const options = { bleedMm: 3, marks: true, dieline: true, colorSpace, condition: 'fogra39' };
    let pdf = await renderPrintPdf(place(), options);
    const results: { ms: number; rssMb: number; cpuMs: number }[] = [];
    for (let i = 0; i < rounds; i++) {
      // CPU time of the whole process (libvips and libuv threads included): on a busy machine the
      // wall time says more about the neighbours than about the render.
      const cpu = process.cpuUsage();
      const measured = await peakRss(async () => {
        pdf = await renderPrintPdf(place(), options);
      });
      const used = process.cpuUsage(cpu);
      results.push({ ...measured, cpuMs: (used.user + used.system) / 1000 });
    }
    return {
      ms: median(results.map((r) => r.ms)),
      cpuMs: median(results.map((r) => r.cpuMs)),
      rssMb: Math.max(...results.map((r) => r.rssMb)),
      pdf,
    };
  };
  const cmyk = await run('cmyk');
  const rgb = await run('rgb');
  const streams = imageAndProfileBytes(cmyk.pdf);
  return {
    'cmyk print ms': cmyk.ms,
    'cmyk CPU ms': cmyk.cpuMs,
    'cmyk peak RSS growth MB': cmyk.rssMb,
    'cmyk file MB': cmyk.pdf.length / 1e6,
    'cmyk file over image streams + profile %': ((cmyk.pdf.length - streams) / streams) * 100,
    'rgb print ms': rgb.ms,
    'rgb CPU ms': rgb.cpuMs,
    'rgb peak RSS growth MB': rgb.rssMb,
    'rgb file MB': rgb.pdf.length / 1e6,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'press') {
    const figures = await benchPressPrint(Number(process.argv[3]) || 3);
    console.log(figures);
    console.log(
      `targets: cmyk < ${PRESS_CMYK_TARGET_MS} ms ${figures['cmyk print ms']! < PRESS_CMYK_TARGET_MS ? 'met' : 'MISSED'}, ` +
        `cmyk RSS < ${PRINT_TARGET_RSS_MB} MB ${figures['cmyk peak RSS growth MB']! < PRINT_TARGET_RSS_MB ? 'met' : 'MISSED'}, ` +
        `rgb < ${PRESS_RGB_TARGET_MS} ms ${figures['rgb print ms']! < PRESS_RGB_TARGET_MS ? 'met' : 'MISSED'}`,
    );
    process.exit(0);
  }
  const figures = await benchPrint(Number(process.argv[2]) || 5);
  console.log(figures);
  console.log(
    `targets: print < ${PRINT_TARGET_MS} ms ${figures['print ms']! < PRINT_TARGET_MS ? 'met' : 'MISSED'}, ` +
      `RSS < ${PRINT_TARGET_RSS_MB} MB ${figures['print peak RSS growth MB']! < PRINT_TARGET_RSS_MB ? 'met' : 'MISSED'}, ` +
      `preview < ${PREVIEW_TARGET_MS} ms ${figures['preview 1024 px ms']! < PREVIEW_TARGET_MS ? 'met' : 'MISSED'}`,
  );
}
