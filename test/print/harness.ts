// Shared steps of the print tests: images made with sharp, uploads and projects through the API,
// and rasterising with pdftoppm (installed by scripts/ensure-poppler.sh).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { distanceToBoundary, distanceToSegment, pointInPolygon } from '../../src/dielines/geometry.js';
import { generateDieline, type Dieline } from '../../src/dielines/index.js';
import type { TestAccount } from '../helpers/accounts.js';
import { uploadAsset } from '../assets/helpers.js';

export const RED: Rgb = [255, 0, 0];
export const BLUE: Rgb = [0, 0, 255];
export const GREEN: Rgb = [0, 255, 0];
export const WHITE: Rgb = [255, 255, 255];
export type Rgb = [number, number, number];

/** A JPEG whose top half is `top` and bottom half `bottom`: its orientation shows on the print. */
export async function twoToneJpeg(width: number, height: number, top: Rgb = RED, bottom: Rgb = BLUE): Promise<Buffer> {
  const half = Math.floor(height / 2);
  const part = (color: Rgb, h: number) =>
    sharp({ create: { width, height: h, channels: 3, background: { r: color[0], g: color[1], b: color[2] } } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#000' } })
    .composite([
      { input: await part(top, half), top: 0, left: 0 },
      { input: await part(bottom, height - half), top: half, left: 0 },
    ])
    .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

export async function uploadJpeg(app: App, account: TestAccount, jpeg: Buffer): Promise<string> {
  const asset = await uploadAsset(app, account, jpeg, { filename: 'art.jpg', contentType: 'image/jpeg' });
  return `/files/${asset.name}`;
}

export function artwork(
  id: string,
  panelId: string,
  imageUrl: string,
  extra: Partial<Record<'offsetX' | 'offsetY' | 'scale' | 'rotationDeg', number>> = {},
) {
  return { id, panelId, imageUrl, offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 0, ...extra };
}

export async function createProject(
  app: App,
  account: TestAccount,
  templateId: string,
  artworkJson: object,
  dims: object = {},
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/projects',
    headers: account.auth,
    payload: { name: 'Print test', templateId, artworkJson, ...dims },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ project: { id: string } }>().project.id;
}

export interface PreflightFinding {
  severity: string;
  code: string;
  message: string;
  artworkId?: string;
  panelId?: string;
}

/** A new project of the account's, and its GET /projects/:id/preflight (200 asserted). */
export async function projectPreflight(app: App, account: TestAccount, templateId: string, artworkJson: object, dims: object, query = '') {
  const id = await createProject(app, account, templateId, artworkJson, dims);
  const response = await app.inject({ method: 'GET', url: `/projects/${id}/preflight${query}`, headers: account.auth });
  expect(response.statusCode, response.body).toBe(200);
  return { id, response, ...response.json<{ preflight: { ready: boolean; findings: PreflightFinding[] } }>().preflight };
}

export function catalogDieline(templateId: string, dims: { widthMm: number; heightMm: number; depthMm: number }, bleedMm = 3): Dieline {
  return generateDieline(templateId, dims, { bleedMm });
}

export interface Raster {
  width: number;
  height: number;
  /** Pixels per millimetre. */
  scale: number;
  data: Buffer;
  channels: number;
}

export function pixel(raster: Raster, xPx: number, yPx: number): Rgb {
  const x = Math.round(xPx);
  const y = Math.round(yPx);
  const i = (y * raster.width + x) * raster.channels;
  return [raster.data[i]!, raster.data[i + 1]!, raster.data[i + 2]!];
}

/**
 * The channel (0 red, 1 green, 2 blue) is well above the others: a print file's pure sRGB primary
 * is outside the press gamut, so a reader showing it through the OutputIntent gives a duller colour.
 */
export function expectDominant(actual: readonly number[], channel: number, label: string): void {
  const others = actual.slice(0, 3).filter((_, i) => i !== channel);
  expect(others.every((value) => actual[channel]! > value + 50), `${label}: ${actual.join(',')}`).toBe(true);
}

export function expectColor(actual: Rgb, expected: Rgb, label: string, tolerance = 40): void {
  const off = actual.some((c, i) => Math.abs(c - expected[i]!) > tolerance);
  expect(off ? actual : expected, label).toEqual(expected);
}

/** Every page of a PDF as raw RGB at `dpi`, via pdftoppm. */
export async function rasterisePdf(pdf: Buffer, dpi = 36): Promise<Raster[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-print-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', path.join(dir, 'in.pdf'), path.join(dir, 'page')]);
    const pages = readdirSync(dir).filter((name) => name.startsWith('page')).sort();
    const rasters: Raster[] = [];
    for (const page of pages) {
      const { data, info } = await sharp(readFileSync(path.join(dir, page))).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      rasters.push({ width: info.width, height: info.height, scale: dpi / 25.4, data, channels: info.channels });
    }
    return rasters;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function decodePng(png: Buffer, pxPerMm: number): Promise<Raster> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, scale: pxPerMm, data, channels: info.channels };
}

/** A page box as `[x0, y0, x1, y1]` in points, read from the PDF's page dictionary. */
export function pageBoxes(pdf: Buffer, box: 'TrimBox' | 'BleedBox' | 'MediaBox'): number[][] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(new RegExp(`/${box} \\[([^\\]]*)\\]`, 'g'))].map((m) => m[1]!.trim().split(/\s+/).map(Number));
}

/**
 * Samples the artboard every `stepMm`: inside the bleed outline (and away from the image area,
 * `skip`) the background colour, outside it white. Points near the bleed outline or a
 * cut or crease line (`marginMm`) are not judged (anti-aliasing, line width). Returns how many were judged.
 */
export function checkBleedFill(
  d: Dieline,
  at: (p: [number, number]) => Rgb,
  background: Rgb,
  skip: (p: [number, number]) => boolean,
  stepMm = 7,
  marginMm = 1,
): { inside: number; outside: number } {
  const bleed = d.paths.filter((p) => p.type === 'bleed').map((p) => p.points);
  const lines = d.paths.filter((p) => p.type === 'cut' || p.type === 'crease');
  const nearLine = (p: [number, number]) =>
    lines.some((line) =>
      line.points.some((a, i) => {
        const b = line.points[(i + 1) % line.points.length]!;
        return (i + 1 < line.points.length || line.closed) && distanceToSegment(p, a, b) < marginMm;
      }),
    );
  let inside = 0;
  let outside = 0;
  for (let x = d.artboard.x + 0.5; x < d.artboard.x + d.artboard.width; x += stepMm) {
    for (let y = d.artboard.y + 0.5; y < d.artboard.y + d.artboard.height; y += stepMm) {
      const p: [number, number] = [x, y];
      if (bleed.some((polygon) => distanceToBoundary(p, polygon) < marginMm) || skip(p) || nearLine(p)) continue;
      const isInside = bleed.some((polygon) => pointInPolygon(p, polygon));
      expectColor(at(p), isInside ? background : WHITE, `${isInside ? 'inside' : 'outside'} the bleed at ${x.toFixed(1)}, ${y.toFixed(1)}`);
      if (isInside) inside++;
      else outside++;
    }
  }
  return { inside, outside };
}
