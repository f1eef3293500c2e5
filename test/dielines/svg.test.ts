import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/catalog/data.js';
import { pointInPolygon } from '../../src/dielines/geometry.js';
import { generateDieline, renderDieline, renderDielineSvg, type Dieline } from '../../src/dielines/index.js';

const RENDER_WIDTH_PX = 800;
const CUT_STROKE_MM = 0.25;

interface Raster {
  width: number;
  height: number;
  pixels: Buffer;
  /** Pixels per millimetre. */
  scale: number;
}

function rasterise(svg: string, d: Dieline): Raster {
  const image = new Resvg(svg, { fitTo: { mode: 'width', value: RENDER_WIDTH_PX } }).render();
  return { width: image.width, height: image.height, pixels: image.pixels, scale: image.width / d.artboard.width };
}

function alphaAt(raster: Raster, d: Dieline, xMm: number, yMm: number): number {
  const px = Math.floor((xMm - d.artboard.x) * raster.scale);
  const py = Math.floor((yMm - d.artboard.y) * raster.scale);
  return raster.pixels[(py * raster.width + px) * 4 + 3]!;
}

/** Centres of the big, convex-ish panels (walls, bottoms, lids) that lie inside their panel. */
function panelCentres(d: Dieline): [number, number][] {
  return d.panels
    .filter((p) => ['wall', 'bottom', 'lid', 'closure'].includes(p.role) && p.bounds.width > 20 && p.bounds.height > 20)
    .map((p): [number, number] => [p.bounds.x + p.bounds.width / 2, p.bounds.y + p.bounds.height / 2])
    .filter((c, i, all) => all.indexOf(c) === i)
    .filter((c) => d.panels.some((p) => pointInPolygon(c, p.polygon)));
}

for (const template of TEMPLATES.filter((entry) => entry.dielineAvailable)) {
  describe(`SVG of ${template.id}`, () => {
    const d = generateDieline(template.id, template.defaultDimensions);
    const svg = renderDielineSvg(d);

    it('uses millimetre units and a viewBox of blank plus bleed', () => {
      expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      expect(svg).toContain(`width="${d.artboard.width}mm"`);
      expect(svg).toContain(`height="${d.artboard.height}mm"`);
      expect(svg).toContain(`viewBox="-3 -3 ${d.artboard.width} ${d.artboard.height}"`);
      expect(d.artboard.width).toBeCloseTo(d.blank.width + 6, 6);
    });

    it('has one group per line type, cut solid and fold rules dashed', () => {
      // Greyboard folds on V-grooves, every other board on creases.
      const fold = template.id === 'rigid-lid-box' ? 'v-groove' : 'crease';
      for (const id of ['cut', fold, 'bleed', 'safe']) expect(svg.match(new RegExp(`<g id="${id}"`, 'g'))).toHaveLength(1);
      const cut = /<g id="cut"[^>]*>/.exec(svg)![0];
      const crease = new RegExp(`<g id="${fold}"[^>]*>`).exec(svg)![0];
      expect(cut).not.toContain('stroke-dasharray');
      expect(crease).toContain('stroke-dasharray');
      // Glued styles mark their glue areas; the mailer and the rigid trays have none.
      expect(svg.includes('<g id="glue"')).toBe(d.paths.some((p) => p.type === 'glue'));
      const groupPaths = (id: string): number => svg.split(`<g id="${id}"`)[1]!.split('</g>')[0]!.match(/<path /g)!.length;
      expect(groupPaths('cut')).toBe(d.paths.filter((p) => p.type === 'cut').length);
      expect(groupPaths(fold)).toBe(d.paths.filter((p) => p.type === fold).length);
    });

    it('carries every panel as an invisible polygon with a unique, valid id', () => {
      const ids = [...svg.matchAll(/<polygon id="([^"]+)" data-panel-id="([^"]+)"/g)];
      expect(ids).toHaveLength(d.panels.length);
      expect(new Set(ids.map((m) => m[1])).size).toBe(ids.length);
      for (const [, elementId, panelId] of ids) {
        expect(elementId).toBe(`panel-${panelId}`);
        expect(elementId).toMatch(/^[A-Za-z][A-Za-z0-9_-]*$/);
      }
      expect(svg).toContain('<g id="panels" fill="none" stroke="none">');
    });

    it('rasterises; the cut ink stays on the blank and panel centres stay clear', () => {
      const cutOnly = rasterise(renderDielineSvg(d, { layers: ['cut'], panels: false }), d);
      const tolerance = CUT_STROKE_MM / 2 + 1.5 / cutOnly.scale;
      let ink = 0;
      for (let py = 0; py < cutOnly.height; py++) {
        for (let px = 0; px < cutOnly.width; px++) {
          if (cutOnly.pixels[(py * cutOnly.width + px) * 4 + 3] === 0) continue;
          ink++;
          const x = d.artboard.x + (px + 0.5) / cutOnly.scale;
          const y = d.artboard.y + (py + 0.5) / cutOnly.scale;
          expect(x).toBeGreaterThanOrEqual(-tolerance);
          expect(y).toBeGreaterThanOrEqual(-tolerance);
          expect(x).toBeLessThanOrEqual(d.blank.width + tolerance);
          expect(y).toBeLessThanOrEqual(d.blank.height + tolerance);
        }
      }
      expect(ink).toBeGreaterThan(100);

      const full = rasterise(svg, d);
      const centres = panelCentres(d);
      expect(centres.length).toBeGreaterThanOrEqual(3);
      for (const [x, y] of centres) {
        expect(alphaAt(cutOnly, d, x, y)).toBe(0);
        expect(alphaAt(full, d, x, y)).toBe(0);
      }
    });

    it('is deterministic', () => {
      expect(renderDielineSvg(generateDieline(template.id, template.defaultDimensions))).toBe(svg);
    });
  });
}

describe('SVG escaping', () => {
  it('escapes interpolated text and still parses', () => {
    const d = generateDieline('rsc-box', { widthMm: 400, depthMm: 300, heightMm: 300 });
    const hostile: Dieline = {
      ...d,
      templateId: 'a"b<c>&\'d',
      styleName: '<script>alert("x")</script> & co',
      panels: d.panels.map((p) => ({ ...p, id: `${p.id}"><x`, name: `${p.name} <&>` })),
    };
    const svg = renderDielineSvg(hostile);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
    expect(svg).toContain('data-template-id="a&quot;b&lt;c&gt;&amp;&apos;d"');
    const ids = [...svg.matchAll(/<polygon id="([^"]*)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(d.panels.length);
    for (const id of ids) expect(id).toMatch(/^panel-[A-Za-z0-9_-]+$/);
    expect(() => new Resvg(svg).render()).not.toThrow();
  });
});

describe('renderDieline', () => {
  it('returns content type, file name and body per format', async () => {
    const d = generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 });
    const json = await renderDieline(d, 'json');
    expect(json.contentType).toBe('application/json; charset=utf-8');
    expect(json.fileName).toBe('mailer-box-300x220x80.json');
    expect(JSON.parse(json.body as string)).toEqual(d);
    const svg = await renderDieline(d, 'svg');
    expect(svg.contentType).toBe('image/svg+xml; charset=utf-8');
    expect(svg.body).toBe(renderDielineSvg(d));
    const pdf = await renderDieline(d, 'pdf');
    expect(pdf.contentType).toBe('application/pdf');
    expect(Buffer.isBuffer(pdf.body)).toBe(true);
    expect(pdf.fileName.endsWith('.pdf')).toBe(true);
  });
});
