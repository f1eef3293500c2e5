// GET /projects/:id/preflight: one fixture per finding code, the bad inputs of issue 16 (each a
// finding or a clear 4xx, never a 500 or a hang), caching, and that only the owner's assets count.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, projectPreflight, twoToneJpeg, uploadJpeg, type PreflightFinding } from './harness.js';

const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };

type Finding = PreflightFinding;

let app: App;
let owner: TestAccount;
/** 3000 × 2000 px: 0.3 × a 290 mm panel is ~875 dpi, 1.0 ~262 dpi, 2.0 ~131 dpi. */
let sharpImage: string;

const preflight = (templateId: string, artworkJson: object, dims: object = MAILER, account = owner) =>
  projectPreflight(app, account, templateId, artworkJson, dims);

const codes = (findings: Finding[]) => findings.map((f) => f.code);

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  sharpImage = await uploadJpeg(app, owner, await twoToneJpeg(3000, 2000));
});

afterAll(async () => {
  await app.close();
});

describe('preflight: one fixture per code', () => {
  it('a clean design is ready with no findings', async () => {
    const result = await preflight('mailer-box', {
      material: 'kraft',
      background: { kind: 'color', value: '#fff' },
      artworks: [artwork('art-1', 'front', sharpImage, { scale: 0.3 })],
    });
    expect(result).toMatchObject({ ready: true, findings: [] });
    expect(result.response.headers['cache-control']).toBe('private, no-cache');
    const etag = String(result.response.headers.etag);
    const again = await app.inject({
      method: 'GET',
      url: `/projects/${result.id}/preflight`,
      headers: { ...owner.auth, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('a container prints on its layout: an empty bottle design is ready with no findings', async () => {
    const { ready, findings } = await preflight('round-bottle', {}, {});
    expect(ready).toBe(true);
    expect(findings).toEqual([]);
  });

  it('DIELINE_SIZE', async () => {
    const { ready, findings } = await preflight('mailer-box', {}, { widthMm: 300, depthMm: 220, heightMm: 10 });
    expect(ready).toBe(false);
    expect(codes(findings)).toEqual(['DIELINE_SIZE']);
    expect(findings[0]!.message).toMatch(/height/i);
  });

  it('PANEL_NOT_FOUND: a panelId of another style', async () => {
    const { findings } = await preflight('mailer-box', { artworks: [artwork('art-1', 'tuck-top', sharpImage)] });
    expect(findings.map((f) => [f.severity, f.code, f.artworkId, f.panelId])).toEqual([['error', 'PANEL_NOT_FOUND', 'art-1', 'tuck-top']]);
    expect(findings[0]!.message).toMatch(/^art-1 is placed on panel 'tuck-top', which the .*mailer.* does not have\.$/i);
  });

  it('ASSET_NOT_FOUND: a foreign URL, another account\'s asset, a deleted asset, a missing background image', async () => {
    const stranger = await registerAccount(app);
    const theirs = await uploadJpeg(app, stranger, await twoToneJpeg(100, 100));
    const deleted = await uploadJpeg(app, owner, await twoToneJpeg(100, 100));
    await app.db.prisma.asset.delete({ where: { name: deleted.slice('/files/'.length) } });
    const { ready, findings } = await preflight('mailer-box', {
      background: { kind: 'image', value: 'http://169.254.169.254/latest/meta-data' },
      artworks: [
        artwork('art-1', 'front', 'https://example.com/cat.png'),
        artwork('art-2', 'back', theirs),
        artwork('art-3', 'lid', deleted),
      ],
    });
    expect(ready).toBe(false);
    expect(codes(findings)).toEqual(['ASSET_NOT_FOUND', 'ASSET_NOT_FOUND', 'ASSET_NOT_FOUND', 'ASSET_NOT_FOUND']);
    expect(findings[0]!.message).toBe("The background image 'http://169.254.169.254/latest/meta-data' is not one of your assets.");
    expect(findings[1]).toEqual({
      severity: 'error',
      code: 'ASSET_NOT_FOUND',
      message: "art-1 on front uses 'https://example.com/cat.png', which is not one of your assets.",
      artworkId: 'art-1',
      panelId: 'front',
    });
    expect(findings.slice(2).map((f) => f.artworkId)).toEqual(['art-2', 'art-3']);
  });

  it('BACKGROUND_INVALID: garbage, and a gradient with 1,000 stops', async () => {
    const garbage = await preflight('mailer-box', { background: { kind: 'color', value: 'url(javascript:alert(1))' } });
    expect(garbage.findings).toEqual([
      {
        severity: 'error',
        code: 'BACKGROUND_INVALID',
        message: "The background color 'url(javascript:alert(1))' is not a #rgb, #rrggbb or rgb() colour.",
      },
    ]);
    const gradient = (count: number) =>
      `linear-gradient(90deg, ${Array.from({ length: count }, (_, i) => (i % 2 ? '#000' : '#fff')).join(', ')})`;
    // 1,000 stops do not fit the 2,048 characters a background value may have: refused on save.
    const refused = await app.inject({
      method: 'POST',
      url: '/projects',
      headers: owner.auth,
      payload: { name: 'x', templateId: 'mailer-box', artworkJson: { background: { kind: 'gradient', value: gradient(1000) } } },
    });
    expect(refused.statusCode).toBe(400);
    const many = await preflight('mailer-box', { background: { kind: 'gradient', value: gradient(300) } });
    expect(many.findings).toEqual([
      { severity: 'error', code: 'BACKGROUND_INVALID', message: 'The background gradient has 300 colour stops; 2 to 32 are supported.' },
    ]);
    const ok = await preflight('mailer-box', {
      background: { kind: 'gradient', value: 'linear-gradient(45deg, #ff0000, rgb(0, 0, 255) 80%)' },
    });
    expect(ok.findings).toEqual([]);
  });

  it('LOW_RESOLUTION: a warning below 300 dpi, an error below 150, naming artwork, panel and figure', async () => {
    const { ready, findings } = await preflight('mailer-box', {
      artworks: [artwork('art-1', 'front', sharpImage, { scale: 1 }), artwork('art-2', 'front', sharpImage, { scale: 2, rotationDeg: 30 })],
    });
    expect(ready).toBe(false);
    // Both also run over the folds (CROSSES_FOLD, info): only the resolution findings matter here.
    expect(findings.filter((f) => f.code === 'LOW_RESOLUTION').map((f) => [f.code, f.severity, f.artworkId, f.panelId])).toEqual([
      ['LOW_RESOLUTION', 'warning', 'art-1', 'front'],
      ['LOW_RESOLUTION', 'error', 'art-2', 'front'],
    ]);
    const lowResolution = findings.filter((f) => f.code === 'LOW_RESOLUTION');
    expect(lowResolution[0]!.message).toMatch(/^art-1 on front prints at \d+ dpi; 300 dpi is recommended\.$/);
    expect(lowResolution[1]!.message).toMatch(/^art-2 on front prints at \d+ dpi; 300 dpi is recommended and 150 dpi is the minimum\.$/);
    const dpi = Number(lowResolution[0]!.message.match(/at (\d+) dpi/)![1]);
    expect(dpi).toBeGreaterThan(150);
    expect(dpi).toBeLessThan(300);
  });

  it('ARTWORK_OUTSIDE: offsetX of ±1e6 is a warning and does not print', async () => {
    const { ready, findings } = await preflight('mailer-box', {
      artworks: [
        artwork('art-1', 'front', sharpImage, { offsetX: 1e6, scale: 0.3 }),
        artwork('art-2', 'front', sharpImage, { offsetY: -1e6, scale: 0.3 }),
      ],
    });
    expect(ready).toBe(true);
    expect(findings.map((f) => [f.code, f.severity, f.artworkId])).toEqual([
      ['ARTWORK_OUTSIDE', 'warning', 'art-1'],
      ['ARTWORK_OUTSIDE', 'warning', 'art-2'],
    ]);
    expect(findings[0]!.message).toBe('art-1 on front lies entirely outside the bleed of blank, so it does not print.');
  });

  it('GLUE_AREA: artwork over the glue flap, and an image background (knocked out by default: info)', async () => {
    const carton = { widthMm: 70, heightMm: 180, depthMm: 70 };
    const onFlap = await preflight(
      'reverse-tuck-carton',
      { artworks: [artwork('art-1', 'glue-flap', sharpImage, { scale: 0.05 })] },
      carton,
    );
    expect(onFlap.findings.map((f) => [f.code, f.severity, f.artworkId, f.panelId])).toEqual([['GLUE_AREA', 'info', 'art-1', 'glue-flap']]);
    expect(onFlap.findings[0]!.message).toBe('art-1 covers the glue area of glue-flap; it is knocked out there (glueAreas=knockout).');
    const background = await preflight('reverse-tuck-carton', { background: { kind: 'image', value: sharpImage } }, carton);
    expect(background.findings.map((f) => [f.code, f.panelId])).toEqual([['GLUE_AREA', 'glue-flap']]);
  });

  it('MATERIAL_NOT_OFFERED', async () => {
    const { ready, findings } = await preflight('mailer-box', { material: 'glass' });
    expect(ready).toBe(true);
    expect(findings).toEqual([
      {
        severity: 'warning',
        code: 'MATERIAL_NOT_OFFERED',
        message: "Material 'glass' is not offered for template 'mailer-box' (offered: corrugated, kraft).",
      },
    ]);
  });

  it('ARTWORK_SCALE: zero, negative and huge scales', async () => {
    const { findings } = await preflight('mailer-box', {
      artworks: [
        artwork('art-1', 'front', sharpImage, { scale: 0 }),
        artwork('art-2', 'front', sharpImage, { scale: -1 }),
        artwork('art-3', 'front', sharpImage, { scale: 1e300 }),
        artwork('art-4', 'front', sharpImage, { scale: 1e-12 }),
      ],
    });
    expect(findings.map((f) => [f.code, f.artworkId])).toEqual([
      ['ARTWORK_SCALE', 'art-1'],
      ['ARTWORK_SCALE', 'art-2'],
      ['ARTWORK_SCALE', 'art-3'],
      ['ARTWORK_SCALE', 'art-4'],
    ]);
    expect(findings[0]!.message).toBe('art-1 on front has scale 0; it must be between 0.001 and 100.');
  });
});

describe('bad input never breaks print or preview', () => {
  it('rotationDeg of 1e9 is taken mod 360 and prints', async () => {
    const { id, findings } = await preflight('mailer-box', {
      artworks: [artwork('art-1', 'front', sharpImage, { rotationDeg: 1e9, scale: 0.3 })],
    });
    // Turned by 280°, it reaches over the rim (CROSSES_FOLD, info) and nothing else.
    expect(findings.map((f) => [f.code, f.severity])).toEqual([['CROSSES_FOLD', 'info']]);
    const pdf = await app.inject({ method: 'GET', url: `/projects/${id}/print`, headers: owner.auth });
    expect(pdf.statusCode).toBe(200);
  });

  it('200 artworks on one image: the image is embedded once and the work stays bounded', async () => {
    const artworks = Array.from({ length: 200 }, (_, i) =>
      artwork(`art-${i}`, 'bottom', sharpImage, { scale: 0.1, offsetX: (i % 20) * 10 - 100, offsetY: Math.floor(i / 20) * 10 - 50 }),
    );
    const { id, ready } = await preflight('mailer-box', { artworks });
    expect(ready).toBe(true);
    const started = Date.now();
    const pdf = await app.inject({ method: 'GET', url: `/projects/${id}/print`, headers: owner.auth });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.toString('latin1').match(/\/Filter \/DCTDecode/g)).toHaveLength(1);
    const preview = await app.inject({ method: 'GET', url: `/projects/${id}/preview?width=256`, headers: owner.auth });
    expect(preview.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('a PNG with alpha and a WebP print (re-encoded losslessly) and preview', async () => {
    const png = await sharp({ create: { width: 800, height: 800, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const webp = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#00f' } }).webp({ lossless: true }).toBuffer();
    const { uploadAsset } = await import('../assets/helpers.js');
    const a = await uploadAsset(app, owner, png, { filename: 'a.png', contentType: 'image/png' });
    const b = await uploadAsset(app, owner, webp, { filename: 'b.webp', contentType: 'image/webp' });
    const { id, ready } = await preflight('mailer-box', {
      artworks: [artwork('art-1', 'lid', `/files/${a.name}`, { scale: 0.2 }), artwork('art-2', 'back', `/files/${b.name}`, { scale: 0.2 })],
    });
    expect(ready).toBe(true);
    for (const query of ['', '?colorSpace=cmyk']) {
      const pdf = await app.inject({ method: 'GET', url: `/projects/${id}/print${query}`, headers: owner.auth });
      expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
      expect(pdf.rawPayload.toString('latin1')).toMatch(/\/SMask \d+ 0 R/);
    }
    const preview = await app.inject({ method: 'GET', url: `/projects/${id}/preview?width=128`, headers: owner.auth });
    expect(preview.statusCode).toBe(200);
  });
});
