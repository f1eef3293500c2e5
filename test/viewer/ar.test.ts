// AR in a real browser (Debian's chromium via playwright-core): the project's USDZ read by
// three.js's own USDLoader has the glb's meshes, and the viewer offers an AR link on an iPhone
// (Quick Look: rel="ar" to the USDZ, an image inside) and on Android (a Scene Viewer intent with
// the glb), none on a desktop.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { usdName } from '../../src/models/index.js';
import { CHROMIUM_ARGS } from '../../src/services/mockups.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { createProject } from '../print/harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/**
 * The page script: both files through three.js's loaders, then per part (the glb mesh's name, the
 * USD mesh's Xform) the triangle corners of each mesh, the texture on the print and the bounds.
 */
const PAGE_SCRIPT = `
import { Box3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { USDLoader } from 'three/examples/jsm/loaders/USDLoader.js';

const corners = (mesh) => (mesh.geometry.index ? mesh.geometry.index.count : mesh.geometry.attributes.position.count);
function summary(root, partOf) {
  const parts = {};
  let textured = 0;
  root.updateMatrixWorld(true);
  root.traverse((object) => {
    if (!object.isMesh) return;
    (parts[partOf(object)] ??= []).push(corners(object));
    if (object.material.map && object.material.map.image) textured++;
  });
  for (const counts of Object.values(parts)) counts.sort((a, b) => a - b);
  const box = new Box3().setFromObject(root);
  return { parts, textured, min: box.min.toArray(), max: box.max.toArray() };
}

window.compareModels = async (glbUrl, usdzUrl) => {
  const bytes = async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(url + ': ' + response.status + ' ' + (await response.text()));
    return response.arrayBuffer();
  };
  const gltf = await new GLTFLoader().parseAsync(await bytes(glbUrl), '');
  const meshName = (mesh) => gltf.parser.json.meshes[gltf.parser.associations.get(mesh).meshes].name;
  const usdz = await bytes(usdzUrl);
  // onLoad runs once the textures are decoded.
  const usd = await new Promise((resolve, reject) => new USDLoader().parse(usdz, '', resolve, reject));
  return { glb: summary(gltf.scene, meshName), usd: summary(usd, (mesh) => mesh.parent.name) };
};
`;

interface Summary {
  parts: Record<string, number[]>;
  textured: number;
  min: [number, number, number];
  max: [number, number, number];
}

