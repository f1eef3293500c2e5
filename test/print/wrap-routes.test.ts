// rigid-lid-box through the HTTP routes: the dieline routes answer the greyboard trays unless
// part=wrap is asked for; print, preview, preflight and the 3D texture use the wraps unless
// part=board is; `part` and `turnInMm` on any other template are a 400.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { generateDieline, generateWrap, type Dieline } from '../../src/dielines/index.js';
import { expectApiError } from '../assets/helpers.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { modelParts } from '../../src/models/index.js';
import { atlasUv } from '../../src/print/atlas.js';
import { meanUv, readGlb } from '../models/glb.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, createProject, expectColor, GREEN, pageBoxes, twoToneJpeg, uploadJpeg } from './harness.js';

const DIMS = { widthMm: 250, depthMm: 180, heightMm: 100 };
const PT = 72 / 25.4;

let app: App;
let owner: TestAccount;
let green: string;

const get = (url: string) => app.inject({ method: 'GET', url, headers: owner.auth });

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  green = await uploadJpeg(app, owner, await twoToneJpeg(1200, 800, GREEN, GREEN));
});

afterAll(async () => {
  await app.close();
});

/** Each page's TrimBox size in mm, in page order. */
function trimSizesMm(pdf: Buffer): Array<[number, number]> {
  return pageBoxes(pdf, 'TrimBox').map(([x0, y0, x1, y1]) => [(x1! - x0!) / PT, (y1! - y0!) / PT]);
}

function pieceSizes(dieline: Dieline): Array<[number, number]> {
  return dieline.pieces.map((piece) => [piece.bounds.width, piece.bounds.height]);
}

function expectSizes(actual: Array<[number, number]>, expected: Array<[number, number]>): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach(([w, h], i) => {
    expect(w).toBeCloseTo(expected[i]![0], 1);
    expect(h).toBeCloseTo(expected[i]![1], 1);
  });
}

