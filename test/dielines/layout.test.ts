// Sheet layout (n-up): the pure layout on every box style, checked with an independent placement of
// the cut outlines (no two copies closer than the gap, all on the sheet below the gripper), and
// GET /projects/:id/layout through the real stack, its press sheet PDF separated by Ghostscript.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { distanceToSegment, pointInPolygon, polygonArea, segmentIntersection } from '../../src/dielines/geometry.js';
import { generateDieline, type BoxDimensions, type Dieline, type Point } from '../../src/dielines/index.js';
import { BlankTooLargeError, layoutSheet, type SheetLayout, type SheetSpec } from '../../src/dielines/layout.js';
import { LayoutReply, SheetLayoutSchema } from '../../src/schemas/sheet-layouts.js';
import { apiError } from '../../src/errors.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { createProject as createOwnedProject } from '../print/harness.js';

const run = promisify(execFile);
const BOX_TEMPLATES = TEMPLATES.filter((template) => template.dielineAvailable);
const DEFAULT_SHEET: SheetSpec = { widthMm: 787, heightMm: 1092, gripperMm: 10, gapMm: 3 };
const REFERENCE: BoxDimensions = { widthMm: 70, depthMm: 70, heightMm: 180 };
const PT_PER_MM = 72 / 25.4;

function outlinesOf(dieline: Dieline): Point[][] {
  return dieline.paths.filter((path) => path.type === 'cut' && path.role === 'outline').map((path) => path.points);
}

function shapeOf(dieline: Dieline) {
  return { outlines: outlinesOf(dieline), width: dieline.blank.width, height: dieline.blank.height };
}

/** The test's own placement: turn clockwise (y down) about the blank, then move the bounding box to (x, y). */
function placePoints(dieline: Dieline, copy: SheetLayout['copies'][number], points: readonly Point[]): Point[] {
  return points.map((p) => {
    let [x, y] = p;
    let height = dieline.blank.height;
    let width = dieline.blank.width;
    for (let k = 0; k < copy.rotationDeg / 90; k++) {
      [x, y] = [height - y, x];
      [width, height] = [height, width];
    }
    return [x + copy.x, y + copy.y];
  });
}

function placed(dieline: Dieline, copy: SheetLayout['copies'][number]): Point[][] {
  return outlinesOf(dieline).map((outline) => placePoints(dieline, copy, outline));
}

function edges(outlines: Point[][]): [Point, Point][] {
  return outlines.flatMap((outline) => outline.map((p, i): [Point, Point] => [p, outline[(i + 1) % outline.length]!]));
}

function distanceBetween(a: Point[][], b: Point[][]): number {
  let best = Infinity;
  const ea = edges(a);
  const eb = edges(b);
  for (const [p, q] of ea) {
    for (const [r, s] of eb) {
      if (segmentIntersection(p, q, r, s, 1e-9)) return 0;
      best = Math.min(best, distanceToSegment(p, r, s), distanceToSegment(q, r, s), distanceToSegment(r, p, q), distanceToSegment(s, p, q));
    }
  }
  return best;
}

/** The plain grid of bounding boxes, 0° or 90°, with the gap and gripper: what nesting must match or beat. */
function gridCount(dieline: Dieline, sheet: SheetSpec): number {
  const fit = (w: number, h: number) =>
    Math.max(0, Math.floor((sheet.widthMm + sheet.gapMm) / (w + sheet.gapMm))) *
    Math.max(0, Math.floor((sheet.heightMm - sheet.gripperMm + sheet.gapMm) / (h + sheet.gapMm)));
  return Math.max(fit(dieline.blank.width, dieline.blank.height), fit(dieline.blank.height, dieline.blank.width));
}

