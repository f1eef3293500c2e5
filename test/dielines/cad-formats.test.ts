import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { generateDieline, renderDielineCf2, renderDielineDxf, type Dieline, type DielinePathType } from '../../src/dielines/index.js';
import { cadSegments } from '../../src/dielines/cad.js';
import { issueKey } from '../api-keys/keys.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { curveSegments } from '../../src/dielines/curves.js';
import { pathData } from '../../src/dielines/format.js';
import { arcPoints, roundedPolyline } from '../../src/dielines/profile.js';
import { dielineLength, lengthTolerance, parseCf2, readDxf, type DxfReading } from './cad-readers.js';
import { SIZE_GRID } from './helpers.js';

const BOX_TEMPLATES = TEMPLATES.filter((template) => template.dielineAvailable).map((template) => template.id);
const LAYER_OF: Readonly<Record<string, string>> = {
  cut: 'CUT',
  crease: 'CREASE',
  'reverse-crease': 'REVERSE_CREASE',
  perforation: 'PERFORATION',
  'half-cut': 'HALF_CUT',
  'v-groove': 'V_GROOVE',
  bleed: 'BLEED',
  safe: 'SAFE',
};
const ALLOWED_ENTITIES = ['ARC', 'CIRCLE', 'LINE', 'POLYLINE'];
/** Styles whose outlines have rounded corners or swing arcs, which must stay arcs. */
const HAS_ARCS = new Set(['mailer-box', 'reverse-tuck-carton', 'straight-tuck-box', 'auto-bottom-box']);
const CORRUGATED = new Set(['mailer-box', 'rsc-box']);

/** A true arc is longer than the model's chords by up to 0.05 mm per arc (a thumb notch's half circle). */
const ARC_ALLOWANCE_MM = 0.05;

function expectLength(actual: number | undefined, expected: number, what: string, arcs = 0): void {
  expect(actual, `${what}: no length`).toBeDefined();
  expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    lengthTolerance(expected) + arcs * ARC_ALLOWANCE_MM,
  );
}

function arcCount(dieline: Dieline, type: DielinePathType): number {
  return cadSegments(dieline, type).filter((segment) => segment.kind === 'arc').length;
}

/** What the DXF must say about `dieline`, read back by ezdxf. */
function expectDxfMatches(text: string, reading: DxfReading, dieline: Dieline, label: string): void {
  expect(text).toMatch(/\$ACADVER\r?\n\s*1\r?\nAC1009\r?\n/);
  expect(text).not.toMatch(/LWPOLYLINE|SPLINE|ELLIPSE/);
  expect(reading.version).toBe('AC1009');
  expect(reading.insunits).toBe(4);
  expect(reading.errors, label).toEqual([]);
  for (const type of reading.types) expect(ALLOWED_ENTITIES).toContain(type);
  const types = [...new Set(dieline.paths.map((path) => path.type))].filter((type) => LAYER_OF[type]);
  expect(Object.keys(reading.lengths).sort(), label).toEqual(types.map((type) => LAYER_OF[type]!).sort());
  for (const type of types) {
    const layer = LAYER_OF[type]!;
    expect(reading.layers).toContain(layer);
    expectLength(reading.lengths[layer], dielineLength(dieline, type), `${label} ${layer}`, arcCount(dieline, type));
  }
  // y up, print side up: every straight cut ends on a cut point of the model mirrored about the blank.
  const mirrored = dieline.paths
    .filter((path) => path.type === 'cut')
    .flatMap((path) => path.points.map(([x, y]) => [x, dieline.blank.height - y]));
  for (const [x, y] of reading.lineEnds.CUT ?? []) {
    expect(mirrored.some(([mx, my]) => Math.abs(mx! - x) < 1e-3 && Math.abs(my! - y) < 1e-3), `${label}: (${x}, ${y})`).toBe(true);
  }
  expect((reading.lineEnds.CUT ?? []).length).toBeGreaterThan(0);
}

