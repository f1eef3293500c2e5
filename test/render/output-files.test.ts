// A print file comes back from its render child as a file the child wrote, never over IPC: the
// caller gets it opened and already unlinked, with the same bytes the renderer makes in-process;
// a print cancelled, past its deadline, over its memory cap or failing leaves no file once its
// child is gone; the directory of a process that died is removed by the next one's first print.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { generateDieline } from '../../src/dielines/index.js';
import { placeDesign, renderPrintPdf, type PrintOptions, type ResolvedAsset } from '../../src/print/index.js';
import { MESSAGES } from '../../src/errors.js';
import { RenderError } from '../../src/render/errors.js';
import { createRenderPool } from '../../src/render/pool.js';
import { eventually } from '../assets/helpers.js';
import { openOutputs, outputFiles, ownDirs } from './output-dirs.js';

type Pool = ReturnType<typeof createRenderPool>;

const DEFAULTS = { size: 1, queue: 8, accountQueue: 16, memoryMb: 1536, heapMb: 512, idleMs: 60_000 };
const OPTIONS: PrintOptions = { bleedMm: 3, marks: true, dieline: true, colorSpace: 'rgb' };
const RUN = { deadlineMs: 120_000, label: 'print file', account: 'account-a' };
const PANELS = ['front', 'back', 'lid', 'left'];

/**
 * A mailer box with `count` PNGs of side × side pixels (or the given bytes), one per panel. With
 * `localDir`, each is a file there that the web process must not read (its load() fails).
 */
async function placement(count: number, side: number, bytes?: Buffer, localDir?: string) {
  const dieline = generateDieline('mailer-box', { widthMm: 300, heightMm: 80, depthMm: 220 }, { bleedMm: 3 });
  const assets = new Map<string, ResolvedAsset>();
  for (let i = 0; i < count; i++) {
    const background = { r: 40 * i, g: 120, b: 200, alpha: 0.8 };
    const data = bytes ?? (await sharp({ create: { width: side, height: side, channels: 4, background } }).png().toBuffer());
    const name = `image${i}.png`;
    const facts = { name, mimeType: 'image/png', widthPx: side, heightPx: side, sizeBytes: data.length };
    if (localDir) {
      const localFile = path.join(localDir, name);
      writeFileSync(localFile, data);
      assets.set(name, { ...facts, localFile, load: () => Promise.reject(new Error('read in the web process')) });
    } else {
      assets.set(name, { ...facts, load: async () => data });
    }
  }
  const artworks = [...assets.keys()].map((name, i) => ({
    id: `art-${i}`,
    panelId: PANELS[i % PANELS.length]!,
    imageUrl: `/files/${name}`,
    offsetX: 0,
    offsetY: 0,
    scale: 0.5,
    rotationDeg: 0,
  }));
  return placeDesign({ dieline, state: { artworks }, assets });
}

/** A child that is started and ready, so a task given next begins at once. */
async function warm(pool: Pool): Promise<void> {
  (await pool.runToFile('print.pdf', { placement: await placement(1, 8), options: OPTIONS }, RUN)).stream.destroy();
}

