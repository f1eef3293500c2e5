// The viewer in a real browser: Debian's chromium, headless, WebGL through SwiftShader, driven by
// playwright-core against the app listening on a real port. Screenshots land in test-artifacts/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { CHROMIUM_ARGS } from '../../src/services/mockups.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { decodePng, type DecodedPng } from '../helpers/png.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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
    expect(await page.getAttribute('body', 'data-state'), await page.textContent('#status') ?? '').toBe('ready');
    const shot = await page.screenshot({ type: 'png', timeout: 150_000 });
    writeFileSync(new URL(`${name}.png`, ARTIFACTS), shot);
    return decodePng(shot);
  }

  const modelParam = () => encodeURIComponent(`/projects/${projectId}/model?textureSize=1024`);

  it('renders the mailer box with its design on the front face over the preset background', async () => {
    const image = await show(`model=${modelParam()}&lighting=studio`, 'mailer-box-studio');
    const front = await page.evaluate(() => {
      const viewer = (globalThis as unknown as { packagingViewer: { screenPositionOf(name: string): { x: number; y: number } | null } }).packagingViewer;
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
    for (const template of TEMPLATES) {
      await show(`model=${encodeURIComponent(`/templates/${template.id}/model`)}&lighting=softbox`, `template-${template.id}`);
    }
  });

  it('refuses a model from another origin', async () => {
    await page.goto(`${base}/viewer?model=${encodeURIComponent('http://example.com/box.glb')}`);
    await page.waitForSelector('body[data-state="error"]', { timeout: 30_000 });
    expect(await page.textContent('#status')).toBe('Only same-origin model URLs can be shown.');
  });

  describe('share links', () => {
    /** A fresh context: no cookies, no headers, no token, as a visitor who only has the link. */
    async function visit(path: string): Promise<{ state: string | null; status: string | null; shot: DecodedPng; front: { x: number; y: number } | null }> {
      const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor: 1 });
      try {
        const visitor = await context.newPage();
        visitor.setDefaultTimeout(150_000);
        await visitor.goto(`${base}${path}`, { waitUntil: 'domcontentloaded' });
        await visitor.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 150_000 });
        const front = await visitor.evaluate(() => {
          const viewer = (globalThis as unknown as { packagingViewer?: { screenPositionOf(name: string): { x: number; y: number } | null } }).packagingViewer;
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
      // Over the listening port, so the link is built from the origin the browser uses.
      const created = await fetch(`${base}/projects/${projectId}/shares`, { method: 'POST', headers: owner.auth });
      expect(created.status).toBe(201);
      const { id, url } = ((await created.json()) as { share: { id: string; url: string } }).share;
      const link = new URL(url);
      expect(link.origin).toBe(base);

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

    it("without a link or a login, the project's model asks for the owner's sign-in", async () => {
      const seen = await visit(`/viewer?model=${modelParam()}`);
      expect(seen.state).toBe('error');
      expect(seen.status).toBe("This model needs its owner's sign-in: ask for a share link.");
    });
  });
});