function expectCf2Matches(text: string, dieline: Dieline, label: string): void {
  const cf2 = parseCf2(text);
  expect(cf2.header).toEqual(['V2']);
  expect(cf2.units).toBe('UM');
  expect(cf2.ll).toEqual([0, 0]);
  expect(cf2.ur).toEqual([dieline.blank.width, dieline.blank.height]);
  const pointage = CORRUGATED.has(dieline.templateId) ? 3 : 2;
  for (const rule of cf2.rules) {
    expect(rule.pointage).toBe(pointage);
    // 1 cut, 2 crease; the rigid trays' V-grooves are 6.
    expect([1, 2, 6]).toContain(rule.type);
    for (const [x, y] of [rule.start, rule.end]) {
      expect(x).toBeGreaterThanOrEqual(cf2.ll[0] - 1e-6);
      expect(y).toBeGreaterThanOrEqual(cf2.ll[1] - 1e-6);
      expect(x).toBeLessThanOrEqual(cf2.ur[0] + 1e-6);
      expect(y).toBeLessThanOrEqual(cf2.ur[1] + 1e-6);
    }
  }
  const total = (type: number) => cf2.rules.filter((rule) => rule.type === type).reduce((sum, rule) => sum + rule.length, 0);
  expectLength(
    total(1),
    dieline.paths.filter((p) => p.type === 'cut').length ? dielineLength(dieline, 'cut') : 0,
    `${label} cut`,
    arcCount(dieline, 'cut'),
  );
  expectLength(total(2), dielineLength(dieline, 'crease'), `${label} crease`);
  expect(cf2.rules.some((rule) => rule.kind === 'A')).toBe(HAS_ARCS.has(dieline.templateId));
}

describe('CF2 reader used by these tests', () => {
  it('reads spaces after commas and SUB blocks placed by C records, arcs included', () => {
    const text = [
      '$BOF',
      'V2',
      'ORDER',
      'MAIN,TEST',
      'END',
      'SUB,SQUARE',
      'L, 2, 1, 0, 0, 0, 10, 0, 0, 0',
      'L, 2, 1, 0, 10, 0, 10, 10, 0, 0',
      'A, 2, 2, 0, 10, 10, 0, 10, 5, 10, 1, 0, 0',
      'END',
      'MAIN,TEST',
      'UM',
      'LL,0,0',
      'UR,100,100',
      'SCALE,1,1',
      'C,SQUARE,20,20,90,2,2',
      'C, SQUARE, 50, 50, 0, 1, 1',
      'A,2,1,0,80,50,80,50,70,50,-1,0,0',
      'END',
      '$EOF',
    ].join('\r\n');
    const cf2 = parseCf2(text);
    const cut = cf2.rules.filter((r) => r.type === 1).reduce((s, r) => s + r.length, 0);
    const crease = cf2.rules.filter((r) => r.type === 2).reduce((s, r) => s + r.length, 0);
    expect(cut).toBeCloseTo(2 * 20 + 2 * 10 + 2 * Math.PI * 10, 9);
    expect(crease).toBeCloseTo(Math.PI * 5 * 2 + Math.PI * 5, 9);
    // The first call turns the square by 90°: its first rule runs up from (20, 20).
    expect(cf2.rules[0]!.end[0]).toBeCloseTo(20, 9);
    expect(cf2.rules[0]!.end[1]).toBeCloseTo(40, 9);
    expect(() => parseCf2(text.replace('$EOF', ''))).toThrow();
    expect(() => parseCf2(text.replace('C, SQUARE', 'C, ROUND'))).toThrow(/unknown SUB/);
  });
});

