// Peak resident memory of one render child making a print file of large images: the figure the
// pixel budget (MAX_TOTAL_PIXELS) and the child's memory cap (RENDER_CHILD_MEMORY_MB) are set from.
// Usage: npx tsx bench/render-memory.ts [images=2] [side=9000]
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { generateDieline } from '../src/dielines/index.js';
import { placeDesign, type ResolvedAsset } from '../src/print/index.js';
import { createRenderPool } from '../src/render/pool.js';

const count = Number(process.argv[2] ?? 2);
const side = Number(process.argv[3] ?? 9000);
const dieline = generateDieline('mailer-box', { widthMm: 300, heightMm: 80, depthMm: 220 }, { bleedMm: 3 });
const panels = ['front', 'back', 'lid', 'left'];
const assets = new Map<string, ResolvedAsset>();
for (let i = 0; i < count; i++) {
  const background = { r: 40 * i, g: 120, b: 200, alpha: 0.8 };
  const bytes = await sharp({ create: { width: side, height: side, channels: 4, background } }).png().toBuffer();
  const name = `image${i}.png`;
  const size = { widthPx: side, heightPx: side, sizeBytes: bytes.length };
  assets.set(name, { name, mimeType: 'image/png', ...size, load: async () => bytes });
}
const artworks = [...assets.keys()].map((name, i) => ({
  id: `art-${i}`,
  panelId: panels[i % panels.length]!,
  imageUrl: `/files/${name}`,
  offsetX: 0,
  offsetY: 0,
  scale: 0.5,
  rotationDeg: 0,
}));
const state = { artworks };
const placement = placeDesign({ dieline, state, assets });
const pool = createRenderPool({ size: 1, queue: 0, accountQueue: 1, memoryMb: 16384, heapMb: 512, idleMs: 60_000 });
const started = Date.now();
const options = { bleedMm: 3, marks: true, dieline: true, colorSpace: 'rgb' } as const;
const pdf = await pool.runToFile('print.pdf', { placement, options }, { deadlineMs: 600_000, label: 'print file', account: 'bench' });
pdf.stream.destroy();
const [pid] = pool.stats().pids;
const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
const pixels = `${count} × ${side}×${side} RGBA PNG (${((count * side * side) / 1e6).toFixed(0)} MP)`;
console.log(
  `${pixels}: PDF ${(pdf.size / 1e6).toFixed(1)} MB in ${Date.now() - started} ms; child peak RSS ${(Number(peak) / 1024).toFixed(0)} MB`,
);
await pool.close();
