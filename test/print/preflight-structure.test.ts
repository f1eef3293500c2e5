// GET /projects/:id/preflight reads the structure under the artwork: SAFE_ZONE (close to a cut edge
// inside the trim), CROSSES_FOLD (over a crease or a slot onto another panel), CLIPPED (past the
// bleed outline) and GLUE_AREA (any ink on a glue area; info when knocked out, warning when printed).
// Each fires on a design made for it and on no clean design of any box template.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { generateDieline } from '../../src/dielines/index.js';
import type { TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { registerProAccount } from '../projects/fixtures.js';
import { artwork, createProject, projectPreflight, twoToneJpeg, uploadJpeg, type PreflightFinding } from './harness.js';

type Finding = PreflightFinding;

const STRUCTURE_CODES = ['SAFE_ZONE', 'CROSSES_FOLD', 'CLIPPED', 'GLUE_AREA'];
/** Reverse tuck end, 70 × 70 × 180: the front wall is 70 mm wide and 180 mm high, its top edge a cut. */
const CARTON = { widthMm: 70, depthMm: 70, heightMm: 180 };

let app: App;
let owner: TestAccount;
let image: string;

const preflight = (templateId: string, artworkJson: object, dims: object = CARTON, query = '') =>
  projectPreflight(app, owner, templateId, artworkJson, dims, query);

const summary = (findings: Finding[]) => findings.map((f) => [f.code, f.severity, f.artworkId, f.panelId]);

/**
 * The artworks near the top edge: 0.3 of the front's width, 2.5 mm in from its left side, clear of
 * the thumb notch in the middle of the edge.
 */
const SCALE = 0.3;
const FRONT = generateDieline('reverse-tuck-carton', CARTON).panels.find((panel) => panel.id === 'front')!;
const CLEAR_OF_NOTCH = -FRONT.frame.width / 2 + 2.5 + (SCALE * FRONT.frame.width) / 2;

/**
 * offsetY that puts the image's top edge `gap` mm below the front's top cut edge (negative: above
 * it). The 3000 × 2000 px image at SCALE is two thirds as high as wide; turned a quarter, its height
 * on the panel is its width.
 */
function belowTopEdge(gap: number, quarterTurn = false): number {
  const width = SCALE * FRONT.frame.width;
  const halfHeight = (quarterTurn ? width : width * (2 / 3)) / 2;
  return -FRONT.frame.height / 2 + gap + halfHeight;
}

beforeAll(async () => {
  app = await createTestApp();
  owner = await registerProAccount(app);
  image = await uploadJpeg(app, owner, await twoToneJpeg(3000, 2000));
});
afterAll(() => app.close());

describe(`preflight sees safe zones, folds, clipping and glue (${engineName()})`, () => {
  it('the front top edge of the test carton is a cut edge (the fixtures below rely on it)', () => {
    const dieline = generateDieline('reverse-tuck-carton', CARTON);
    const front = dieline.panels.find((panel) => panel.id === 'front')!;
    const outline = dieline.paths.find((path) => path.type === 'cut' && path.role === 'outline')!;
    const top = front.bounds.y;
    const onOutline = outline.points.filter(
      (p) => Math.abs(p[1] - top) < 0.001 && p[0] >= front.bounds.x - 0.001 && p[0] <= front.bounds.x + front.bounds.width + 0.001,
    );
    // Its two corners, and the thumb notch the slit lock cuts into the middle of it.
    expect(onOutline.length).toBeGreaterThanOrEqual(4);
    const notch = onOutline.map((p) => p[0]).sort((a, b) => a - b);
    expect(notch[1]! - front.bounds.x).toBeGreaterThan(SCALE * front.frame.width + 2.5);
    expect(dieline.safeMarginMm).toBe(3);
  });

  it('SAFE_ZONE: artwork 1 mm (and 2.5 mm) from a cut edge is a warning; 3.5 mm and into the bleed are clean', async () => {
    const near = await preflight('reverse-tuck-carton', {
      artworks: [artwork('art-1', 'front', image, { scale: SCALE, offsetX: CLEAR_OF_NOTCH, offsetY: belowTopEdge(1) })],
    });
    expect(summary(near.findings)).toEqual([['SAFE_ZONE', 'warning', 'art-1', 'front']]);
    expect(near.findings[0]!.message).toBe(
      'art-1 on front comes within 1 mm of a cut edge; keep artwork 3 mm inside the trim or extend it into the bleed.',
    );
    expect(near.ready).toBe(true);
    const margin = await preflight('reverse-tuck-carton', {
      artworks: [artwork('art-1', 'front', image, { scale: SCALE, offsetX: CLEAR_OF_NOTCH, offsetY: belowTopEdge(2.5) })],
    });
    expect(summary(margin.findings)).toEqual([['SAFE_ZONE', 'warning', 'art-1', 'front']]);
    const clear = await preflight('reverse-tuck-carton', {
      artworks: [artwork('art-1', 'front', image, { scale: SCALE, offsetX: CLEAR_OF_NOTCH, offsetY: belowTopEdge(3.5) })],
    });
    expect(clear.findings).toEqual([]);
    const intoBleed = await preflight('reverse-tuck-carton', {
      artworks: [artwork('art-1', 'front', image, { scale: SCALE, offsetX: CLEAR_OF_NOTCH, offsetY: belowTopEdge(-2) })],
    });
    expect(intoBleed.findings).toEqual([]);
  });

  it('SAFE_ZONE follows the artwork as turned: a quarter turn brings its long side to the edge', async () => {
    const turned = await preflight('reverse-tuck-carton', {
      artworks: [
        artwork('art-1', 'front', image, { scale: SCALE, offsetX: CLEAR_OF_NOTCH, rotationDeg: 90, offsetY: belowTopEdge(1, true) }),
      ],
    });
    expect(summary(turned.findings)).toEqual([['SAFE_ZONE', 'warning', 'art-1', 'front']]);
    expect(turned.findings[0]!.message).toMatch(/^art-1 on front comes within 1 mm of a cut edge;/);
    // The same offset unturned leaves about 4 mm: clean.
    const upright = await preflight('reverse-tuck-carton', {
      artworks: [artwork('art-1', 'front', image, { scale: SCALE, offsetX: CLEAR_OF_NOTCH, offsetY: belowTopEdge(1, true) })],
    });
    expect(upright.findings).toEqual([]);
  });

  it('CLIPPED: artwork partly past the bleed outline is a warning', async () => {
    const { findings, ready } = await preflight('reverse-tuck-carton', {
      artworks: [artwork('art-1', 'front', image, { scale: SCALE, offsetX: CLEAR_OF_NOTCH, offsetY: belowTopEdge(-5) })],
    });
    expect(summary(findings)).toEqual([['CLIPPED', 'warning', 'art-1', 'front']]);
    expect(findings[0]!.message).toBe('art-1 on front runs past the bleed of blank, so part of it is cut off.');
    expect(ready).toBe(true);
  });

  it('CROSSES_FOLD: over a crease onto the next wall, and over a slot onto the next flap (info)', async () => {
    const crease = await preflight('reverse-tuck-carton', { artworks: [artwork('art-1', 'front', image, { offsetX: 30 })] });
    expect(summary(crease.findings)).toEqual([['CROSSES_FOLD', 'info', 'art-1', 'front']]);
    expect(crease.findings[0]!.message).toBe('art-1 on front crosses a fold or a slot onto right; check how it reads on the folded box.');

    const rsc = generateDieline('rsc-box', { widthMm: 400, depthMm: 300, heightMm: 300 });
    const flap = rsc.panels.find((panel) => panel.id === 'top-flap-front')!;
    // Along the flap's bottom (the crease side would add the front wall): across the slot only.
    const slot = await preflight(
      'rsc-box',
      {
        artworks: [
          artwork('art-1', 'top-flap-front', image, { scale: 0.1, offsetX: flap.frame.width / 2, offsetY: -flap.frame.height / 4 }),
        ],
      },
      { widthMm: 400, depthMm: 300, heightMm: 300 },
    );
    expect(summary(slot.findings)).toEqual([['CROSSES_FOLD', 'info', 'art-1', 'top-flap-front']]);
    expect(slot.findings[0]!.message).toMatch(/^art-1 on top-flap-front crosses a fold or a slot onto top-flap-(left|right); /);
  });

  it('GLUE_AREA: any ink on a glue area, backgrounds included; white is no ink; glueAreas sets the severity', async () => {
    const red = { background: { kind: 'color', value: '#ff0000' } };
    const knockout = await preflight('reverse-tuck-carton', red);
    expect(knockout.findings).toEqual([
      {
        severity: 'info',
        code: 'GLUE_AREA',
        message: 'The background covers the glue area of glue-flap; it is knocked out there (glueAreas=knockout).',
        panelId: 'glue-flap',
      },
    ]);
    const printed = await preflight('reverse-tuck-carton', red, CARTON, '?glueAreas=print');
    expect(printed.findings).toEqual([
      {
        severity: 'warning',
        code: 'GLUE_AREA',
        message: 'The background covers the glue area of glue-flap; glued areas should stay free of ink.',
        panelId: 'glue-flap',
      },
    ]);
    const gradient = await preflight('reverse-tuck-carton', {
      background: { kind: 'gradient', value: 'linear-gradient(90deg, #fff, #0000ff)' },
    });
    expect(summary(gradient.findings)).toEqual([['GLUE_AREA', 'info', undefined, 'glue-flap']]);
    for (const white of ['#fff', '#FFFFFF', 'rgb(255, 255, 255)', 'linear-gradient(10deg, #fff, #ffffff 50%)']) {
      const kind = white.startsWith('linear') ? 'gradient' : 'color';
      expect((await preflight('reverse-tuck-carton', { background: { kind, value: white } })).findings, white).toEqual([]);
    }
    const onFlap = await preflight(
      'reverse-tuck-carton',
      { artworks: [artwork('art-1', 'glue-flap', image, { scale: 0.05 })] },
      CARTON,
      '?glueAreas=print',
    );
    expect(summary(onFlap.findings)).toEqual([['GLUE_AREA', 'warning', 'art-1', 'glue-flap']]);
    // An auto-bottom's glue tabs count as well.
    const tabs = await preflight('auto-bottom-box', red, { widthMm: 120, depthMm: 80, heightMm: 160 }, '?glueAreas=print');
    expect(tabs.findings.length).toBeGreaterThanOrEqual(3);
    expect(new Set(tabs.findings.map((f) => [f.code, f.severity].join()))).toEqual(new Set(['GLUE_AREA,warning']));
  });

  it('glueAreas outside its values is a 400', async () => {
    const id = await createProject(app, owner, 'reverse-tuck-carton', {}, CARTON);
    const response = await app.inject({ method: 'GET', url: `/projects/${id}/preflight?glueAreas=skip`, headers: owner.auth });
    expect(response.statusCode).toBe(400);
  });

  const cleanFront: Record<string, string> = { 'rigid-lid-box': 'base-front' };
  for (const template of TEMPLATES.filter((entry) => entry.kind === 'box')) {
    it(`no structural finding on a clean ${template.id} (white background, artwork inside its front wall)`, async () => {
      const { findings } = await preflight(
        template.id,
        {
          background: { kind: 'color', value: '#ffffff' },
          artworks: [artwork('art-1', cleanFront[template.id] ?? 'front', image, { scale: 0.3 })],
        },
        template.defaultDimensions,
        '?glueAreas=print',
      );
      expect(findings.filter((f) => STRUCTURE_CODES.includes(f.code))).toEqual([]);
    });
  }
});
