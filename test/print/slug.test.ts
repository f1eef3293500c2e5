// The slug and the file's names (extensions §14): with marks, one line below the crop marks outside
// the bleed naming the project, its version, the condition, the colour space and the version's
// date (read back with poppler's pdftotext and pdffonts); Info and XMP dates are that version's
// updatedAt; Content-Disposition names the project, version and colour space.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { pageBoxes } from './harness.js';
import { readPdf, streamBytes, text, withPdfFile } from './pdf-reader.js';

const CARTON = { widthMm: 60, heightMm: 120, depthMm: 40 };

let app: App;
let owner: TestAccount;

beforeAll(async () => {
  // Generous render deadlines: these files read many print files back on a shared, loaded machine.
  app = await createTestApp({ RENDER_ANALYSIS_TIMEOUT_MS: '120000', RENDER_PRINT_TIMEOUT_MS: '180000' });
  owner = await registerProAccount(app);
}, 180_000);

afterAll(async () => {
  await app.close();
});

/** Each word pdftotext finds on the first page, with its box (points, y down). */
function words(pdf: Buffer): { word: string; yMin: number; yMax: number }[] {
  const html = withPdfFile(pdf, (file) => execFileSync('pdftotext', ['-f', '1', '-l', '1', '-bbox', file, '-']).toString('utf8'));
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    word: m[5]!.replace(/&amp;/g, '&'),
    yMin: Number(m[2]),
    yMax: Number(m[4]),
  }));
}

describe('slug and names', { timeout: 120_000 }, () => {
  it('marks=true writes the slug outside the bleed; dates are the version’s; the file is named after the project', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/projects',
      headers: owner.auth,
      payload: {
        name: 'Oats draft',
        templateId: 'reverse-tuck-carton',
        artworkJson: { material: 'cardboard', background: { kind: 'color', value: '#d04020' } },
        ...CARTON,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ project: { id: string } }>().project.id;
    const first = await app.inject({ method: 'GET', url: `/projects/${id}/print?colorSpace=cmyk`, headers: owner.auth });
    expect(first.statusCode, first.body).toBe(200);
    const changed = await app.inject({
      method: 'PUT',
      url: `/projects/${id}`,
      headers: owner.auth,
      payload: { name: 'Organic Oats Café' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const project = changed.json<{ project: { updatedAt: string } }>().project;
    // The project's version travels as its ETag.
    expect(changed.headers.etag).toBe('"2"');

    const response = await app.inject({ method: 'GET', url: `/projects/${id}/print?colorSpace=cmyk`, headers: owner.auth });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="organic-oats-cafe-v2-cmyk.pdf"');
    expect(response.headers.etag).not.toBe(first.headers.etag);
    const pdf = response.rawPayload;

    const date = new Date(project.updatedAt);
    const minute = `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const found = words(pdf);
    const line = found.map((w) => w.word).join(' ');
    expect(line).toContain(`Organic Oats Café · version 2 · FOGRA39 · CMYK · ${minute}`);
    // Below the bleed box's bottom edge (pdftotext measures from the top of the page).
    const media = pageBoxes(pdf, 'MediaBox')[0]!;
    const bleed = pageBoxes(pdf, 'BleedBox')[0]!;
    const bleedBottom = media[3]! - bleed[1]!;
    const slugWords = found.filter((w) => ['Organic', 'FOGRA39', 'CMYK'].includes(w.word));
    expect(slugWords.length).toBe(3);
    for (const word of slugWords) expect(word.yMin, word.word).toBeGreaterThan(bleedBottom);
    for (const word of slugWords) expect(word.yMax, word.word).toBeLessThanOrEqual(media[3]!);
    // Its font is embedded (PDF/X).
    const fonts = withPdfFile(pdf, (file) => execFileSync('pdffonts', [file]).toString('utf8')).split('\n').slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) expect(font, font).toMatch(/\byes\s+yes\s+(yes|no)\s+\d+\s+\d+\s*$/);

    // Info and XMP carry the version's date.
    const read = readPdf(pdf);
    const stamp = `D:${date.toISOString().slice(0, 19).replace(/[-:T]/g, '')}Z`;
    for (const key of ['/CreationDate', '/ModDate']) expect(String(text(read.resolve(read.info[key])))).toContain(stamp);
    const xmp = streamBytes(pdf, read.catalog['/Metadata'] as string).toString('utf8');
    expect(xmp).toContain(`<xmp:ModifyDate>${date.toISOString().split('.')[0]}Z</xmp:ModifyDate>`);

    const plain = await app.inject({ method: 'GET', url: `/projects/${id}/print?colorSpace=rgb&marks=false`, headers: owner.auth });
    expect(plain.headers['content-disposition']).toBe('attachment; filename="organic-oats-cafe-v2-rgb.pdf"');
    expect(words(plain.rawPayload).map((w) => w.word)).not.toContain('FOGRA39');
  });
});