describe('lines and arcs recovered from the model’s polylines', () => {
  const rounded = (points: [number, number][]) =>
    points.map(([x, y]): [number, number] => [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000]);

  it('a rounded rectangle is four lines and four quarter arcs; a square’s corners stay corners', () => {
    const corners = [[0, 0], [100, 0], [100, 60], [0, 60], [0, 0], [100, 0]].map((point, index, all) => ({
      point: point as [number, number],
      radius: index === 0 || index === all.length - 1 ? 0 : 5,
    }));
    const outline = rounded(roundedPolyline(corners).slice(1, -1));
    const segments = curveSegments(outline, true);
    expect(segments.filter((s) => s.kind === 'arc')).toHaveLength(4);
    expect(segments.filter((s) => s.kind === 'line')).toHaveLength(4);
    for (const arc of segments.filter((s) => s.kind === 'arc')) {
      expect(arc.kind === 'arc' && arc.radius).toBeCloseTo(5, 2);
      expect(arc.kind === 'arc' && Math.abs(arc.sweep)).toBeCloseTo(Math.PI / 2, 3);
    }
    const square = curveSegments([[0, 0], [10, 0], [10, 10], [0, 10]], true);
    expect(square.map((s) => s.kind)).toEqual(['line', 'line', 'line', 'line']);
    // Equal sides and equal turns, but far from any circle the generator draws: a polygon.
    const d = 35.355;
    const octagon = curveSegments([[50, 0], [d, d], [0, 50], [-d, d], [-50, 0], [-d, -d], [0, -50], [d, -d]], true);
    expect(octagon.map((s) => s.kind)).toEqual(Array(8).fill('line'));
  });

  it('a round hole is one circle: CIRCLE in the DXF, an arc from a point back to itself in the CF2', async () => {
    const dieline = generateDieline('rsc-box', { widthMm: 300, depthMm: 200, heightMm: 150 });
    const circle = rounded(arcPoints([150, 150], 12, 0, 2 * Math.PI).slice(0, -1));
    dieline.paths.push({ type: 'cut', role: 'hole', pieceId: 'blank', closed: true, points: circle, d: pathData(circle, true) });
    const [reading] = await readDxf([renderDielineDxf(dieline)]);
    expect(reading!.types).toContain('CIRCLE');
    expect(reading!.errors).toEqual([]);
    expectLength(reading!.lengths.CUT, dielineLength(dieline, 'cut'), 'with a hole');
    const cf2 = parseCf2(renderDielineCf2(dieline));
    const full = cf2.rules.filter((rule) => rule.kind === 'A' && rule.start[0] === rule.end[0] && rule.start[1] === rule.end[1]);
    expect(full).toHaveLength(1);
    expect(full[0]!.length).toBeCloseTo(2 * Math.PI * 12, 2);
  });
});

describe('DXF and CF2 of every box style at every grid size', () => {
  const cases = Object.entries(SIZE_GRID).flatMap(([templateId, sizes]) =>
    sizes.map((size) => ({ templateId, label: `${templateId} ${size.label}`, dieline: generateDieline(templateId, size.dims) })),
  );

  it('covers every box template', () => {
    expect(Object.keys(SIZE_GRID).sort()).toEqual([...BOX_TEMPLATES].sort());
  });

  it('DXF: ezdxf reads and audits it clean; each layer is as long as the model’s paths', async () => {
    const texts = cases.map(({ dieline }) => renderDielineDxf(dieline));
    const readings = await readDxf(texts);
    cases.forEach(({ dieline, label }, index) => expectDxfMatches(texts[index]!, readings[index]!, dieline, label));
    // Arcs stay arcs where the style draws them.
    cases.forEach(({ templateId, label }, index) => {
      expect(readings[index]!.types.includes('ARC'), label).toBe(HAS_ARCS.has(templateId));
    });
  });

  it('CF2: parses back with cut and crease as long as the model’s, arcs included', () => {
    for (const { dieline, label } of cases) expectCf2Matches(renderDielineCf2(dieline), dieline, label);
  });

  it('the same dieline gives the same bytes', () => {
    const { dieline } = cases[0]!;
    expect(renderDielineDxf(dieline)).toBe(renderDielineDxf(structuredClone(dieline)));
    expect(renderDielineCf2(dieline)).toBe(renderDielineCf2(structuredClone(dieline)));
  });
});

