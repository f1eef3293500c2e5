/**
 * The viewer's time to first frame in headless chromium with software WebGL (SwiftShader), as a
 * visitor's browser without a GPU would see it: from navigation to the page reporting `ready`
 * (model fetched and parsed, environment prefiltered, first frame drawn), median of a few loads,
 * with the model's size. Run: npx tsx bench/viewer.ts   (also the viewer workload of `npm run bench`)
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../src/services/mockups.js';
import { rowLine, type Row } from './rows.js';
import { median, startService } from './support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TEMPLATES = ['mailer-box', 'round-bottle'];

export async function benchViewer(loads = 5): Promise<Row[]> {
  const service = await startService();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const rows: Row[] = [];
  try {
    for (const template of TEMPLATES) {
      const modelPath = `/templates/${template}/model`;
      const modelBytes = (await (await fetch(`${service.url}${modelPath}`)).arrayBuffer()).byteLength;
      const samples: number[] = [];
      for (let i = 0; i <= loads; i++) {
        // A fresh context each time: no cache, as a first visit.
        const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(`${service.url}/viewer?model=${encodeURIComponent(modelPath)}`, { waitUntil: 'domcontentloaded' });
        await page.waitForSelector('body[data-state="ready"]', { timeout: 120_000 });
        if (i > 0) samples.push(performance.now() - started); // the first load warms the server's model cache
        await context.close();
      }
      rows.push({
        name: 'viewer',
        workload: `viewer first frame, ${template} (software WebGL, 800×600)`,
        figures: { ms: median(samples), modelKB: modelBytes / 1024 },
      });
    }
  } finally {
    await browser.close();
    await service.stop();
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await benchViewer()) console.log(rowLine(row));
}