function expectValidLayout(dieline: Dieline, layout: SheetLayout, sheet: SheetSpec, label: string): void {
  expect(layout.count, label).toBe(layout.copies.length);
  expect(layout.count).toBeGreaterThanOrEqual(1);
  expect(layout.sheet).toEqual({ widthMm: sheet.widthMm, heightMm: sheet.heightMm });
  const area = outlinesOf(dieline).reduce((sum, outline) => sum + polygonArea(outline), 0);
  expect(layout.utilisation).toBeCloseTo((layout.count * area) / (sheet.widthMm * sheet.heightMm), 3);
  expect(layout.count * area).toBeLessThanOrEqual(sheet.widthMm * (sheet.heightMm - sheet.gripperMm));
  expect(layout.across * layout.down).toBeGreaterThanOrEqual(layout.count);
  expect(layout.rotated).toBe(layout.copies.some((copy) => copy.rotationDeg % 180 !== 0));
  const shapes = layout.copies.map((copy) => placed(dieline, copy));
  layout.copies.forEach((copy, index) => {
    const points = shapes[index]!.flat();
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    // x, y are the top-left of the rotated bounding box; everything on the sheet, below the gripper.
    expect(Math.min(...xs)).toBeCloseTo(copy.x, 6);
    expect(Math.min(...ys)).toBeCloseTo(copy.y, 6);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(-1e-9);
    expect(Math.max(...xs)).toBeLessThanOrEqual(sheet.widthMm + 1e-6);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(sheet.gripperMm - 1e-9);
    expect(Math.max(...ys)).toBeLessThanOrEqual(sheet.heightMm + 1e-6);
  });
  for (let i = 0; i < shapes.length; i++) {
    for (let j = i + 1; j < shapes.length; j++) {
      const d = distanceBetween(shapes[i]!, shapes[j]!);
      expect(d, `${label}: copies ${i} and ${j} are ${d} mm apart`).toBeGreaterThanOrEqual(sheet.gapMm - 0.01);
      // Neither copy inside the other.
      expect(pointInPolygon(shapes[j]![0]![0]!, shapes[i]![0]!)).toBe(false);
      expect(pointInPolygon(shapes[i]![0]![0]!, shapes[j]![0]!)).toBe(false);
    }
  }
}

describe('layoutSheet', () => {
  it('reference: a reverse tuck end 70 × 70 × 180 on 787 × 1092 holds at least the grid and at most the area bound', () => {
    const dieline = generateDieline('reverse-tuck-carton', REFERENCE);
    expect(dieline.blank).toEqual({ width: 297, height: 363 });
    expect(polygonArea(outlinesOf(dieline)[0]!)).toBeCloseTo(74_606.7, 0);
    const layout = layoutSheet(shapeOf(dieline), DEFAULT_SHEET);
    expect(gridCount(dieline, DEFAULT_SHEET)).toBe(6);
    expect(layout.count).toBeGreaterThanOrEqual(6);
    expect(layout.count).toBeLessThanOrEqual(11);
    expectValidLayout(dieline, layout, DEFAULT_SHEET, 'reference');
  });

  it('nests interlocking rows where the bounding-box grid leaves room: more copies than the grid', () => {
    const dieline = generateDieline('reverse-tuck-carton', REFERENCE);
    const sheet = { ...DEFAULT_SHEET, widthMm: 620 };
    const layout = layoutSheet(shapeOf(dieline), sheet);
    expect(gridCount(dieline, sheet)).toBe(4);
    expect(layout.count).toBeGreaterThan(4);
    // Rows closer than the blank is tall: the flaps of one row sit between those of the next.
    const rows = [...new Set(layout.copies.map((copy) => copy.y))].sort((a, b) => a - b);
    expect(rows[1]! - rows[0]!).toBeLessThan(dieline.blank.height);
    expectValidLayout(dieline, layout, sheet, 'nested');
  });

  const sheets: SheetSpec[] = [
    DEFAULT_SHEET,
    { widthMm: 1020, heightMm: 720, gripperMm: 12, gapMm: 0 },
    { widthMm: 2000, heightMm: 1500, gripperMm: 0, gapMm: 8 },
  ];
  for (const template of BOX_TEMPLATES) {
    it(`${template.id}: every copy on the sheet, no two closer than the gap, at least the grid`, () => {
      const dieline = generateDieline(template.id, template.defaultDimensions);
      for (const sheet of sheets) {
        if (gridCount(dieline, sheet) === 0) {
          expect(() => layoutSheet(shapeOf(dieline), sheet)).toThrow(BlankTooLargeError);
          continue;
        }
        const layout = layoutSheet(shapeOf(dieline), sheet);
        expect(layout.count).toBeGreaterThanOrEqual(gridCount(dieline, sheet));
        expectValidLayout(dieline, layout, sheet, `${template.id} on ${sheet.widthMm}×${sheet.heightMm}`);
      }
    });
  }

  it('a blank larger than the sheet has no layout', () => {
    const dieline = generateDieline('rsc-box', { widthMm: 400, depthMm: 300, heightMm: 300 });
    expect(() => layoutSheet(shapeOf(dieline), { ...DEFAULT_SHEET, widthMm: 500, heightMm: 500 })).toThrow(BlankTooLargeError);
    // Fits turned a quarter only, without margins: answered turned.
    const carton = generateDieline('reverse-tuck-carton', REFERENCE);
    const layout = layoutSheet(shapeOf(carton), { widthMm: 370, heightMm: 310, gripperMm: 10, gapMm: 3, marginMm: 0 });
    expect(layout.count).toBe(1);
    expect(layout.rotated).toBe(true);
  });
});

