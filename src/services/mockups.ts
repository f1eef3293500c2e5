// Mockups: a project's model photographed by the viewer page in headless chromium (playwright-core).
// Only built when MOCKUP_ENABLED is set. The browser starts on the first render and holds at most
// `pages` pages, each in its own context, shared fairly by account like the render pools
// (lib/fair-limiter.ts): one render of an account at a time, the accounts in turn, at most
// `accountQueue` of an account and `queue` in all waiting; beyond that the answer is 503 with
// Retry-After. Each render has a budget (page load, model, screenshot); past it
// the answer is 503 and the page is thrown away. The pages never touch the network: every request
// they make is answered from memory (the viewer's built files, the model's bytes) or aborted.
import { LRUCache } from 'lru-cache';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import type { MockupTarget } from '../config.js';
import { HttpError, MESSAGES } from '../errors.js';
import { createFairLimiter } from '../lib/fair-limiter.js';
import type { Project } from '../repositories/projects.js';
import { MOCKUP_DEFAULT_HEIGHT, MOCKUP_DEFAULT_WIDTH, type MockupAngle, type MockupQuery } from '../schemas/mockups.js';
import { strongEtag } from '../lib/entity-tags.js';
import { savedLighting, type Lighting, type ModelService } from './models.js';
import type { Conditional } from './print.js';
import { viewerCsp, type ViewerFiles } from './viewer-files.js';

/** The pages' own origin: never resolved, every request to it is answered by the route handler. */
const ORIGIN = 'http://mockup.invalid';
const MODEL_PATH = '/model.glb';
/** Bump when the render changes for the same inputs (the ETags change with it). */
const RENDERER_VERSION = 2;
/** The print texture on the model: sharp at 2048 px even in the largest mockup. */
const TEXTURE_PX = 2048;
export const MOCKUP_CACHE_ENTRIES = 32;
export const MOCKUP_CACHE_BYTES = 64 * 1024 * 1024;

/** Headless, no sandbox (containers run it unprivileged), WebGL through SwiftShader, nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** What one mockup shows: its size in pixels, the lighting preset and the camera's angle. */
interface Shot {
  width: number;
  height: number;
  lighting: Lighting;
  angle: MockupAngle;
}

interface PageSlot {
  context: BrowserContext;
  page: Page;
  /** The GLB the page's next model request gets. */
  model: Buffer | null;
}