describe(`AR (${engineName()})`, { timeout: 600_000 }, () => {
  let app: App;
  let base: string;
  let browser: Browser;
  let owner: TestAccount;
  let projectId: string;
  let token: string;
  let pageScript: string;

  beforeAll(async () => {
    app = await createTestApp();
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    owner = await registerAccount(app);
    const mailer = TEMPLATES.find((template) => template.id === 'mailer-box')!;
    const design = { background: { kind: 'color', value: '#d0342c' }, finish: 'matte', material: 'kraft' };
    projectId = await createProject(app, owner, 'mailer-box', design, mailer.defaultDimensions);
    const share = await app.inject({ method: 'POST', url: `/projects/${projectId}/shares`, headers: owner.auth });
    expect(share.statusCode, share.body).toBe(201);
    token = new URL(share.json<{ share: { url: string } }>().share.url, base).searchParams.get('share')!;
    const bundled = await build({
      stdin: { contents: PAGE_SCRIPT, resolveDir: ROOT, loader: 'js' },
      bundle: true,
      format: 'iife',
      write: false,
      logLevel: 'silent',
    });
    pageScript = bundled.outputFiles[0]!.text;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function context(userAgent: string): Promise<BrowserContext> {
    const created = await browser.newContext({ userAgent, viewport: { width: 390, height: 640 }, deviceScaleFactor: 1 });
    created.setDefaultTimeout(150_000);
    return created;
  }

  it("three.js's USDLoader finds the glb's meshes in the USDZ: the same parts, meshes, triangles, print and bounds", async () => {
    const ctx = await context(DESKTOP);
    try {
      const page = await ctx.newPage();
      await page.setExtraHTTPHeaders(owner.auth);
      // A blank same-origin page to run the loaders in: the model routes are fetched from the app.
      await page.route(`${base}/usd-check.html`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>USD check</title>' }),
      );
      await page.goto(`${base}/usd-check.html`);
      await page.addScriptTag({ content: pageScript });
      const model = `/projects/${projectId}/model?textureSize=512`;
      const { glb, usd } = await page.evaluate(
        async ([glbUrl, usdzUrl]) =>
          (globalThis as unknown as { compareModels(a: string, b: string): Promise<{ glb: Summary; usd: Summary }> }).compareModels(
            glbUrl!,
            usdzUrl!,
          ),
        [model, `${model}&format=usdz`],
      );
      const glbParts = Object.fromEntries(Object.entries(glb.parts).map(([name, counts]) => [usdName(name), counts]));
      expect(Object.keys(glbParts).length).toBeGreaterThan(5);
      expect(usd.parts).toEqual(glbParts);
      expect(usd.textured).toBeGreaterThan(0);
      expect(usd.textured).toBe(glb.textured);
      for (let axis = 0; axis < 3; axis++) {
        expect(Math.abs(usd.min[axis]! - glb.min[axis]!), `min ${axis}`).toBeLessThan(1e-4);
        expect(Math.abs(usd.max[axis]! - glb.max[axis]!), `max ${axis}`).toBeLessThan(1e-4);
      }
    } finally {
      await ctx.close();
    }
  });

  /** The viewer of the share link as this phone (or desktop) sees it; the AR link's attributes. */
  async function arLinkFor(userAgent: string) {
    const ctx = await context(userAgent);
    try {
      const page = await ctx.newPage();
      await page.goto(`${base}/viewer?share=${token}`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout: 150_000 });
      expect(await page.getAttribute('body', 'data-state'), (await page.textContent('#status')) ?? '').toBe('ready');
      return {
        visible: await page.isVisible('#ar'),
        rel: await page.getAttribute('#ar', 'rel'),
        href: await page.getAttribute('#ar', 'href'),
        child: (await page.locator('#ar > img:first-child').count()) === 1 ? 'IMG' : null,
        children: await page.locator('#ar > *').count(),
      };
    } finally {
      await ctx.close();
    }
  }

  it('an iPhone gets a Quick Look link to the USDZ with an image inside', async () => {
    const link = await arLinkFor(IPHONE);
    expect(link).toEqual({
      visible: true,
      rel: 'ar',
      href: `${base}/shared/${token}/model?format=usdz`,
      child: 'IMG',
      children: 1,
    });
    const usdzUrl = new URL(link.href!);
    const usdz = await app.inject({ method: 'GET', url: usdzUrl.pathname + usdzUrl.search });
    expect(usdz.statusCode).toBe(200);
    expect(usdz.headers['content-type']).toBe('model/vnd.usdz+zip');
  });

  it('an Android phone gets a Scene Viewer intent with the absolute glb URL; a desktop gets no AR link', async () => {
    const link = await arLinkFor(ANDROID);
    const glb = `${base}/shared/${token}/model`;
    const fallback = `${base}/viewer?share=${token}`;
    expect(link.visible).toBe(true);
    expect(link.rel).toBeNull();
    expect(link.href).toBe(
      `intent://arvr.google.com/scene-viewer/1.0?file=${encodeURIComponent(glb)}&mode=ar_preferred` +
        '#Intent;scheme=https;package=com.google.ar.core;action=android.intent.action.VIEW;' +
        `S.browser_fallback_url=${encodeURIComponent(fallback)};end;`,
    );
    expect((await app.inject({ method: 'GET', url: `/shared/${token}/model` })).headers['content-type']).toBe('model/gltf-binary');

    const desktop = await arLinkFor(DESKTOP);
    expect(desktop.visible).toBe(false);
    expect(desktop.rel).toBeNull();
  });
});
