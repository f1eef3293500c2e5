// CMYK print of five 24 MP photos, as a user makes it over HTTP: five 6000 × 4000 sRGB JPEGs
// (gradients with grain, carrying the sRGB profile as camera files do) uploaded and placed on a
// mailer box 381 mm wide each, about 400 ppi, so nothing is resampled; then the print file in CMYK
// (FOGRA39) twice. Each print: CPU seconds of the render children (from /proc, so libvips' threads
// count), wall time to the last byte, and the print child's peak resident memory (VmHWM); for the
// second, the web process's own CPU time too. The first print converts every photo; the second
// finds them in the image cache (a fresh directory).
// PostgreSQL when DATABASE_URL is set (a fresh database, dropped afterwards), else the embedded engine.
// Usage: npm run build && npm run bench:print-photos
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { cpuMicros, createDatabase, json, startService } from './support.js';

/** Targets: CPU of the first print per photo, wall of the second, the render child's peak RSS. */
export const PHOTOS_FIRST_CPU_S_PER_PHOTO = 3;
export const PHOTOS_SECOND_WALL_S = 1.5;
export const PHOTOS_CHILD_RSS_MB = 600;

const PHOTOS = 5;
const WIDTH_PX = 6000;
const HEIGHT_PX = 4000;
const PRINTED_WIDTH_MM = (WIDTH_PX / 400) * 25.4;
const MAILER = { widthMm: 400, depthMm: 300, heightMm: 100 };
const PAPER = { kind: 'color', value: '#f4efe6' };
/** The panels the photos are centred on, and their upright widths (mm) at MAILER's size. */
const PANELS: [string, number][] = [
  ['lid', 398.5],
  ['bottom', 409.5],
  ['back', 405.5],
  ['front', 405.5],
  ['left', 303.5],
];

/** A camera-sized JPEG (about 7 MB): a diagonal gradient under a soft radial one, with fine grain. */
async function photo(index: number): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH_PX}" height="${HEIGHT_PX}"><defs>` +
    `<linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="rgb(${40 * index},120,200)"/>` +
    `<stop offset="1" stop-color="rgb(240,${200 - 30 * index},60)"/></linearGradient>` +
    `<radialGradient id="r"><stop offset="0" stop-color="#fff" stop-opacity="0.6"/>` +
    `<stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
    `</defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${1500 + 700 * index}" cy="1800" r="1400" fill="url(#r)"/></svg>`;
  const noise = { type: 'gaussian', mean: 128, sigma: 12 } as const;
  const grain = await sharp({ create: { width: WIDTH_PX, height: HEIGHT_PX, channels: 3, background: '#000', noise } }).raw().toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, raw: { width: WIDTH_PX, height: HEIGHT_PX, channels: 3 }, blend: 'overlay' }])
    .withIccProfile('srgb')
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The process's children (the render children), by pid. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent pid is the second field after the parenthesised command name.
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) === pid) children.push(Number(name));
    } catch {
      // Exited meanwhile.
    }
  }
  return children;
}

/** Peak resident memory of a process so far (Linux VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? (Number(kb) * 1024) / 1e6 : 0;
}

export interface PrintPhotosFigures {
  'first print CPU s': number;
  'first print CPU s per photo': number;
  'first print wall s': number;
  'second print CPU s': number;
  'second print wall s': number;
  'render child peak RSS MB': number;
  /** The web process's own work on the second print: reading the photos, the IPC both ways, the HTTP answer. */
  'second print web process CPU s': number;
  'file MB': number;
}

