// Printing conditions (extensions §14): FOGRA29 for kraft and corrugated without `condition`,
// PROFILE_MISMATCH for a CMYK JPEG whose ICC profile prints differently (mean ΔE just under and
// just over 2), and NO_BLEED for a die-cut piece at bleedMm=0 (and not at 0.1 or on a can).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { uploadAsset } from '../assets/helpers.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, createProject, type PreflightFinding } from './harness.js';
import { readPdf, streamBytes, text, withPdfFile, type PdfDict } from './pdf-reader.js';

const CARTON = { widthMm: 60, heightMm: 120, depthMm: 40 };
const PROFILES = new URL('../../src/print/profiles/', import.meta.url);
const profile = (file: string) => readFileSync(new URL(file, PROFILES));

let app: App;
let owner: TestAccount;

/** A CMYK JPEG painted by Ghostscript (no profile of its own). */
function cmykJpeg(): Buffer {
  return withPdfFile(Buffer.alloc(0), (_file, dir) => {
    const out = `${dir}/cmyk.jpg`;
    const paint = '0.2 0.6 0.8 0.1 setcmykcolor 0 0 600 800 rectfill showpage';
    const device = ['-sDEVICE=jpegcmyk', '-r72', '-g600x800', '-dJPEGQ=90', `-sOutputFile=${out}`];
    execFileSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', ...device, '-c', paint]);
    return readFileSync(out);
  });
}

/** The JPEG without ICC_PROFILE segments (Ghostscript embeds its default CMYK profile). */
function untagged(jpeg: Buffer): Buffer {
  const kept: Buffer[] = [jpeg.subarray(0, 2)];
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff && jpeg[i + 1] !== 0xda) {
    const length = jpeg.readUInt16BE(i + 2);
    const icc = jpeg[i + 1] === 0xe2 && jpeg.toString('latin1', i + 4, i + 15) === 'ICC_PROFILE';
    if (!icc) kept.push(jpeg.subarray(i, i + 2 + length));
    i += 2 + length;
  }
  kept.push(jpeg.subarray(i));
  return Buffer.concat(kept);
}

