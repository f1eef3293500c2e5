/**
 * Finishes benchmark: the print of a mailer with a foil logo, a spot-UV photo and an embossed SVG
 * mark under a White underlay, beside the same design printed without effects or white (CMYK,
 * placement + renderPrintPdf, as the render child runs them). Medians of `rounds` after one
 * warm-up; target: the finished print within 1.5× of the plain one.
 * Run alone: sh scripts/node.sh node_modules/.bin/tsx bench/finishes.ts [rounds]
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { generateDieline } from '../src/dielines/index.js';
import { placeDesign, renderPrintPdf, type DesignState, type PrintOptions, type ResolvedAsset } from '../src/print/index.js';
import { median, photo } from './print.js';

export const FINISHES_TARGET_RATIO = 1.5;

const asset = (name: string, mimeType: string, widthPx: number, heightPx: number, bytes: Buffer): ResolvedAsset => ({
  name,
  mimeType,
  widthPx,
  heightPx,
  orientation: 1,
  sizeBytes: bytes.length,
  load: async () => bytes,
});

async function design() {
  const dieline = generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 });
  const logo = await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><circle cx="1000" cy="1000" r="800" fill="#c00"/></svg>',
    ),
  )
    .png()
    .toBuffer();
  const mark = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" ' +
      'viewBox="0 0 200 200"><path d="M20 20h160v40H60v120H20z" fill="#123"/></svg>',
  );
  const assets = new Map([
    ['logo.png', asset('logo.png', 'image/png', 2000, 2000, logo)],
    ['photo.jpg', asset('photo.jpg', 'image/jpeg', 6000, 4000, await photo(1))],
    ['mark.svg', asset('mark.svg', 'image/svg+xml', 200, 200, mark)],
  ]);
  const artworks = (effects: boolean): DesignState['artworks'] => [
    {
      id: 'logo',
      panelId: 'lid',
      imageUrl: '/files/logo.png',
      offsetX: 0,
      offsetY: 0,
      scale: 0.4,
      rotationDeg: 0,
      ...(effects ? { effect: 'foil-gold' } : {}),
    },
    {
      id: 'photo',
      panelId: 'front',
      imageUrl: '/files/photo.jpg',
      offsetX: 0,
      offsetY: 0,
      scale: 0.8,
      rotationDeg: 0,
      ...(effects ? { effect: 'spot-uv' } : {}),
    },
    {
      id: 'mark',
      panelId: 'left',
      imageUrl: '/files/mark.svg',
      offsetX: 0,
      offsetY: 0,
      scale: 0.3,
      rotationDeg: 0,
      ...(effects ? { effect: 'emboss' } : {}),
    },
  ];
  const place = (effects: boolean) =>
    placeDesign({ dieline, state: { background: { kind: 'color', value: '#e8dcc0' }, artworks: artworks(effects) }, assets });
  return { plain: place(false), finished: place(true) };
}

export async function benchFinishes(rounds = 5): Promise<{ plainMs: number; finishedMs: number; ratio: number }> {
  const { plain, finished } = await design();
  const base: PrintOptions = { bleedMm: 3, marks: true, dieline: true, colorSpace: 'cmyk' };
  const time = async (placement: typeof plain, options: PrintOptions) => {
    const start = performance.now();
    await renderPrintPdf(placement, options);
    return performance.now() - start;
  };
  await time(plain, base);
  await time(finished, { ...base, white: 'underlay' });
  const plainMs: number[] = [];
  const finishedMs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    plainMs.push(await time(plain, base));
    finishedMs.push(await time(finished, { ...base, white: 'underlay' }));
  }
  const result = { plainMs: median(plainMs), finishedMs: median(finishedMs), ratio: median(finishedMs) / median(plainMs) };
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.argv[2] ?? 5);
  const { plainMs, finishedMs, ratio } = await benchFinishes(rounds);
  console.log(
    `finishes print, mailer (cmyk)    plain ${plainMs.toFixed(0)} ms   foil + spot UV + emboss + ` +
      `white ${finishedMs.toFixed(0)} ms   ratio ${ratio.toFixed(2)} (target ≤ ${FINISHES_TARGET_RATIO})`,
  );
}
