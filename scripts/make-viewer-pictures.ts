/**
 * Writes the pictures in docs/viewer.md: the viewer page (`controls=none`) showing three templates
 * under the studio and dramatic presets, the mailer box half folded and seen from below. Starts the service from
 * this checkout (on a scratch database beside DATABASE_URL when it is set, else the embedded
 * engine in a temporary directory), drives Debian's chromium through playwright-core, and keeps
 * each PNG small (a 480 × 360 palette image).
 * Run: npx tsx scripts/make-viewer-pictures.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { createDatabase, ROOT, startService, type BenchDatabase } from '../bench/support.js';
import { CHROMIUM_ARGS } from '../src/services/mockups.js';
// @ts-expect-error: a plain ESM build script without type declarations
import { buildViewer } from './build-viewer.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOCS = path.join(ROOT, 'docs');
const SIZE = { width: 480, height: 360 };

const MODELS = [
  { name: 'mailer-box', model: '/templates/mailer-box/model' },
  { name: 'round-bottle', model: '/templates/round-bottle/model' },
  { name: 'beverage-can', model: '/templates/beverage-can/model?material=aluminum' },
] as const;
const PRESETS = ['studio', 'dramatic'] as const;

interface Picture {
  file: string;
  query: string;
  /** Fold amount to set before the shot (box models only). */
  fold?: number;
  /** Presses of the viewer's `-` key: room for the panels standing up out of the closed box's frame. */
  zoomOut?: number;
}

const pictures: Picture[] = [
  ...MODELS.flatMap(({ name, model }) =>
    PRESETS.map((preset) => ({
      file: `viewer-${name}-${preset}.png`,
      query: `model=${encodeURIComponent(model)}&lighting=${preset}&controls=none`,
    })),
  ),
  {
    file: 'viewer-mailer-box-fold-half.png',
    query: `model=${encodeURIComponent(MODELS[0].model)}&lighting=studio&controls=none`,
    fold: 0.5,
    zoomOut: 3,
  },
  {
    file: 'viewer-mailer-box-bottom.png',
    query: `model=${encodeURIComponent(MODELS[0].model)}&lighting=studio&angle=bottom&controls=none`,
  },
];

await (buildViewer as () => Promise<string>)();
const work = mkdtempSync(path.join(tmpdir(), 'pf-pictures-'));
let database: BenchDatabase | undefined;
if (process.env.DATABASE_URL) database = await createDatabase(process.env.DATABASE_URL, 'pf_pictures');
const service = await startService({
  entry: path.join(ROOT, 'src/server.ts'),
  nodeArgs: ['--import', 'tsx'],
  dataDir: path.join(work, 'data'),
  uploadDir: path.join(work, 'uploads'),
  ...(database ? { databaseUrl: database.url } : {}),
  env: { LOG_LEVEL: 'warn' },
});
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: SIZE, deviceScaleFactor: 1 });
  // Software WebGL on a busy machine can hold the page for a while (shader compiles, PMREM).
  page.setDefaultTimeout(180_000);
  for (const picture of pictures) {
    await page.goto(`${service.url}/viewer?${picture.query}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('body[data-state="ready"], body[data-state="error"]');
    if ((await page.getAttribute('body', 'data-state')) !== 'ready') {
      throw new Error(`${picture.file}: the viewer says ${await page.textContent('#status')}`);
    }
    if (picture.fold !== undefined) {
      await page.evaluate(
        (amount) => (globalThis as unknown as { packagingViewer: { setFold(amount: number): void } }).packagingViewer.setFold(amount),
        picture.fold,
      );
    }
    for (let press = 0; press < (picture.zoomOut ?? 0); press++) await page.keyboard.press('-');
    // Two frames, so the last change is drawn.
    await page.evaluate(() => {
      // Runs in the page, where requestAnimationFrame exists (this file is type-checked for Node).
      const frame = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number }).requestAnimationFrame;
      return new Promise<void>((resolve) => frame(() => frame(() => resolve())));
    });
    const shot = await page.screenshot({ type: 'png' });
    const png = await sharp(shot).png({ palette: true, colours: 128, compressionLevel: 9, effort: 10 }).toBuffer();
    writeFileSync(path.join(DOCS, picture.file), png);
    console.log(`docs/${picture.file}: ${png.length} bytes`);
  }
} finally {
  await browser.close();
  await service.stop();
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
}