/** The untagged JPEG with `icc` embedded as APP2 ICC_PROFILE segments right after SOI (the JPEG/ICC convention). */
function withIcc(tagged: Buffer, icc: Buffer): Buffer {
  const jpeg = untagged(tagged);
  const chunk = 65519;
  const count = Math.ceil(icc.length / chunk);
  const segments: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const body = icc.subarray(i * chunk, (i + 1) * chunk);
    const header = Buffer.alloc(18);
    header.writeUInt16BE(0xffe2, 0);
    header.writeUInt16BE(2 + 14 + body.length, 2);
    header.write('ICC_PROFILE\0', 4, 'latin1');
    header[16] = i + 1;
    header[17] = count;
    segments.push(header, body);
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/**
 * A copy of an ICC v2 profile (mft2 tables) whose device-to-Lab tables give every colour `deltaL`
 * more L*: the output curve of L* shifted, so the mean ΔE to the original is `deltaL` (bar the few
 * patches already at the top of the encoding).
 */
function lighter(icc: Buffer, deltaL: number): Buffer {
  const copy = Buffer.from(icc);
  const count = copy.readUInt32BE(128);
  // The tags may share one table: each table is shifted once.
  const tables = new Set<number>();
  for (let i = 0; i < count; i++) {
    if (/^A2B[012]$/.test(copy.toString('latin1', 132 + 12 * i, 136 + 12 * i))) tables.add(copy.readUInt32BE(136 + 12 * i));
  }
  for (const at of tables) {
    expect(copy.toString('latin1', at, at + 4)).toBe('mft2');
    const [inputs, outputs, grid] = [copy[at + 8]!, copy[at + 9]!, copy[at + 10]!];
    const [inEntries, outEntries] = [copy.readUInt16BE(at + 48), copy.readUInt16BE(at + 50)];
    const lCurve = at + 52 + 2 * inputs * inEntries + 2 * grid ** inputs * outputs;
    const shift = Math.round((deltaL * 0xff00) / 100);
    for (let e = 0; e < outEntries; e++) copy.writeUInt16BE(Math.min(0xffff, copy.readUInt16BE(lCurve + 2 * e) + shift), lCurve + 2 * e);
  }
  return copy;
}

function get(url: string) {
  return app.inject({ method: 'GET', url, headers: owner.auth });
}

async function preflight(templateId: string, artworkJson: object, query = '', dims: object = CARTON): Promise<PreflightFinding[]> {
  const id = await createProject(app, owner, templateId, artworkJson, dims);
  const response = await get(`/projects/${id}/preflight${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ preflight: { findings: PreflightFinding[] } }>().preflight.findings;
}

function outputIntent(pdf: Buffer): { identifier: unknown; profile: Buffer } {
  const read = readPdf(pdf);
  const intent = read.resolve((read.resolve(read.catalog['/OutputIntents']) as string[])[0]) as PdfDict;
  return { identifier: text(intent['/OutputConditionIdentifier']), profile: streamBytes(pdf, intent['/DestOutputProfile'] as string) };
}

beforeAll(async () => {
  // Generous render deadlines: these files read many print files back on a shared, loaded machine.
  app = await createTestApp({ RENDER_ANALYSIS_TIMEOUT_MS: '120000', RENDER_PRINT_TIMEOUT_MS: '180000' });
  owner = await registerProAccount(app);
}, 180_000);

afterAll(async () => {
  await app.close();
});

describe('printing conditions', { timeout: 120_000 }, () => {
  it('without condition, kraft and corrugated print for FOGRA29, cardboard for FOGRA39; condition= overrides', async () => {
    for (const [templateId, material, identifier, file, dims] of [
      ['reverse-tuck-carton', 'kraft', 'FOGRA29', 'fogra29.icc', CARTON],
      ['reverse-tuck-carton', 'cardboard', 'FOGRA39', 'fogra39.icc', CARTON],
      ['rsc-box', 'corrugated', 'FOGRA29', 'fogra29.icc', {}],
    ] as const) {
      const id = await createProject(app, owner, templateId, { material, background: { kind: 'color', value: '#c08040' } }, dims);
      const response = await get(`/projects/${id}/print?colorSpace=cmyk`);
      expect(response.statusCode, response.body).toBe(200);
      const intent = outputIntent(response.rawPayload);
      expect(intent.identifier, `${templateId} ${material}`).toBe(identifier);
      expect(intent.profile.equals(profile(file))).toBe(true);
    }
    const kraft = await createProject(app, owner, 'reverse-tuck-carton', { material: 'kraft' }, CARTON);
    const forced = await get(`/projects/${kraft}/print?condition=fogra39`);
    expect(outputIntent(forced.rawPayload).identifier).toBe('FOGRA39');
  });

  it('PROFILE_MISMATCH: GRACoL in a FOGRA39 file, and a profile 2.2 ΔE off; ' +
    'none for the condition’s own profile or one 1.8 ΔE off', async () => {
    const plain = cmykJpeg();
    const fogra39 = profile('fogra39.icc');
    const cases = [
      ['own', withIcc(plain, fogra39), false],
      ['under', withIcc(plain, lighter(fogra39, 1.8)), false],
      ['over', withIcc(plain, lighter(fogra39, 2.2)), true],
      ['gracol', withIcc(plain, profile('gracol2006.icc')), true],
      ['untagged', untagged(plain), false],
    ] as const;
    const artworks = [];
    for (const [name, bytes] of cases) {
      const asset = await uploadAsset(app, owner, bytes, { filename: `${name}.jpg`, contentType: 'image/jpeg' });
      artworks.push(artwork(name, 'front', `/files/${asset.name}`, { scale: 0.2 }));
    }
    const findings = (await preflight('reverse-tuck-carton', { material: 'cardboard', artworks }, '?condition=fogra39')).filter(
      (f) => f.code === 'PROFILE_MISMATCH',
    );
    expect(findings.map((f) => f.artworkId).sort()).toEqual(cases.filter(([, , flagged]) => flagged).map(([name]) => name).sort());
    const gracol = findings.find((f) => f.artworkId === 'gracol')!;
    expect(gracol.severity).toBe('warning');
    expect(gracol.message).toContain('GRACoL 2006 Coated #1');
    expect(gracol.message).toContain('FOGRA39');
    expect(gracol.message).toMatch(/mean ΔE 2\.\d/);
    expect(findings.find((f) => f.artworkId === 'over')!.message).toMatch(/mean ΔE 2\.[12]/);

    // The JPEG still goes into the file byte for byte.
    const id = await createProject(
      app,
      owner,
      'reverse-tuck-carton',
      { material: 'cardboard', artworks: artworks.filter((a) => a.id === 'gracol') },
      CARTON,
    );
    const pdf = (await get(`/projects/${id}/print?colorSpace=cmyk&condition=fogra39`)).rawPayload;
    const read = readPdf(pdf);
    const images = read.streams((dict) => dict['/Subtype'] === '/Image');
    expect(images.some(({ ref }) => streamBytes(pdf, ref, true).equals(cases[3][1]))).toBe(true);
  });

  it('NO_BLEED: a die-cut carton at bleedMm=0; none at 0.1 mm, and none on a can band (cut straight)', async () => {
    const design = { material: 'cardboard', background: { kind: 'color', value: '#3366cc' } };
    const atZero = (await preflight('reverse-tuck-carton', design, '?bleedMm=0')).filter((f) => f.code === 'NO_BLEED');
    expect(atZero).toHaveLength(1);
    expect(atZero[0]!.severity).toBe('warning');
    expect(atZero[0]!.message).toContain('bleedMm=0');
    expect((await preflight('reverse-tuck-carton', design, '?bleedMm=0.1')).filter((f) => f.code === 'NO_BLEED')).toEqual([]);
    expect((await preflight('reverse-tuck-carton', design)).filter((f) => f.code === 'NO_BLEED')).toEqual([]);
    expect(
      (await preflight('beverage-can', { background: { kind: 'color', value: '#3366cc' } }, '?bleedMm=0', {})).filter(
        (f) => f.code === 'NO_BLEED',
      ),
    ).toEqual([]);
    const id = await createProject(app, owner, 'reverse-tuck-carton', design, CARTON);
    expect((await get(`/projects/${id}/preflight?bleedMm=-1`)).statusCode).toBe(400);
  });
});
