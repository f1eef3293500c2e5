// Steps shared by the export tests: a printable project, polling an export to its end, and
// downloading its file through the signed link, as a client does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';

export interface ExportBody {
  id: string;
  projectId: string;
  projectVersion: number;
  format: string;
  options: Record<string, unknown>;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: {
    statusCode: number;
    error: string;
    message: string;
    findings?: Array<{ severity: string; code: string; message: string }>;
  } | null;
  downloadUrl: string | null;
  expiresAt: string | null;
}

export const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };

export const printableDesign = (imageUrl: string) => ({
  material: 'kraft',
  background: { kind: 'color', value: '#00ff00' },
  artworks: [{ id: 'art-1', panelId: 'front', imageUrl, offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 0 }],
});

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the export until it has finished (or the deadline passes). */
export async function pollExport(read: () => Promise<ExportBody>, timeoutMs = 60_000): Promise<ExportBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await read();
    if (current.status === 'succeeded' || current.status === 'failed') return current;
    if (Date.now() > deadline) throw new Error(`export ${current.id} still ${current.status} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

export async function pollInjected(app: App, url: string, headers: Record<string, string>, timeoutMs?: number): Promise<ExportBody> {
  return pollExport(async () => {
    const response = await app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ export: ExportBody }>().export;
  }, timeoutMs);
}

/** pdfinfo's page size in points, per page. */
export function pdfPageSizes(pdf: Buffer): Array<[number, number]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-export-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    const info = execFileSync('pdfinfo', ['-f', '1', '-l', '100', file], { encoding: 'utf8' });
    return [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)].map((m) => [Number(m[1]), Number(m[2])]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
