// The viewer in a real browser: Debian's chromium, headless, WebGL through SwiftShader, driven by
// playwright-core against the app listening on a real port. Screenshots land in test-artifacts/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { CHROMIUM_ARGS } from '../../src/services/mockups.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { decodePng, type DecodedPng } from '../helpers/png.js';
import { uploadAsset } from '../assets/helpers.js';
import { artwork } from '../print/harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DISC_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><circle cx="200" cy="200" r="180" fill="#2f4f6f"/></svg>';
const ARTIFACTS = new URL('../../test-artifacts/viewer/', import.meta.url);

describe(`viewer in chromium (${engineName()})`, { timeout: 600_000 }, () => {
  let app: App;
  let base: string;
  let browser: Browser;
  let page: Page;
  let owner: TestAccount;
  let projectId: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    app = await createTestApp();
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    owner = await registerAccount(app);
    const mailer = TEMPLATES.find((template) => template.id === 'mailer-box')!;
    const created = await app.inject({
      method: 'POST',
      url: '/projects',
      headers: owner.auth,
      payload: {
        name: 'Red mailer',
        templateId: 'mailer-box',
        ...mailer.defaultDimensions,
        artworkJson: { background: { kind: 'color', value: '#d0342c' }, finish: 'matte', material: 'kraft' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    projectId = created.json<{ project: { id: string } }>().project.id;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // The mockup renderer's flags: headless, no sandbox, WebGL through SwiftShader.
      args: CHROMIUM_ARGS,
    });
    page = await browser.newPage({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
    // Software WebGL on a busy machine can hold the page for a while (shader compiles, PMREM).
    page.setDefaultTimeout(150_000);
    // The project model needs the JWT: the page's same-origin fetches carry it.
    await page.setExtraHTTPHeaders(owner.auth);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function show(query: string, name: string): Promise<DecodedPng> {
    await page.goto(`${base}/viewer?${query}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 150_000 });
    expect(await page.getAttribute('body', 'data-state'), (await page.textContent('#status')) ?? '').toBe('ready');
    const shot = await page.screenshot({ type: 'png', timeout: 150_000 });
    writeFileSync(new URL(`${name}.png`, ARTIFACTS), shot);
    return decodePng(shot);
  }

  const modelParam = () => encodeURIComponent(`/projects/${projectId}/model?textureSize=1024`);

  it('renders the mailer box with its design on the front face over the preset background', async () => {
    const image = await show(`model=${modelParam()}&lighting=studio`, 'mailer-box-studio');
    const front = await page.evaluate(() => {
      type Viewer = { screenPositionOf(name: string): { x: number; y: number } | null };
      const viewer = (globalThis as unknown as { packagingViewer: Viewer }).packagingViewer;
      return viewer.screenPositionOf('front');
    });
    expect(front).not.toBeNull();
    const [r, g, b] = image.pixel(front!.x, front!.y);
    // Lit, the colour keeps its hue: red well above green and blue, like #d0342c.
    expect(r, `front pixel ${r},${g},${b}`).toBeGreaterThan(120);
    expect(r).toBeGreaterThan(2 * g);
    expect(r).toBeGreaterThan(2 * b);
    expect(Math.abs(g - b)).toBeLessThan(40);
    // The studio background shows in the corner.
    expect(image.pixel(3, 3).slice(0, 3)).toEqual([0xec, 0xee, 0xf1]);
  });

  it('shows the requested background', async () => {
    const image = await show(`model=${modelParam()}&lighting=outdoor&background=%23123456`, 'mailer-box-background');
    expect(image.pixel(3, 3).slice(0, 3)).toEqual([0x12, 0x34, 0x56]);
    expect(image.pixel(image.width - 3, image.height - 3).slice(0, 3)).toEqual([0x12, 0x34, 0x56]);
  });

  it('changes the image with each lighting preset', async () => {
    const presets = ['studio', 'softbox', 'dramatic', 'outdoor'] as const;
    const images: DecodedPng[] = [];
    for (const preset of presets) {
      // One background for all, so only the light on the box can differ.
      images.push(await show(`model=${modelParam()}&lighting=${preset}&background=%23808080`, `mailer-box-preset-${preset}`));
    }
    for (let i = 0; i < images.length; i++) {
      for (let j = i + 1; j < images.length; j++) {
        let sum = 0;
        for (let k = 0; k < images[i]!.pixels.length; k++) sum += Math.abs(images[i]!.pixels[k]! - images[j]!.pixels[k]!);
        const mean = sum / images[i]!.pixels.length;
        expect(mean, `${presets[i]} vs ${presets[j]}`).toBeGreaterThan(1);
      }
    }
  });

  it('renders every template model without a load error', async () => {
    // Small: software WebGL draws each pixel on the CPU, and this test only needs each model to load and draw.
    await page.setViewportSize({ width: 320, height: 240 });
    try {
      for (const template of TEMPLATES) {
        await show(`model=${encodeURIComponent(`/templates/${template.id}/model`)}&lighting=softbox`, `template-${template.id}`);
      }
    } finally {
      await page.setViewportSize({ width: 640, height: 480 });
    }
  });

  it('refuses a model from another origin', async () => {
    await page.goto(`${base}/viewer?model=${encodeURIComponent('http://example.com/box.glb')}`);
    await page.waitForSelector('body[data-state="error"]', { timeout: 30_000 });
    expect(await page.textContent('#status')).toBe('Only same-origin model URLs can be shown.');
  });

  describe('share links', () => {
    /** A fresh context: no cookies, no headers, no token, as a visitor who only has the link. */
    async function visit(
      path: string,
    ): Promise<{ state: string | null; status: string | null; shot: DecodedPng; front: { x: number; y: number } | null }> {
      const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
      try {
        const visitor = await context.newPage();
        visitor.setDefaultTimeout(150_000);
        await visitor.goto(`${base}${path}`, { waitUntil: 'domcontentloaded' });
        await visitor.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 150_000 });
        const front = await visitor.evaluate(() => {
          const viewer = (
            globalThis as unknown as { packagingViewer?: { screenPositionOf(name: string): { x: number; y: number } | null } }
          ).packagingViewer;
          return viewer?.screenPositionOf('front') ?? null;
        });
        return {
          state: await visitor.getAttribute('body', 'data-state'),
          status: await visitor.textContent('#status'),
          shot: decodePng(await visitor.screenshot({ type: 'png' })),
          front,
        };
      } finally {
        await context.close();
      }
    }

    it('shows the shared project to a browser with no login, and stops on revoke', async () => {
      const created = await fetch(`${base}/projects/${projectId}/shares`, { method: 'POST', headers: owner.auth });
      expect(created.status).toBe(201);
      const { id, url } = ((await created.json()) as { share: { id: string; url: string } }).share;
      // Without PUBLIC_BASE_URL the link is relative: never built from a request header.
      expect(url.startsWith('/viewer?share=')).toBe(true);
      const link = new URL(url, base);

      const seen = await visit(`${link.pathname}${link.search}`);
      expect(seen.state, seen.status ?? '').toBe('ready');
      expect(seen.front).not.toBeNull();
      const [r, g, b] = seen.shot.pixel(seen.front!.x, seen.front!.y);
      expect(r, `front pixel ${r},${g},${b}`).toBeGreaterThan(120);
      expect(r - Math.max(g, b), `front pixel ${r},${g},${b}`).toBeGreaterThan(50);

      const revoked = await app.inject({ method: 'DELETE', url: `/projects/${projectId}/shares/${id}`, headers: owner.auth });
      expect(revoked.statusCode).toBe(204);
      const after = await visit(`${link.pathname}${link.search}`);
      expect(after.state).toBe('error');
      expect(after.status).toBe('This share link does not exist, has expired or was revoked.');
    });

    it(
      "a share link opens with the project's saved lighting; " +
        'its embed snippet is the share URL, without one the panel asks for a link',
      async () => {
        const mailer = TEMPLATES.find((template) => template.id === 'mailer-box')!;
        const made = await app.inject({
          method: 'POST',
          url: '/projects',
          headers: owner.auth,
          payload: {
            name: 'Dramatic mailer',
            templateId: 'mailer-box',
            ...mailer.defaultDimensions,
            artworkJson: { lighting: 'dramatic', material: 'kraft' },
          },
        });
        expect(made.statusCode, made.body).toBe(201);
        const dramaticId = made.json<{ project: { id: string } }>().project.id;
        const created = await fetch(`${base}/projects/${dramaticId}/shares`, { method: 'POST', headers: owner.auth });
        expect(created.status).toBe(201);
        const link = new URL(((await created.json()) as { share: { url: string } }).share.url, base);
        const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
        try {
          const visitor = await context.newPage();
          visitor.setDefaultTimeout(150_000);
          const state = async () => {
            await visitor.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 150_000 });
            const lighting = await visitor.evaluate(
              () => (globalThis as unknown as { packagingViewer: { lighting: string } }).packagingViewer.lighting,
            );
            await visitor.click('#embedToggle');
            return { lighting, embed: await visitor.inputValue('#embedCode'), state: await visitor.getAttribute('body', 'data-state') };
          };
          await visitor.goto(`${base}${link.pathname}${link.search}`, { waitUntil: 'domcontentloaded' });
          const shared = await state();
          expect(shared.state).toBe('ready');
          expect(shared.lighting).toBe('dramatic');
          expect(shared.embed).toContain(`src="${link.href}"`);
          // An explicit preset in the link still wins.
          await visitor.goto(`${base}${link.pathname}${link.search}&lighting=softbox`, { waitUntil: 'domcontentloaded' });
          expect((await state()).lighting).toBe('softbox');
          // A template's model (no share link): the snippet says a link is needed.
          await visitor.goto(`${base}/viewer?model=${encodeURIComponent('/templates/mailer-box/model')}`, {
            waitUntil: 'domcontentloaded',
          });
          const unshared = await state();
          expect(unshared.lighting).toBe('studio');
          expect(unshared.embed).not.toContain('<iframe');
          expect(unshared.embed).toContain('share link');
        } finally {
          await context.close();
        }
      },
    );

    it("without a link or a login, the project's model asks for the owner's sign-in", async () => {
      const seen = await visit(`/viewer?model=${modelParam()}`);
      expect(seen.state).toBe('error');
      expect(seen.status).toBe("This model needs its owner's sign-in: ask for a share link.");
    });
  });

  describe('lighting, finishes, fold and controls', () => {
    const PRESETS = ['studio', 'softbox', 'dramatic', 'outdoor'];

    beforeAll(async () => {
      // Six more designs than the free plan holds; a smaller page keeps software WebGL quick.
      await app.db.prisma.user.update({ where: { id: owner.id }, data: { plan: 'pro' } });
      await page.setViewportSize({ width: 400, height: 300 });
    });
    afterAll(async () => {
      await page.setViewportSize({ width: 640, height: 480 });
    });

    async function project(name: string, artworkJson: object, templateId = 'mailer-box'): Promise<string> {
      const template = TEMPLATES.find((candidate) => candidate.id === templateId)!;
      const created = await app.inject({
        method: 'POST',
        url: '/projects',
        headers: owner.auth,
        payload: { name, templateId, ...template.defaultDimensions, artworkJson },
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<{ project: { id: string } }>().project.id;
    }

    async function open(query: string): Promise<void> {
      await page.goto(`${base}/viewer?${query}`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 150_000 });
      expect(await page.getAttribute('body', 'data-state'), (await page.textContent('#status')) ?? '').toBe('ready');
    }

    const call = <T>(script: string) =>
      page.evaluate(`(() => { const viewer = window.packagingViewer; return ${script}; })()`) as Promise<T>;

    /** Mean luminance (0–255), its maximum and its spread in a square around a node's centre. */
    async function faceLight(node: string, half = 12): Promise<{ mean: number; max: number; spread: number }> {
      const at = await call<{ x: number; y: number } | null>(`viewer.screenPositionOf(${JSON.stringify(node)})`);
      expect(at, node).not.toBeNull();
      const image = decodePng(await page.screenshot({ type: 'png' }));
      let sum = 0;
      let squares = 0;
      let max = 0;
      let count = 0;
      for (let y = Math.round(at!.y) - half; y <= Math.round(at!.y) + half; y++) {
        for (let x = Math.round(at!.x) - half; x <= Math.round(at!.x) + half; x++) {
          const [r, g, b] = image.pixel(x, y);
          const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
          sum += luminance;
          squares += luminance * luminance;
          max = Math.max(max, luminance);
          count++;
        }
      }
      const mean = sum / count;
      return { mean, max, spread: Math.sqrt(Math.max(0, squares / count - mean * mean)) };
    }

    it('foil and metal are never black: every preset lights them through the room environment', async () => {
      const foil = await project('Foil mailer', { background: { kind: 'color', value: '#c0c0c0' }, finish: 'foil', material: 'cardboard' });
      await open(`model=${encodeURIComponent(`/projects/${foil}/model?textureSize=512`)}`);
      for (const preset of PRESETS) {
        await call(`viewer.setLighting(${JSON.stringify(preset)})`);
        const { mean } = await faceLight('front');
        expect(mean, `foil front under ${preset}`).toBeGreaterThan(35);
      }
      await open(`model=${encodeURIComponent('/templates/beverage-can/model?material=aluminum&finish=gloss')}`);
      for (const preset of PRESETS) {
        await call(`viewer.setLighting(${JSON.stringify(preset)})`);
        const { mean } = await faceLight('label', 10);
        expect(mean, `aluminium can under ${preset}`).toBeGreaterThan(35);
      }
    });

    it('gloss and matte faces of the same colour differ in their specular highlight', async () => {
      const design = (finish: string) => ({ background: { kind: 'color', value: '#3a5f8a' }, finish, material: 'cardboard' });
      const gloss = await project('Gloss mailer', design('gloss'));
      const matte = await project('Matte mailer', design('matte'));
      const lights: Record<string, { mean: number; max: number; spread: number }> = {};
      for (const [name, id] of [
        ['gloss', gloss],
        ['matte', matte],
      ] as const) {
        // A dark background, so the brightest pixels near the lid are the lid's own highlight.
        await open(`model=${encodeURIComponent(`/projects/${id}/model?textureSize=512`)}&lighting=studio&background=%23202020`);
        lights[name] = await faceLight('lid', 10);
      }
      // The clear-coated gloss mirrors the room's bright ceiling on the lid (seen from above at a
      // grazing angle); matte scatters it: the same blue reads measurably brighter in gloss.
      expect(lights.gloss!.mean - lights.matte!.mean, JSON.stringify(lights)).toBeGreaterThan(6);
    });

    it('under the studio preset a gold foil logo shines brighter than the print around it', async () => {
      const disc = await uploadAsset(app, owner, await sharp(Buffer.from(DISC_SVG)).png().toBuffer(), {
        filename: 'disc.png',
        contentType: 'image/png',
      });
      const logo = { ...artwork('logo', 'lid', `/files/${disc.name}`, { scale: 0.5 }) };
      const design = (effect?: string) => ({
        background: { kind: 'color', value: '#2f4f6f' },
        finish: 'matte',
        material: 'cardboard',
        artworks: [effect ? { ...logo, effect } : logo],
      });
      const shots: Record<string, DecodedPng> = {};
      for (const [name, effect] of [
        ['printed', undefined],
        ['foil', 'foil-gold'],
      ] as const) {
        const id = await project(`Logo ${name}`, design(effect));
        await open(`model=${encodeURIComponent(`/projects/${id}/model?textureSize=1024`)}&lighting=studio&background=%23202020`);
        shots[name] = decodePng(await page.screenshot({ type: 'png' }));
        writeFileSync(new URL(`foil-${name}.png`, ARTIFACTS), Buffer.from(await page.screenshot({ type: 'png' })));
      }
      const lid = await call<{ x: number; y: number }>('viewer.screenPositionOf("lid")');
      const luminance = (image: DecodedPng, x: number, y: number) => {
        const [r, g, b] = image.pixel(x, y);
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      // The logo is printed in the lid's own blue: it is where the two screenshots differ, and the
      // print around it is the rest of the lid, unchanged and blue in both.
      const foil: number[] = [];
      const around: number[] = [];
      const { printed, foil: shining } = shots as { printed: DecodedPng; foil: DecodedPng };
      const half = 70;
      for (let y = Math.round(lid.y) - half; y <= Math.round(lid.y) + half; y++) {
        for (let x = Math.round(lid.x) - half; x <= Math.round(lid.x) + half; x++) {
          if (x < 0 || y < 0 || x >= printed.width || y >= printed.height) continue;
          const [r, , b] = printed.pixel(x, y);
          const changed = Math.abs(luminance(shining, x, y) - luminance(printed, x, y)) > 12;
          if (changed) foil.push(luminance(shining, x, y));
          else if (b! > r! + 15) around.push(luminance(shining, x, y));
        }
      }
      const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      expect(foil.length, 'foil pixels on screen').toBeGreaterThan(200);
      expect(around.length, 'printed lid pixels around the foil').toBeGreaterThan(200);
      expect(mean(foil) - mean(around), `foil ${mean(foil).toFixed(1)} against print ${mean(around).toFixed(1)}`).toBeGreaterThan(15);
    });

    it('the fold slider goes from the flat blank to the closed box, and play ends closed', async () => {
      await open(`model=${modelParam()}`);
      expect(await call<boolean>('viewer.hasFold')).toBe(true);
      expect(await page.isVisible('#foldSlider')).toBe(true);
      const closed = decodePng(await page.screenshot({ type: 'png' }));
      await page.fill('#foldSlider', '500');
      await page.dispatchEvent('#foldSlider', 'input');
      expect(await call<number>('viewer.fold')).toBeCloseTo(0.5, 2);
      const half = decodePng(await page.screenshot({ type: 'png' }));
      writeFileSync(new URL('fold-half.png', ARTIFACTS), Buffer.from(await page.screenshot({ type: 'png' })));
      let difference = 0;
      for (let k = 0; k < closed.pixels.length; k++) difference += Math.abs(closed.pixels[k]! - half.pixels[k]!);
      expect(difference / closed.pixels.length, 'half-folded differs from closed').toBeGreaterThan(2);
      await page.click('#foldPlay');
      for (let waited = 0; (await call<number>('viewer.fold')) < 1; waited += 100) {
        expect(waited, 'the fold plays to the end').toBeLessThan(60_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const again = decodePng(await page.screenshot({ type: 'png' }));
      let back = 0;
      for (let k = 0; k < closed.pixels.length; k++) back += Math.abs(closed.pixels[k]! - again.pixels[k]!);
      expect(back / closed.pixels.length, 'played to the end, the box is closed again').toBeLessThan(1);
    });

    it('preset buttons, keyboard, zoom limits, reset view, dimensions, screenshot and embed snippet', async () => {
      await open(`model=${modelParam()}`);
      const mailer = TEMPLATES.find((template) => template.id === 'mailer-box')!;
      const dims = await call<{ width: number; height: number; depth: number }>('viewer.dimensionsMm');
      // Outside size: the inside dimensions plus the board, within a few calipers.
      expect(dims.width).toBeGreaterThanOrEqual(mailer.defaultDimensions.widthMm);
      expect(dims.width).toBeLessThan(mailer.defaultDimensions.widthMm + 25);
      expect(dims.height).toBeGreaterThanOrEqual(mailer.defaultDimensions.heightMm);
      expect(await page.textContent('#dimensions')).toBe(`${dims.width} × ${dims.depth} × ${dims.height} mm`);

      await page.click('button[data-preset="dramatic"]');
      expect(await call<string>('viewer.lighting')).toBe('dramatic');
      expect(await page.getAttribute('button[data-preset="dramatic"]', 'aria-pressed')).toBe('true');
      await page.focus('#viewer');
      await page.keyboard.press('2');
      expect(await call<string>('viewer.lighting')).toBe('softbox');

      const home = decodePng(await page.screenshot({ type: 'png' }));
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      const turned = decodePng(await page.screenshot({ type: 'png' }));
      let moved = 0;
      for (let k = 0; k < home.pixels.length; k++) moved += Math.abs(home.pixels[k]! - turned.pixels[k]!);
      expect(moved / home.pixels.length, 'arrow keys turn the view').toBeGreaterThan(1);
      const start = await call<number>('viewer.cameraDistance()');
      for (let i = 0; i < 30; i++) await page.keyboard.press('-');
      const farthest = await call<number>('viewer.cameraDistance()');
      expect(farthest).toBeLessThanOrEqual(start * 3 + 1e-6);
      for (let i = 0; i < 40; i++) await page.keyboard.press('+');
      const nearest = await call<number>('viewer.cameraDistance()');
      expect(nearest).toBeGreaterThanOrEqual(start * 0.35 - 1e-6);
      await page.click('#reset');
      expect(await call<number>('viewer.cameraDistance()')).toBeCloseTo(start, 6);
      const reset = decodePng(await page.screenshot({ type: 'png' }));
      let drift = 0;
      for (let k = 0; k < home.pixels.length; k++) drift += Math.abs(home.pixels[k]! - reset.pixels[k]!);
      expect(drift / home.pixels.length, 'reset view restores the first view').toBeLessThan(0.5);

      const opaque = decodePng(Buffer.from((await call<string>('viewer.screenshot(false)')).split(',')[1]!, 'base64'));
      const transparent = decodePng(Buffer.from((await call<string>('viewer.screenshot(true)')).split(',')[1]!, 'base64'));
      expect(opaque.pixel(2, 2)[3]).toBe(255);
      expect(transparent.pixel(2, 2)[3]).toBe(0);
      const front = await call<{ x: number; y: number }>('viewer.screenPositionOf("front")');
      expect(transparent.pixel(Math.round(front.x), Math.round(front.y))[3]).toBe(255);
      // 2× and 4×: the same view drawn at twice and four times the canvas's pixels, the page unchanged after.
      for (const scale of [2, 4]) {
        const large = decodePng(Buffer.from((await call<string>(`viewer.screenshot(false, ${scale})`)).split(',')[1]!, 'base64'));
        expect([large.width, large.height]).toEqual([opaque.width * scale, opaque.height * scale]);
        const [r, g, b] = large.pixel(Math.round(front.x * scale), Math.round(front.y * scale));
        const [r1, g1, b1] = opaque.pixel(Math.round(front.x), Math.round(front.y));
        expect(Math.abs(r - r1) + Math.abs(g - g1) + Math.abs(b - b1), 'the front face keeps its colour').toBeLessThan(30);
      }
      const after = decodePng(Buffer.from((await call<string>('viewer.screenshot(false)')).split(',')[1]!, 'base64'));
      expect([after.width, after.height]).toEqual([opaque.width, opaque.height]);
      const sizes = await page.$$eval('#scale option', (options) => options.map((option) => option.getAttribute('value')));
      expect(sizes).toEqual(['1', '2', '4']);

      await page.click('#embedToggle');
      const snippet = await page.inputValue('#embedCode');
      // Opened on ?model= (the owner's sign-in): no iframe that would ask visitors to sign in.
      expect(snippet).not.toContain('<iframe');
      expect(snippet).toContain('share link');
    });

    it('controls=none shows the model alone (mockups, clean embeds)', async () => {
      await open(`model=${modelParam()}&controls=none`);
      expect(await page.isVisible('#toolbar')).toBe(false);
      expect(await page.textContent('#dimensions')).toBe('');
      expect(await call<boolean>('viewer.hasFold')).toBe(true);
    });

    it('fits a 375 px wide phone: every control inside the viewport', async () => {
      const phone = await browser.newPage({ viewport: { width: 375, height: 667 }, deviceScaleFactor: 1 });
      try {
        await phone.setExtraHTTPHeaders(owner.auth);
        phone.setDefaultTimeout(150_000);
        await phone.goto(`${base}/viewer?model=${modelParam()}`, { waitUntil: 'domcontentloaded' });
        await phone.waitForSelector('body[data-state="ready"]', { timeout: 150_000 });
        for (const selector of [
          'button[data-preset="studio"]',
          'button[data-preset="outdoor"]',
          '#foldSlider',
          '#reset',
          '#screenshot',
          '#embedToggle',
        ]) {
          const box = await phone.locator(selector).boundingBox();
          expect(box, selector).not.toBeNull();
          expect(box!.x, selector).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width, selector).toBeLessThanOrEqual(375);
          expect(box!.y + box!.height, selector).toBeLessThanOrEqual(667);
        }
      } finally {
        await phone.close();
      }
    });
  });
});