export function createMockupService(target: MockupTarget, models: ModelService, viewer: ViewerFiles, accountQueue: number) {
  const limit = createFairLimiter({
    slots: target.pages,
    queue: target.queue,
    accountQueue,
    busy: () => new HttpError(503, MESSAGES.mockupBusy),
  });
  const cache = new LRUCache<string, Buffer>({
    max: MOCKUP_CACHE_ENTRIES,
    maxSize: MOCKUP_CACHE_BYTES,
    sizeCalculation: (png) => png.length,
  });
  let inFlight = 0;
  let closed = false;
  let browser: Promise<Browser> | null = null;
  const idle: PageSlot[] = [];

  function launch(): Promise<Browser> {
    if (browser) return browser;
    const launching = import('playwright-core').then(({ chromium }) =>
      chromium.launch({ executablePath: target.chromiumPath, args: CHROMIUM_ARGS, timeout: target.timeoutMs }),
    );
    browser = launching;
    // A crashed or failed browser is started afresh by the next render.
    const forget = () => {
      if (browser !== launching) return;
      browser = null;
      idle.length = 0;
    };
    launching.then((started) => started.on('disconnected', forget), forget);
    return launching;
  }

  async function serve(route: Route, slot: PageSlot): Promise<void> {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort('blockedbyclient');
    try {
      if (url.pathname === '/viewer') {
        const page = await viewer.load('index.html');
        return await route.fulfill({
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': viewerCsp(page.body.toString('utf8')) },
          body: page.body,
        });
      }
      if (url.pathname === '/viewer/viewer.js') {
        return await route.fulfill({
          status: 200,
          contentType: 'text/javascript; charset=utf-8',
          body: (await viewer.load('viewer.js')).body,
        });
      }
      if (url.pathname === MODEL_PATH && slot.model) {
        return await route.fulfill({ status: 200, contentType: 'model/gltf-binary', body: slot.model });
      }
    } catch {
      // The viewer build vanished: the page reports an error and the render fails.
    }
    return route.abort('blockedbyclient');
  }

  async function openSlot(): Promise<PageSlot> {
    const context = await (await launch()).newContext({
      viewport: { width: MOCKUP_DEFAULT_WIDTH, height: MOCKUP_DEFAULT_HEIGHT },
      deviceScaleFactor: 1,
      serviceWorkers: 'block',
    });
    const slot: PageSlot = { context, page: await context.newPage(), model: null };
    await context.route('**/*', (route) => serve(route, slot));
    return slot;
  }

  function discard(slot: PageSlot): void {
    slot.context.close().catch(() => undefined);
  }

  async function draw(slot: PageSlot, model: Buffer, shot: Shot): Promise<Buffer> {
    const { page } = slot;
    const timeout = target.timeoutMs;
    slot.model = model;
    await page.setViewportSize({ width: shot.width, height: shot.height });
    const query = `model=${encodeURIComponent(MODEL_PATH)}&lighting=${shot.lighting}&angle=${shot.angle}&controls=none`;
    await page.goto(`${ORIGIN}/viewer?${query}`, { waitUntil: 'domcontentloaded', timeout });
    await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { timeout });
    if ((await page.getAttribute('body', 'data-state')) !== 'ready') {
      throw new Error(`The viewer could not show the model: ${(await page.textContent('#status')) ?? ''}`);
    }
    // The frame the viewer drew, read back from its canvas (kept by preserveDrawingBuffer): no
    // second render and no page compositing, which at 4096 px costs more than the render.
    const dataUrl = await page.evaluate<string>("document.getElementById('viewer').toDataURL('image/png')");
    return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  }

  /** One render on a pooled page, within the budget; a page that overran or failed is thrown away. */
  async function render(account: string, model: Buffer, shot: Shot): Promise<Buffer> {
    if (closed) throw new HttpError(503, MESSAGES.mockupBusy);
    inFlight++;
    try {
      return await limit(account, async () => {
        let slot = idle.pop();
        const work = (async () => {
          slot ??= await openSlot();
          return draw(slot, model, shot);
        })();
        let timer: NodeJS.Timeout | undefined;
        const overrun = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new HttpError(503, MESSAGES.mockupTimeout)), target.timeoutMs);
        });
        try {
          const png = await Promise.race([work, overrun]);
          slot!.model = null;
          if (closed) discard(slot!);
          else idle.push(slot!);
          return png;
        } catch (error) {
          // Closing the context ends whatever the page was still doing.
          if (slot) discard(slot);
          else work.then(() => slot && discard(slot), () => slot && discard(slot));
          throw error;
        } finally {
          clearTimeout(timer);
        }
      });
    } finally {
      inFlight--;
    }
  }

  return {
    /**
     * GET /projects/:id/mockup. The ETag comes from the model's (itself a hash of the GLB), the
     * viewer build and the query, so a 304 costs the model (usually cached), never a render.
     */
    async forProject(project: Project, query: MockupQuery): Promise<Conditional<Buffer>> {
      const [model, page, script] = await Promise.all([
        models.forProject(project, { textureSize: TEXTURE_PX }),
        viewer.load('index.html'),
        viewer.load('viewer.js'),
      ]);
      const width = query.width ?? MOCKUP_DEFAULT_WIDTH;
      const height = query.height ?? MOCKUP_DEFAULT_HEIGHT;
      const lighting = query.lighting ?? savedLighting(project.artworkJson) ?? 'studio';
      const shot: Shot = { width, height, lighting, angle: query.angle ?? 'three-quarter' };
      const etag = strongEtag(JSON.stringify([RENDERER_VERSION, model.etag, page.etag, script.etag, shot]));
      return {
        etag,
        render: async () => {
          const cached = cache.get(etag);
          if (cached) return cached;
          // A shared link's mockup renders for the project's owner, as its model does.
          const png = await render(project.userId, model.body, shot);
          cache.set(etag, png);
          return png;
        },
      };
    },

    /** Renders running and waiting (for metrics and tests). */
    stats: () => ({ inFlight, ...limit.stats(), idlePages: idle.length }),

    /** Closes the browser (app close); renders still running fail. */
    async close(): Promise<void> {
      closed = true;
      const running = browser;
      browser = null;
      idle.length = 0;
      const started = await running?.catch(() => null);
      await started?.close().catch(() => undefined);
    },
  };
}