const ajv = new Ajv({ strict: true, allErrors: true });
ajv.addSchema(SheetLayoutSchema);
const validateReply = ajv.compile(LayoutReply);

/** Inked pixels of one Ghostscript separation, as mm points on the sheet. */
async function separationInk(file: string, dpi: number): Promise<Point[]> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const ink: Point[] = [];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[(y * info.width + x) * info.channels]! < 128) ink.push([((x + 0.5) * 25.4) / dpi, ((y + 0.5) * 25.4) / dpi]);
    }
  }
  return ink;
}

describe(`GET /projects/:id/layout (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  const get = (url: string, headers: Record<string, string> = owner.auth) => app.inject({ method: 'GET', url, headers });

  /** A project of a fresh account (the free plan holds three), which becomes the owner for get(). */
  async function createProject(body: Record<string, unknown>): Promise<string> {
    owner = await registerAccount(app);
    const response = await app.inject({ method: 'POST', url: '/projects', headers: owner.auth, payload: { name: 'Box', ...body } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ project: { id: string } }>().project.id;
  }

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers every box style with a layout of its blank on the default sheet', async () => {
    for (const template of BOX_TEMPLATES) {
      // The default shipping box (1090 mm of blank) is larger than the default sheet: a smaller one.
      const size = template.id === 'rsc-box' ? { widthMm: 300, depthMm: 200, heightMm: 150 } : {};
      const id = await createProject({ templateId: template.id, ...size });
      const response = await get(`/projects/${id}/layout`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('private, no-cache');
      const body = response.json<{ layout: SheetLayout }>();
      expect(validateReply(body), JSON.stringify(validateReply.errors)).toBe(true);
      const dieline = (await get(`/projects/${id}/dieline`)).json<{ dieline: Dieline }>().dieline;
      expectValidLayout(dieline, body.layout, DEFAULT_SHEET, template.id);
      const again = await get(`/projects/${id}/layout`, { ...owner.auth, 'if-none-match': String(response.headers.etag) });
      expect(again.statusCode).toBe(304);
    }
  });

  it('takes the sheet, gripper and gap from the query, and the reference case counts as the pure layout does', async () => {
    const id = await createProject({ templateId: 'reverse-tuck-carton', widthMm: 70, depthMm: 70, heightMm: 180 });
    const response = await get(`/projects/${id}/layout?sheetWidthMm=620&sheetHeightMm=1092&gripperMm=10&gapMm=3`);
    expect(response.statusCode, response.body).toBe(200);
    const { layout } = response.json<{ layout: SheetLayout }>();
    expect(layout.sheet).toEqual({ widthMm: 620, heightMm: 1092 });
    expect(layout.count).toBeGreaterThan(4);
    const reference = (await get(`/projects/${id}/layout`)).json<{ layout: SheetLayout }>().layout;
    expect(reference.count).toBeGreaterThanOrEqual(6);
    expect(reference.count).toBeLessThanOrEqual(11);
    for (const bad of ['sheetWidthMm=99', 'sheetHeightMm=2001', 'gripperMm=51', 'gapMm=-1', 'format=svg', 'bleedMm=3']) {
      const rejected = await get(`/projects/${id}/layout?${bad}`);
      expect(rejected.statusCode, bad).toBe(400);
    }
  });

  it('422 when the blank does not fit, 400 for a container, 404 for another account', async () => {
    const big = await createProject({ templateId: 'rsc-box', widthMm: 400, heightMm: 300, depthMm: 300 });
    const response = await get(`/projects/${big}/layout?sheetWidthMm=500&sheetHeightMm=500`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(apiError(422, 'The blank does not fit on the sheet.'));
    const pdf = await get(`/projects/${big}/layout?sheetWidthMm=500&sheetHeightMm=500&format=pdf`);
    expect(pdf.statusCode).toBe(422);
    const intruder = await registerAccount(app);
    expect((await get(`/projects/${big}/layout`, intruder.auth)).statusCode).toBe(404);
    const bottle = await createProject({ templateId: 'round-bottle' });
    const container = await get(`/projects/${bottle}/layout`);
    expect(container.statusCode).toBe(400);
    expect(container.json()).toEqual(apiError(400, "Template 'round-bottle' is a container: sheet layouts are for box templates."));
    expect((await app.inject({ method: 'GET', url: `/projects/${big}/layout` })).statusCode).toBe(401);
  });

  it('runs in a render child within RENDER_LAYOUT_TIMEOUT_MS: past it, 503 with Retry-After and the child killed', async () => {
    const metricsToken = 'layout-metrics-token-0123456789';
    const bounded = await createTestApp({ RENDER_LAYOUT_TIMEOUT_MS: '100', METRICS_TOKEN: metricsToken });
    try {
      const account = await registerAccount(bounded);
      const id = await createOwnedProject(bounded, account, 'straight-tuck-box', {}, { widthMm: 20, depthMm: 20, heightMm: 20 });
      const deadlineKills = async () => {
        const metrics = await bounded.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } });
        const line = metrics.body.split('\n').find((entry) => entry.startsWith('render_kills_total{pool="print",reason="deadline"}'));
        return line ? Number(line.split(' ').pop()) : 0;
      };
      // A first layout starts the print child; one still starting holds no render, so that layout
      // may time out waiting (nothing to kill) or be made, and the child stays for the next.
      const first = await bounded.inject({ method: 'GET', url: `/projects/${id}/layout`, headers: account.auth });
      expect([200, 503], first.body).toContain(first.statusCode);
      const until = Date.now() + 60_000;
      while (bounded.services.renderer.stats().print.starting > 0 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(bounded.services.renderer.stats().print).toMatchObject({ children: 1, starting: 0, busy: 0 });

      const before = await deadlineKills();
      // Hundreds of copies on the largest sheet, as the child's first PDF: about 0.2 s on a warm
      // child and more on its first, so the running render is stopped and its child killed.
      const response = await bounded.inject({
        method: 'GET',
        url: `/projects/${id}/layout?sheetWidthMm=2000&sheetHeightMm=2000&gripperMm=0&gapMm=0&format=pdf`,
        headers: account.auth,
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toEqual(apiError(503, 'The sheet layout took longer than its 0.1 s limit.'));
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
      expect(await deadlineKills()).toBe(before + 1);
    } finally {
      await bounded.close();
    }
  });

  it.each([
    ['upright copies', 620, false],
    ['copies turned a quarter', 787, true],
  ] as const)('format=pdf, %s: the press sheet, every copy’s die on the CutContour ' +
    'and Crease plates and nothing elsewhere', async (_label, sheetWidth, turned) => {
    const id = await createProject({ templateId: 'reverse-tuck-carton', widthMm: 70, depthMm: 70, heightMm: 180 });
    const query = `sheetWidthMm=${sheetWidth}&sheetHeightMm=1092`;
    const { layout } = (await get(`/projects/${id}/layout?${query}`)).json<{ layout: SheetLayout }>();
    expect(layout.rotated).toBe(turned);
    const response = await get(`/projects/${id}/layout?${query}&format=pdf`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="reverse-tuck-carton-70x70x180-sheet-${sheetWidth}x1092.pdf"`);
    const dieline = (await get(`/projects/${id}/dieline`)).json<{ dieline: Dieline }>().dieline;
    const dir = await mkdtemp(join(tmpdir(), 'sheet-'));
    try {
      await writeFile(join(dir, 'sheet.pdf'), response.rawPayload);
      const { stdout } = await run('pdfinfo', [join(dir, 'sheet.pdf')]);
      const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout)!;
      expect(Number(size[1])).toBeCloseTo(sheetWidth * PT_PER_MM, 1);
      expect(Number(size[2])).toBeCloseTo(1092 * PT_PER_MM, 1);
      const dpi = 20;
      const separate = ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=tiffsep', `-r${dpi}`];
      await run('gs', [...separate, '-o', join(dir, 'sep.tif'), join(dir, 'sheet.pdf')]);
      const boxes = layout.copies.map((copy) => {
        const points = placed(dieline, copy).flat();
        const xs = points.map((p) => p[0]);
        const ys = points.map((p) => p[1]);
        return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
      });
      const slack = 25.4 / dpi + 0.5;
      // Each plate's lines where the test itself puts them: the die, turned and moved copy by copy.
      const lines = (type: string): [Point, Point][] =>
        layout.copies.flatMap((copy) =>
          dieline.paths
            .filter((path) => path.type === type)
            .flatMap((path) => {
              const points = placePoints(dieline, copy, path.points);
              const count = path.closed ? points.length : points.length - 1;
              return Array.from({ length: count }, (_, i): [Point, Point] => [points[i]!, points[(i + 1) % points.length]!]);
            }),
        );
      for (const [plate, type] of [['CutContour', 'cut'], ['Crease', 'crease']] as const) {
        const expected = lines(type);
        const near = ([x, y]: Point) => expected.some(([a, b]) => distanceToSegment([x, y], a, b) <= slack);
        const ink = await separationInk(join(dir, `sep(${plate}).tif`), dpi);
        expect(ink.length, plate).toBeGreaterThan(100);
        for (const [x, y] of ink) {
          const inside = boxes.some((b) => x >= b.minX - slack && x <= b.maxX + slack && y >= b.minY - slack && y <= b.maxY + slack);
          expect(inside, `${plate} ink at ${x}, ${y} outside every copy`).toBe(true);
          expect(near([x, y]), `${plate} ink at ${x}, ${y} on no ${type} line`).toBe(true);
        }
        boxes.forEach((b, index) => {
          const mine = ink.filter(([x, y]) => x >= b.minX - slack && x <= b.maxX + slack && y >= b.minY - slack && y <= b.maxY + slack);
          expect(mine.length, `${plate} copy ${index}`).toBeGreaterThan(20);
        });
      }
      // The die overprints: no process plate carries it.
      const magenta = await separationInk(join(dir, 'sep(Magenta).tif'), dpi);
      expect(magenta).toEqual([]);
      expect((await readFile(join(dir, 'sheet.pdf'))).toString('latin1')).toMatch(/\[\/Separation \/CutContour \/DeviceCMYK/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