describe(`format=dxf and format=cf2 on the dieline routes (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  function expectDownload(response: LightMyRequestResponse, contentType: string, fileName: string): void {
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(contentType);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${fileName}"`);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  }

  it('every box template answers DXF and CF2 that match its JSON dieline', async () => {
    const texts: string[] = [];
    const dielines: Dieline[] = [];
    for (const templateId of BOX_TEMPLATES) {
      const json = await get(`/templates/${templateId}/dieline?bleedMm=4`);
      const dieline = json.json<{ dieline: Dieline }>().dieline;
      const { widthMm, depthMm, heightMm } = dieline.dimensions.inside;
      const stem = `${templateId}-${widthMm}x${depthMm}x${heightMm}`;
      const dxf = await get(`/templates/${templateId}/dieline?format=dxf&bleedMm=4`);
      expectDownload(dxf, 'application/dxf', `${stem}.dxf`);
      expect(dxf.headers['cache-control']).toBe('public, max-age=86400');
      const cf2 = await get(`/templates/${templateId}/dieline?bleedMm=4&format=cf2`);
      expectDownload(cf2, 'application/vnd.cf2', `${stem}.cf2`);
      expectCf2Matches(cf2.body, dieline, templateId);
      texts.push(dxf.body);
      dielines.push(dieline);
    }
    const readings = await readDxf(texts);
    dielines.forEach((dieline, index) => expectDxfMatches(texts[index]!, readings[index]!, dieline, dieline.templateId));
  });

  it("a project's dieline comes as DXF and CF2 of its own size, revalidated by ETag", async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/projects',
      headers: owner.auth,
      payload: { name: 'Mailer', templateId: 'mailer-box', widthMm: 310, heightMm: 90, depthMm: 230 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ project: { id: string } }>().project.id;
    const dieline = (await get(`/projects/${id}/dieline`, owner.auth)).json<{ dieline: Dieline }>().dieline;
    const dxf = await get(`/projects/${id}/dieline?format=dxf`, owner.auth);
    expectDownload(dxf, 'application/dxf', 'mailer-box-310x230x90.dxf');
    expect(dxf.headers['cache-control']).toBe('private, no-cache');
    const [reading] = await readDxf([dxf.body]);
    expectDxfMatches(dxf.body, reading!, dieline, 'project mailer');
    const cf2 = await get(`/projects/${id}/dieline?format=cf2`, owner.auth);
    expectDownload(cf2, 'application/vnd.cf2', 'mailer-box-310x230x90.cf2');
    expectCf2Matches(cf2.body, dieline, 'project mailer');
    const again = await get(`/projects/${id}/dieline?format=cf2`, { ...owner.auth, 'if-none-match': String(cf2.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).not.toBe(dxf.headers.etag);
  });

  it('/v1 serves the same DXF and CF2 bytes behind a developer key, cached privately', async () => {
    const apiKey = await issueKey(app, owner);
    for (const query of ['?format=dxf', '?format=cf2&widthMm=250&heightMm=90']) {
      const open = await get(`/templates/mailer-box/dieline${query}`);
      const keyed = await get(`/v1/templates/mailer-box/dieline${query}`, { 'x-api-key': apiKey.key });
      expect(keyed.statusCode, query).toBe(200);
      expect(keyed.rawPayload.equals(open.rawPayload), query).toBe(true);
      expect(keyed.headers['content-type']).toBe(open.headers['content-type']);
      expect(keyed.headers['content-disposition']).toBe(open.headers['content-disposition']);
      expect(keyed.headers['cache-control']).toBe('private, max-age=86400');
    }
  });

  it("a container's print layout comes as DXF and CF2: a label's die-cut outline on CUT; " +
    "a can band (trim only) has no cutting die", async () => {
    const id = 'round-bottle';
    const dieline = (await get(`/templates/${id}/dieline`)).json<{ dieline: Dieline }>().dieline;
    const dxf = await get(`/templates/${id}/dieline?format=dxf`);
    expect(dxf.statusCode, dxf.body).toBe(200);
    expect(dxf.headers['content-type']).toBe('application/dxf');
    expect(dxf.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${id}-[0-9.x]+\\.dxf"$`));
    const [reading] = await readDxf([dxf.body]);
    expect(reading!.errors, id).toEqual([]);
    expect(dieline.paths.some((path) => path.type === 'cut')).toBe(true);
    expectLength(reading!.lengths.CUT, dielineLength(dieline, 'cut'), `${id} CUT`);
    const cf2 = parseCf2((await get(`/templates/${id}/dieline?format=cf2`)).body);
    expect(cf2.rules.some((rule) => rule.type === 1), id).toBe(true);
    expect(cf2.rules.some((rule) => rule.type === 2), id).toBe(false);
    for (const format of ['dxf', 'cf2']) {
      const band = await get(`/templates/beverage-can/dieline?format=${format}`);
      expect(band.statusCode, band.body).toBe(400);
      expect(band.json<{ message: string }>().message).toBe("Template 'beverage-can' has no cutting die.");
    }
  });
});