let pool: Pool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('render output files', () => {
  it('a print comes back as the stream of an unlinked file, byte for byte what the renderer makes', async () => {
    pool = createRenderPool(DEFAULTS);
    const placed = await placement(2, 64);
    const file = await pool.runToFile('print.pdf', { placement: placed, options: OPTIONS }, RUN);
    // Nothing under a name any more; only the open descriptor holds the bytes.
    expect(outputFiles()).toEqual([]);
    expect(openOutputs()).toHaveLength(1);
    const bytes = await buffer(file.stream);
    expect(bytes.length).toBe(file.size);
    expect(bytes.equals(await renderPrintPdf(await placement(2, 64), OPTIONS))).toBe(true);
    await eventually(async () => openOutputs().length === 0, 5_000, 'the descriptor to close');

    // A stream nobody reads, destroyed, closes its descriptor too.
    (await pool.runToFile('print.pdf', { placement: placed, options: OPTIONS }, RUN)).stream.destroy();
    await eventually(async () => openOutputs().length === 0, 5_000, 'the descriptor to close');

    const dirs = ownDirs();
    expect(dirs).toHaveLength(1);
    await pool.close();
    expect(existsSync(path.join(tmpdir(), dirs[0]!))).toBe(false);
  }, 120_000);

  it('a print cancelled while its child writes the file leaves no file', async () => {
    pool = createRenderPool(DEFAULTS);
    await warm(pool);
    const client = new AbortController();
    const print = pool.runToFile('print.pdf', { placement: await placement(2, 6000), options: OPTIONS }, { ...RUN, signal: client.signal });
    await eventually(async () => outputFiles().length === 1, 60_000, 'the child to begin writing');
    client.abort();
    await expect(print).rejects.toMatchObject({ reason: 'cancelled' });
    expect(outputFiles()).toEqual([]);
    expect(pool.stats().kills.cancelled).toBe(1);
  }, 120_000);

  it('a print past its deadline, or over its memory cap, leaves no file', async () => {
    pool = createRenderPool(DEFAULTS);
    await warm(pool);
    // Three 64-megapixel PNGs take seconds to decode and compress on any machine.
    const large = await placement(3, 8000);
    const late = pool.runToFile('print.pdf', { placement: large, options: OPTIONS }, { ...RUN, deadlineMs: 1_000 });
    await expect(late).rejects.toBeInstanceOf(RenderError);
    await expect(late).rejects.toMatchObject({ reason: 'deadline' });
    expect(outputFiles()).toEqual([]);
    await pool.close();

    pool = createRenderPool({ ...DEFAULTS, memoryMb: 400 });
    await warm(pool);
    await expect(pool.runToFile('print.pdf', { placement: large, options: OPTIONS }, RUN)).rejects.toMatchObject({ reason: 'memory' });
    expect(outputFiles()).toEqual([]);
  }, 180_000);

  it('a print that fails in its child leaves no file, and the child takes the next print', async () => {
    pool = createRenderPool(DEFAULTS);
    const broken = await placement(1, 64, Buffer.from('not a PNG at all'));
    await expect(pool.runToFile('print.pdf', { placement: broken, options: OPTIONS }, RUN)).rejects.toThrow();
    expect(outputFiles()).toEqual([]);
    const file = await pool.runToFile('print.pdf', { placement: await placement(1, 64), options: OPTIONS }, RUN);
    expect((await buffer(file.stream)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pool.stats()).toMatchObject({ crashes: 0, children: 1 });
  }, 120_000);

  it("an image on this machine's disk goes to the child as its path: the web process never reads it", async () => {
    pool = createRenderPool(DEFAULTS);
    const dir = mkdtempSync(path.join(tmpdir(), 'pf-test-local-'));
    try {
      const placed = await placement(2, 64, undefined, dir);
      const file = await pool.runToFile('print.pdf', { placement: placed, options: OPTIONS }, RUN);
      expect((await buffer(file.stream)).equals(await renderPrintPdf(await placement(2, 64), OPTIONS))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('an image deleted after the print was asked for fails it with a 409, and leaves no file', async () => {
    pool = createRenderPool(DEFAULTS);
    const dir = mkdtempSync(path.join(tmpdir(), 'pf-test-local-'));
    try {
      const placed = await placement(2, 64, undefined, dir);
      rmSync(path.join(dir, 'image1.png'));
      const failed = pool.runToFile('print.pdf', { placement: placed, options: OPTIONS }, RUN);
      await expect(failed).rejects.toMatchObject({ statusCode: 409, message: MESSAGES.imageDeletedWhileRendering });
      await eventually(async () => outputFiles().length === 0, 10_000, 'the output file to be removed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("the first print removes the output directory of a process that is gone, and no live process's", async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const orphan = path.join(tmpdir(), `pf-render-${gone}-orphan`);
    const alive = path.join(tmpdir(), `pf-render-${process.ppid}-alive`);
    for (const dir of [orphan, alive]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'output-1'), '%PDF-');
    }
    try {
      pool = createRenderPool(DEFAULTS);
      (await pool.runToFile('print.pdf', { placement: await placement(1, 8), options: OPTIONS }, RUN)).stream.destroy();
      expect(existsSync(orphan)).toBe(false);
      expect(existsSync(path.join(alive, 'output-1'))).toBe(true);
    } finally {
      rmSync(orphan, { recursive: true, force: true });
      rmSync(alive, { recursive: true, force: true });
    }
  }, 120_000);
});