export async function benchPrintPhotos(): Promise<PrintPhotosFigures> {
  const database = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined;
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-print-images-'));
  const service = await startService({
    ...(database ? { databaseUrl: database.url } : {}),
    // A fresh image cache; children that live through the run, so their CPU time is all read.
    env: { BCRYPT_COST: '4', PRINT_IMAGE_CACHE_DIR: cacheDir, RENDER_CHILD_IDLE_MS: '600000' },
  });
  try {
    const registered = await fetch(`${service.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Bench' }),
    });
    const auth = { authorization: `Bearer ${(await json<{ token: string }>(registered)).token}` };
    const names: string[] = [];
    for (let i = 0; i < PHOTOS; i++) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await photo(i))], { type: 'image/jpeg' }), `photo${i}.jpg`);
      const uploaded = await fetch(`${service.url}/assets`, { method: 'POST', headers: auth, body: form });
      names.push((await json<{ asset: { name: string } }>(uploaded)).asset.name);
    }
    const create = async (artworks: object[]) => {
      const response = await fetch(`${service.url}/projects`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Photos', templateId: 'mailer-box', ...MAILER, artworkJson: { background: PAPER, artworks } }),
      });
      return (await json<{ project: { id: string } }>(response)).project.id;
    };
    const artworks = PANELS.map(([panelId, widthMm], i) => ({
      id: `photo-${i + 1}`,
      panelId,
      imageUrl: `/files/${names[i]}`,
      offsetX: 0,
      offsetY: 0,
      scale: PRINTED_WIDTH_MM / widthMm,
      rotationDeg: 0,
    }));
    const photos = await create(artworks);
    const empty = await create([]);

    const print = async (id: string) => {
      const before = new Map(childrenOf(service.pid).map((pid) => [pid, cpuMicros(pid)]));
      const web = cpuMicros(service.pid);
      const started = performance.now();
      const response = await fetch(`${service.url}/projects/${id}/print?colorSpace=cmyk&condition=fogra39`, { headers: auth });
      const body = Buffer.from(await response.arrayBuffer());
      const wallS = (performance.now() - started) / 1000;
      if (response.status !== 200) throw new Error(`print answered ${response.status}: ${body.toString('utf8').slice(0, 500)}`);
      let cpuS = 0;
      let rssMb = 0;
      for (const pid of childrenOf(service.pid)) {
        const used = (cpuMicros(pid) - (before.get(pid) ?? 0)) / 1e6;
        cpuS += used;
        if (used > 0.05) rssMb = Math.max(rssMb, peakRssMb(pid));
      }
      return { cpuS, wallS, rssMb, body, webCpuS: (cpuMicros(service.pid) - web) / 1e6 };
    };

    // Start the print child and load its modules, outside the measurement.
    await print(empty);
    const first = await print(photos);
    const second = await print(photos);
    const fullSize = first.body.toString('latin1').match(new RegExp(`/Width ${WIDTH_PX}\\b`, 'g'))?.length ?? 0;
    if (fullSize !== PHOTOS) throw new Error(`expected ${PHOTOS} images at ${WIDTH_PX} px, found ${fullSize}`);
    return {
      'first print CPU s': first.cpuS,
      'first print CPU s per photo': first.cpuS / PHOTOS,
      'first print wall s': first.wallS,
      'second print CPU s': second.cpuS,
      'second print wall s': second.wallS,
      'render child peak RSS MB': Math.max(first.rssMb, second.rssMb),
      'second print web process CPU s': second.webCpuS,
      'file MB': first.body.length / 1e6,
    };
  } finally {
    await service.stop();
    await database?.drop();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

export const printPhotosTargetsMet = (figures: PrintPhotosFigures) =>
  figures['first print CPU s per photo'] <= PHOTOS_FIRST_CPU_S_PER_PHOTO &&
  figures['second print wall s'] < PHOTOS_SECOND_WALL_S &&
  figures['render child peak RSS MB'] < PHOTOS_CHILD_RSS_MB;

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchPrintPhotos();
  const round = (value: number) => Math.round(value * 100) / 100;
  console.log(
    `cmyk print of five 24 MP photos at 400 ppi (load average ${loadavg()[0]!.toFixed(1)}): ${Object.entries(figures)
      .map(([key, value]) => `${key}=${round(value)}`)
      .join(' ')}`,
  );
  console.log(
    `targets: first ≤ ${PHOTOS_FIRST_CPU_S_PER_PHOTO} CPU-s per photo, second < ${PHOTOS_SECOND_WALL_S} s wall, ` +
      `render child < ${PHOTOS_CHILD_RSS_MB} MB: ${printPhotosTargetsMet(figures) ? 'met' : 'MISSED'}`,
  );
}
