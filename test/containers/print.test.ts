// Every template prints: through the HTTP stack on the configured engine, a project with artwork
// on each of its panels gets a ready preflight, a print PDF (read back with pdfinfo and pdftoppm)
// and a preview; the containers' options reach every route; the pouch's back carries artwork in
// print, preview and 3D; each container finding fires on a design made to trigger it and not on a
// clean one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import type { Dieline } from '../../src/dielines/index.js';
import { apiError } from '../api-keys/keys.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { decodeTexture, nodeNamed, readGlb } from '../models/glb.js';
import {
  artwork,
  createProject,
  decodePng,
  expectColor,
  expectDominant,
  GREEN,
  pixel,
  rasterisePdf,
  RED,
  twoToneJpeg,
  uploadJpeg,
} from '../print/harness.js';
import { registerProAccount } from '../projects/fixtures.js';

const CONTAINER_CODES = ['SEAL_AREA', 'OVERLAP_AREA', 'DISTORTION_ZONE'];

interface Finding {
  severity: string;
  code: string;
  artworkId?: string;
}

/** pdfinfo's page count and first page size (pt), an independent reader of the file. */
function pdfInfo(pdf: Buffer): { pages: number; size: [number, number] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-containers-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    const text = execFileSync('pdfinfo', [path.join(dir, 'in.pdf')], { encoding: 'utf8' });
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(text)!;
    return { pages: Number(/Pages:\s+(\d+)/.exec(text)![1]), size: [Number(size[1]), Number(size[2])] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe(`containers print (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  let imageUrl: string;

  const get = (url: string, account = owner) => app.inject({ method: 'GET', url, headers: account.auth });
  const dielineOf = async (projectId: string, query = ''): Promise<Dieline> => {
    const response = await get(`/projects/${projectId}/dieline${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ dieline: Dieline }>().dieline;
  };
  const preflightOf = async (projectId: string, query = '') => {
    const response = await get(`/projects/${projectId}/preflight${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ preflight: { ready: boolean; findings: Finding[] } }>().preflight;
  };

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerProAccount(app);
    imageUrl = await uploadJpeg(app, owner, await twoToneJpeg(1800, 1200));
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(TEMPLATES.map((template) => [template.id, template.kind] as const))(
    '%s (%s): artwork on every panel gives a ready preflight, a print PDF and a preview',
    async (templateId, kind) => {
      const empty = await createProject(app, owner, templateId, {});
      const panels = (await dielineOf(empty)).panels.map((panel) => panel.id);
      if (kind === 'pouch') expect(panels).toEqual(expect.arrayContaining(['front', 'back', 'gusset', 'label']));
      else if (kind !== 'box') expect(panels).toEqual(['label', 'front', 'back']);
      const design = {
        background: { kind: 'color', value: '#00ff00' },
        artworks: panels.map((id, i) => artwork(`art-${i}`, id, imageUrl, { scale: 0.4 })),
      };
      const id = await createProject(app, owner, templateId, design);
      const preflight = await preflightOf(id);
      expect(preflight.ready, JSON.stringify(preflight.findings)).toBe(true);
      expect(preflight.findings.filter((finding) => finding.code === 'PANEL_NOT_FOUND')).toEqual([]);

      const print = await get(`/projects/${id}/print`);
      expect(print.statusCode, print.body).toBe(200);
      expect(print.headers['content-type']).toBe('application/pdf');
      const info = pdfInfo(print.rawPayload);
      expect(info.pages).toBeGreaterThanOrEqual(1);
      const [page] = await rasterisePdf(print.rawPayload, 18);
      expect(page!.width).toBeGreaterThan(10);

      const preview = await get(`/projects/${id}/preview?width=256`);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.headers['content-type']).toBe('image/png');
      expect((await decodePng(preview.rawPayload, 1)).width).toBe(256);
    },
  );

  it('the dieline routes give each container layout as JSON, SVG and PDF, with the options applied', async () => {
    const label = await get('/templates/round-bottle/dieline?overlapMm=20');
    expect(label.statusCode, label.body).toBe(200);
    const labelDieline = label.json<{ dieline: Dieline }>().dieline;
    expect(labelDieline.style).toBe('wrap-label');
    expect(Math.abs(labelDieline.blank.width - (Math.PI * 70 + 20))).toBeLessThan(1.5);

    const sleeve = (await get('/templates/round-bottle/dieline?labelStyle=sleeve&fitMm=5&seamMm=9')).json<{ dieline: Dieline }>().dieline;
    expect(sleeve.style).toBe('shrink-sleeve');
    expect(sleeve.parameters).toMatchObject({ fitMm: 5, seamMm: 9 });
    expect(Math.abs(sleeve.blank.width - (2 * sleeve.parameters.layflatMm! + 9))).toBeLessThan(1);

    const svg = await get('/templates/squeeze-tube/dieline?format=svg');
    expect(svg.statusCode).toBe(200);
    expect(svg.body).toContain('<g id="eyemark"');
    expect(svg.body).toContain('data-zone="seal"');
    const pdf = await get('/templates/stand-up-pouch/dieline?format=pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdfInfo(pdf.rawPayload).size[1]).toBeCloseTo(((2 * 230 + 80 + 6) * 72) / 25.4, 0);
    const can = (await get('/templates/beverage-can/dieline')).json<{ dieline: Dieline }>().dieline;
    expect(can.paths.filter((p) => p.type === 'cut')).toEqual([]);

    // The template object is unchanged: no dieline in the folding-blank sense.
    const template = (await get('/templates/round-bottle')).json<{ template: { dielineAvailable: boolean } }>().template;
    expect(template.dielineAvailable).toBe(false);
  });

  it('an option a template does not take is a 400 on every route, and changes nothing', async () => {
    const box = await createProject(app, owner, 'rsc-box', {});
    const can = await createProject(app, owner, 'beverage-can', {});
    const bottle = await createProject(app, owner, 'round-bottle', {});
    const cases: Array<[string, string]> = [
      ['/templates/rsc-box/dieline?labelStyle=label', "Option 'labelStyle' does not apply to template 'rsc-box'."],
      ['/templates/stand-up-pouch/dieline?seamMm=5', "Option 'seamMm' does not apply to template 'stand-up-pouch'."],
      [`/projects/${box}/dieline?overlapMm=4`, "Option 'overlapMm' does not apply to template 'rsc-box'."],
      [`/projects/${can}/print?labelStyle=sleeve`, "Option 'labelStyle' does not apply to template 'beverage-can'."],
      [`/projects/${can}/preview?fitMm=2`, "Option 'fitMm' does not apply to template 'beverage-can'."],
      [`/projects/${bottle}/preflight?fitMm=2`, "Option 'fitMm' does not apply to template 'round-bottle' with labelStyle=label."],
      [
        `/projects/${bottle}/model?labelStyle=sleeve&overlapMm=3`,
        "Option 'overlapMm' does not apply to template 'round-bottle' with labelStyle=sleeve.",
      ],
    ];
    for (const [url, message] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual(apiError(400, message));
    }
    expect((await get(`/projects/${bottle}/preflight?overlapMm=31`)).statusCode).toBe(400);
    const sleeve = await get(`/projects/${bottle}/preview?labelStyle=sleeve&width=128`);
    expect(sleeve.statusCode, sleeve.body).toBe(200);
    const label = await get(`/projects/${bottle}/preview?width=128`);
    expect(sleeve.headers.etag).not.toBe(label.headers.etag);
    const sleeveModel = await get(`/projects/${bottle}/model?labelStyle=sleeve&textureSize=256`);
    expect(sleeveModel.statusCode, sleeveModel.body).toBe(200);
    const again = await app.inject({
      method: 'GET',
      url: `/projects/${bottle}/preview?labelStyle=sleeve&width=128`,
      headers: { ...owner.auth, 'if-none-match': String(sleeve.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('a pouch too short for its gusset is a DIELINE_SIZE error in preflight and a 400 on the dieline route', async () => {
    const id = await createProject(app, owner, 'stand-up-pouch', {}, { widthMm: 160, heightMm: 100, depthMm: 200 });
    const preflight = await preflightOf(id);
    expect(preflight.ready).toBe(false);
    expect(preflight.findings.map((finding) => finding.code)).toEqual(['DIELINE_SIZE']);
    const response = await get(`/projects/${id}/dieline`);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/^heightMm 100 mm is too small for a stand-up pouch/);
  });

  it("the pouch's back takes artwork in print, preview and 3D", async () => {
    const front = artwork('art-front', 'front', imageUrl, { scale: 0.5 });
    const back = artwork('art-back', 'back', imageUrl, { scale: 0.5 });
    const plain = await createProject(app, owner, 'stand-up-pouch', { background: { kind: 'color', value: '#00ff00' }, artworks: [front] });
    const withBack = await createProject(app, owner, 'stand-up-pouch', {
      background: { kind: 'color', value: '#00ff00' },
      artworks: [front, back],
    });
    const dieline = await dielineOf(withBack);
    const backFrame = dieline.panels.find((panel) => panel.id === 'back')!.frame;
    const [cx, cy] = backFrame.center;
    // 1800 × 1200 image at half the 160 mm width: 80 × 53.3 mm; the back reads upside down on the web.
    const quarter = (0.5 * 160 * 1200) / 1800 / 4;

    const [withPage] = await rasterisePdf((await get(`/projects/${withBack}/print?marks=false`)).rawPayload, 36);
    const [plainPage] = await rasterisePdf((await get(`/projects/${plain}/print?marks=false`)).rawPayload, 36);
    const onPage = (page: typeof withPage, x: number, y: number) => pixel(page!, (x + 3) * page!.scale, (y + 3) * page!.scale);
    // The print file shows its colours through the OutputIntent: pure sRGB primaries come out duller.
    expectDominant(onPage(withPage, cx, cy + quarter), 0, "back artwork's top half, below the centre on the web");
    expectDominant(onPage(withPage, cx, cy - quarter), 2, "back artwork's bottom half");
    expectDominant(onPage(plainPage, cx, cy + quarter), 1, 'no back artwork: background');

    const previewOf = async (id: string) => decodePng((await get(`/projects/${id}/preview?width=332`)).rawPayload, 2);
    const [withPreview, plainPreview] = [await previewOf(withBack), await previewOf(plain)];
    expectColor(pixel(withPreview, (cx + 3) * 2, (cy + quarter + 3) * 2), RED, 'preview: back artwork');
    expectColor(pixel(plainPreview, (cx + 3) * 2, (cy + quarter + 3) * 2), GREEN, 'preview: background only');

    const textureAtBack = async (id: string) => {
      const response = await get(`/projects/${id}/model?textureSize=512`);
      expect(response.statusCode, response.body).toBe(200);
      const doc = await readGlb(response.rawPayload);
      const material = nodeNamed(doc, 'back').getMesh()!.listPrimitives()[0]!.getMaterial()!;
      const png = await decodeTexture(material.getBaseColorTexture()!.getImage()!);
      return {
        body: response.rawPayload,
        rgb: png.pixel((cx / 160) * png.width, ((cy + quarter) / dieline.blank.height) * png.height).slice(0, 3),
      };
    };
    const [withModel, plainModel] = [await textureAtBack(withBack), await textureAtBack(plain)];
    expect(Buffer.compare(withModel.body, plainModel.body)).not.toBe(0);
    expectColor(withModel.rgb as [number, number, number], RED, '3D: the back face wears the back artwork');
    expectColor(plainModel.rgb as [number, number, number], GREEN, '3D: background only');
  });

  it("a label's design wraps: the back artwork prints at both ends, and the overlap strip repeats the start", async () => {
    const id = await createProject(app, owner, 'round-bottle', {
      background: { kind: 'color', value: '#00ff00' },
      artworks: [artwork('art-back', 'back', imageUrl, { scale: 0.2 })],
    });
    const dieline = await dielineOf(id);
    const c = Math.PI * 70;
    const [page] = await rasterisePdf((await get(`/projects/${id}/print?marks=false`)).rawPayload, 72);
    const at = (x: number, y: number) => pixel(page!, (x + 3) * page!.scale, (y + 3) * page!.scale);
    const upper = dieline.blank.height / 2 - 2;
    // Centred on the seam (x = 0 ≡ C): its right half starts the layout, its left half ends the circumference.
    expectDominant(at(4, upper), 0, 'right half of the back artwork at the left-hand end');
    expectDominant(at(c - 4, upper), 0, 'left half of the back artwork before the overlap');
    expectDominant(at(c + 4, upper), 0, 'the overlap strip repeats the start of the design');
    expectDominant(at(c / 2, upper), 1, 'the front shows the background');
  });

  it("a sleeve leaves its seam strip and 2 mm at top and bottom unprinted", async () => {
    const id = await createProject(app, owner, 'round-bottle', { background: { kind: 'color', value: '#00ff00' } });
    const sleeve = await dielineOf(id, '?labelStyle=sleeve');
    const film = 2 * sleeve.parameters.layflatMm!;
    const [page] = await rasterisePdf((await get(`/projects/${id}/print?marks=false&labelStyle=sleeve`)).rawPayload, 72);
    const at = (x: number, y: number) => pixel(page!, (x + 3) * page!.scale, (y + 3) * page!.scale);
    const middle = sleeve.blank.height / 2;
    expectDominant(at(film / 2, middle), 1, 'printed film');
    expectColor(at(film + 3.5, middle), [255, 255, 255], 'seam strip');
    expectColor(at(film / 2, 1), [255, 255, 255], 'unprinted top');
    expectColor(at(film / 2, sleeve.blank.height - 1), [255, 255, 255], 'unprinted bottom');
  });

  it('the tube prints its eye mark solid above the artwork', async () => {
    const id = await createProject(app, owner, 'squeeze-tube', {
      background: { kind: 'color', value: '#00ff00' },
      artworks: [artwork('art-cover', 'label', imageUrl, { scale: 1.2 })],
    });
    const dieline = await dielineOf(id);
    const mark = dieline.paths.find((p) => p.type === 'eyemark')!.points;
    const [page] = await rasterisePdf((await get(`/projects/${id}/print?marks=false`)).rawPayload, 72);
    const x = (mark[0]![0] + mark[1]![0]) / 2;
    const y = (mark[0]![1] + mark[2]![1]) / 2;
    expectColor(pixel(page!, (x + 3) * page!.scale, (y + 3) * page!.scale), [0, 0, 0], 'eye mark');
  });

  describe('container findings', () => {
    const codes = (findings: Finding[]) =>
      findings.filter((finding) => CONTAINER_CODES.includes(finding.code)).map((f) => `${f.severity}:${f.code}`);

    it.each([
      // The crimp at the tube's open end is the top of the front.
      ['squeeze-tube', '', artwork('art-1', 'front', '', { scale: 0.3, offsetY: -60 }), 'warning:SEAL_AREA'],
      // The sleeve's solvent seam sits at the back, under the back panel's centre.
      ['round-bottle', '?labelStyle=sleeve', artwork('art-1', 'back', '', { scale: 0.3 }), 'warning:SEAL_AREA'],
      ['stand-up-pouch', '', artwork('art-1', 'front', '', { scale: 0.3, offsetY: -110 }), 'warning:SEAL_AREA'],
      ['round-bottle', '', artwork('art-1', 'back', '', { scale: 0.3 }), 'info:OVERLAP_AREA'],
      ['beverage-can', '', artwork('art-1', 'back', '', { scale: 0.3 }), 'info:OVERLAP_AREA'],
      ['beverage-can', '', artwork('art-1', 'front', '', { scale: 0.2, offsetY: -50 }), 'info:DISTORTION_ZONE'],
      ['round-bottle', '?labelStyle=sleeve', artwork('art-1', 'front', '', { scale: 0.3, offsetY: -80 }), 'info:DISTORTION_ZONE'],
    ] as const)('%s%s: %j → %s, and a clean design has none', async (templateId, query, placed, expected) => {
      const triggered = await createProject(app, owner, templateId, { artworks: [{ ...placed, imageUrl }] });
      const found = await preflightOf(triggered, query);
      expect(codes(found.findings)).toEqual([expected]);
      expect(found.ready).toBe(true);
      const clean = await createProject(app, owner, templateId, { artworks: [artwork('art-1', 'front', imageUrl, { scale: 0.3 })] });
      expect(codes((await preflightOf(clean, query)).findings)).toEqual([]);
    });
  });
});