describe(`rigid-lid-box parts over HTTP (${engineName()})`, () => {
  it('template dieline: board by default (unchanged answer), the wraps with part=wrap, turnInMm honoured', async () => {
    const plain = await get('/templates/rigid-lid-box/dieline');
    const board = await get('/templates/rigid-lid-box/dieline?part=board');
    expect(plain.statusCode).toBe(200);
    expect(board.body).toBe(plain.body);
    expect(board.headers.etag).toBe(plain.headers.etag);
    expect(plain.json<{ dieline: Dieline }>().dieline.pieces.map((p) => p.name)).toEqual(['Base tray', 'Lid tray']);

    const wrap = (await get('/templates/rigid-lid-box/dieline?part=wrap&turnInMm=20')).json<{ dieline: Dieline }>().dieline;
    expect(wrap.pieces.map((p) => p.name)).toEqual(['Base wrap', 'Lid wrap']);
    expect(wrap.parameters.turnInMm).toBe(20);
    expect(wrap.paths.some((p) => p.type === 'crease')).toBe(false);
    expect(wrap.paths.some((p) => p.type === 'fold')).toBe(true);

    const svg = await get('/templates/rigid-lid-box/dieline?part=wrap&format=svg');
    expect(svg.statusCode).toBe(200);
    expect(svg.body).toMatch(/<g id="fold" data-label="Fold \(wrap\)" [^>]*stroke-dasharray="1.5 1.5"/);
    expect(svg.body).not.toMatch(/<g id="crease"/);
  });

  it('part and turnInMm on another template, or turnInMm out of range, are a 400', async () => {
    const message = "Template 'mailer-box' has no parts; part and turnInMm apply to rigid-lid-box only.";
    expectApiError(await get('/templates/mailer-box/dieline?part=board'), 400, message);
    expectApiError(await get('/templates/mailer-box/dieline?turnInMm=15'), 400, message);
    expect((await get('/templates/rigid-lid-box/dieline?part=wrap&turnInMm=7')).statusCode).toBe(400);
    expect((await get('/templates/rigid-lid-box/dieline?part=lid')).statusCode).toBe(400);
    const mailer = await createProject(app, owner, 'mailer-box', {}, { widthMm: 300, depthMm: 220, heightMm: 80 });
    for (const route of ['print', 'preview', 'preflight', 'dieline']) {
      expectApiError(await get(`/projects/${mailer}/${route}?part=wrap`), 400, message);
    }
  });

  it('print, preview and preflight use the wraps by default; part=board gives the trays', async () => {
    const id = await createProject(
      app,
      owner,
      'rigid-lid-box',
      { background: { kind: 'color', value: '#3366cc' }, artworks: [artwork('art-1', 'base-back-turn-in', green, { scale: 0.3 })] },
      DIMS,
    );
    const board = generateDieline('rigid-lid-box', DIMS);
    const wrap = generateWrap('rigid-lid-box', DIMS);

    const printed = await get(`/projects/${id}/print`);
    expect(printed.statusCode, printed.body.slice(0, 300)).toBe(200);
    expectSizes(trimSizesMm(printed.rawPayload), pieceSizes(wrap));
    const thick = await get(`/projects/${id}/print?turnInMm=25`);
    expectSizes(trimSizesMm(thick.rawPayload), pieceSizes(generateWrap('rigid-lid-box', DIMS, { turnInMm: 25 })));
    expect(thick.headers.etag).not.toBe(printed.headers.etag);

    // On the trays the turn-in does not exist: the design's artwork has no panel there.
    const onBoard = await get(`/projects/${id}/print?part=board`);
    expect(onBoard.statusCode).toBe(409);
    const preflightBoard = (await get(`/projects/${id}/preflight?part=board`)).json<{
      preflight: { findings: Array<{ code: string }> };
    }>().preflight;
    expect(preflightBoard.findings.map((f) => f.code)).toContain('PANEL_NOT_FOUND');
    const preflightWrap = (await get(`/projects/${id}/preflight`)).json<{
      preflight: { ready: boolean; findings: Array<{ code: string }> };
    }>().preflight;
    expect(preflightWrap.ready).toBe(true);
    expect(preflightWrap.findings.map((f) => f.code)).not.toContain('PANEL_NOT_FOUND');

    const preview = await get(`/projects/${id}/preview?width=512`);
    expect(preview.statusCode).toBe(200);
    const meta = await sharp(preview.rawPayload).metadata();
    expect(meta.height! / meta.width!).toBeCloseTo(wrap.artboard.height / wrap.artboard.width, 2);
    const boardPreview = await sharp((await get(`/projects/${id}/preview?width=512&part=board`)).rawPayload).metadata();
    expect(boardPreview.height! / boardPreview.width!).toBeCloseTo(board.artboard.height / board.artboard.width, 2);

    // The project's dieline route still answers the trays unless asked.
    const dieline = (await get(`/projects/${id}/dieline`)).json<{ dieline: Dieline }>().dieline;
    expectSizes(pieceSizes(dieline), pieceSizes(board));
    const wrapDieline = (await get(`/projects/${id}/dieline?part=wrap`)).json<{ dieline: Dieline }>().dieline;
    expectSizes(pieceSizes(wrapDieline), pieceSizes(wrap));
  });

  it('the preview draws the wrap folds dashed in the fold colour, as the SVG does', async () => {
    const id = await createProject(app, owner, 'rigid-lid-box', {}, DIMS);
    const width = 2048;
    const png = (await get(`/projects/${id}/preview?width=${width}`)).rawPayload;
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const wrap = generateWrap('rigid-lid-box', DIMS);
    const k = info.width / wrap.artboard.width;
    let onFold = 0;
    let samples = 0;
    for (const fold of wrap.paths.filter((p) => p.type === 'fold')) {
      const [[x0, y0], [x1, y1]] = fold.points as [[number, number], [number, number]];
      for (let t = 0.1; t < 0.9; t += 0.01) {
        const x = Math.round((x0 + (x1 - x0) * t - wrap.artboard.x) * k);
        const y = Math.round((y0 + (y1 - y0) * t - wrap.artboard.y) * k);
        const i = (y * info.width + x) * info.channels;
        samples++;
        // Purple (#662d91), however much a 1 px line is blended with the white sheet.
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (b - g > 25 && r - g > 5) onFold++;
      }
    }
    // Dashes cover about half of each line.
    expect(onFold / samples).toBeGreaterThan(0.25);
  });

  it('the 3D model wears the wrap print: a tray panel samples its wrap panel in the texture', async () => {
    const id = await createProject(
      app,
      owner,
      'rigid-lid-box',
      { artworks: [artwork('art-1', 'base-front', green, { scale: 0.8 })] },
      DIMS,
    );
    const response = await get(`/projects/${id}/model?textureSize=1024`);
    expect(response.statusCode).toBe(200);
    const doc = await readGlb(response.rawPayload);
    const texture = doc.getRoot().listTextures()[0]!;
    const { data, info } = await sharp(texture.getImage()!).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const [u, v] = meanUv(doc, 'base-front');
    // The UVs' centre is the wrap's base-front centre, in that panel's cell of the texture atlas.
    const wrap = generateWrap('rigid-lid-box', DIMS, { thicknessMm: generateDieline('rigid-lid-box', DIMS).thicknessMm });
    const front = wrap.panels.find((p) => p.id === 'base-front')!;
    const { atlas } = modelParts({ templateId: 'rigid-lid-box', kind: 'box', dimensions: DIMS, material: 'cardboard', textureSize: 1024 });
    const [cu, cv] = atlasUv(atlas!, atlas!.cells.find((cell) => cell.id === 'base-front')!, front.frame.center);
    expect(u).toBeCloseTo(cu, 3);
    expect(v).toBeCloseTo(cv, 3);
    const x = Math.round(u * (info.width - 1));
    const y = Math.round(v * (info.height - 1));
    const i = (y * info.width + x) * info.channels;
    expectColor([data[i]!, data[i + 1]!, data[i + 2]!], GREEN, 'the artwork at the centre of base-front');
  });
});
