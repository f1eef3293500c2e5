// GET /projects/:id/mockup: the optional PNG mockup, rendered by the viewer page in a pool of
// headless chromium pages (Debian's chromium, SwiftShader). With MOCKUP_ENABLED unset the route
// does not exist. Mockups are kept under test-artifacts/viewer/ like the browser test's screenshots.
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { decodePng } from '../helpers/png.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = new URL('../../test-artifacts/viewer/', import.meta.url);
const ETAG = /^"[A-Za-z0-9_-]{27}"$/;

async function createProject(app: App, account: TestAccount, templateId: string, artworkJson: Record<string, unknown>): Promise<string> {
  const template = TEMPLATES.find((t) => t.id === templateId)!;
  const created = await app.inject({
    method: 'POST',
    url: '/projects',
    headers: account.auth,
    payload: { name: `Mockup ${templateId}`, templateId, ...template.defaultDimensions, artworkJson },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ project: { id: string } }>().project.id;
}

describe(`project mockups in chromium (${engineName()})`, { timeout: 600_000 }, () => {
  let app: App;
  let owner: TestAccount;
  let projectId: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // One page and no queue, so the second concurrent render is refused; a budget for a busy machine.
    app = await createTestApp({
      MOCKUP_ENABLED: 'true',
      MOCKUP_PAGES: '1',
      MOCKUP_QUEUE: '0',
      MOCKUP_TIMEOUT_MS: '300000',
      CHROMIUM_PATH: CHROMIUM,
    });
    owner = await registerAccount(app);
    // A tall carton: the ray through the image centre meets its front (+Z) face.
    projectId = await createProject(app, owner, 'reverse-tuck-carton', {
      background: { kind: 'color', value: '#d0342c' },
      finish: 'matte',
      lighting: 'studio',
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, headers: Record<string, string> = owner.auth) => app.inject({ method: 'GET', url, headers });

  it('photographs the project: the design colour on the front face over the preset background', async () => {
    const response = await get(`/projects/${projectId}/mockup?width=640&height=480`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.etag).toMatch(ETAG);
    writeFileSync(new URL('mockup-carton-studio.png', ARTIFACTS), response.rawPayload);
    const image = decodePng(response.rawPayload);
    expect([image.width, image.height]).toEqual([640, 480]);
    // The project's lighting (studio) and its background in the corners.
    expect(image.pixel(3, 3).slice(0, 3)).toEqual([0xec, 0xee, 0xf1]);
    expect(image.pixel(636, 476).slice(0, 3)).toEqual([0xec, 0xee, 0xf1]);
    // The front face at the centre keeps the design's hue (#d0342c): red well above green and blue.
    const [r, g, b] = image.pixel(320, 240);
    expect(r, `centre ${r},${g},${b}`).toBeGreaterThan(120);
    expect(r).toBeGreaterThan(2 * g);
    expect(r).toBeGreaterThan(2 * b);

    const again = await get(`/projects/${projectId}/mockup?width=640&height=480`, {
      ...owner.auth,
      'if-none-match': response.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('takes the lighting preset from the query', async () => {
    const response = await get(`/projects/${projectId}/mockup?width=256&height=256&lighting=outdoor`);
    expect(response.statusCode, response.body).toBe(200);
    writeFileSync(new URL('mockup-carton-outdoor.png', ARTIFACTS), response.rawPayload);
    const image = decodePng(response.rawPayload);
    expect([image.width, image.height]).toEqual([256, 256]);
    expect(image.pixel(2, 2).slice(0, 3)).toEqual([0xbc, 0xd8, 0xf0]);
  });

  it('photographs the model from five angles, each a different picture', async () => {
    const shots = new Map<string, ReturnType<typeof decodePng>>();
    for (const angle of ['front', 'three-quarter', 'top', 'bottom', 'back']) {
      const response = await get(`/projects/${projectId}/mockup?width=256&height=256&angle=${angle}`);
      expect(response.statusCode, response.body).toBe(200);
      writeFileSync(new URL(`mockup-carton-${angle}.png`, ARTIFACTS), response.rawPayload);
      shots.set(angle, decodePng(response.rawPayload));
    }
    // The default is the three-quarter view: the same bytes as without `angle`.
    const unnamed = await get(`/projects/${projectId}/mockup?width=256&height=256`);
    expect(decodePng(unnamed.rawPayload).pixels).toEqual(shots.get('three-quarter')!.pixels);
    const names = [...shots.keys()];
    for (const [i, a] of names.entries()) {
      for (const b of names.slice(i + 1)) {
        const [one, other] = [shots.get(a)!, shots.get(b)!];
        let difference = 0;
        for (let k = 0; k < one.pixels.length; k++) difference += Math.abs(one.pixels[k]! - other.pixels[k]!);
        expect(difference / one.pixels.length, `${a} and ${b}`).toBeGreaterThan(1);
      }
    }
    // From the front the red front face fills the centre.
    const [r, g] = shots.get('front')!.pixel(128, 128);
    expect(r).toBeGreaterThan(2 * g);
  });

  it('renders up to 4096 × 4096 pixels', async () => {
    const response = await get(`/projects/${projectId}/mockup?width=4096&height=4096&angle=front`);
    expect(response.statusCode, response.body).toBe(200);
    const image = decodePng(response.rawPayload);
    expect([image.width, image.height]).toEqual([4096, 4096]);
    const [r, g, b] = image.pixel(2048, 2048);
    expect(r).toBeGreaterThan(2 * g);
    expect(r).toBeGreaterThan(2 * b);
  });

  it('answers 503 with Retry-After when every page is busy and the queue is full', async () => {
    const first = get(`/projects/${projectId}/mockup?width=300&height=300&lighting=dramatic`);
    // Wait until the first render holds the only page (a condition, not a time).
    while (app.services.mockups!.stats().inFlight === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = await get(`/projects/${projectId}/mockup?width=320&height=320`);
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Too many mockups are being rendered; retry in a few seconds.',
    });
    expect(refused.headers['retry-after']).toBe('5');
    expect((await first).statusCode).toBe(200);
  });

  it('bounds the size, needs the JWT and the caller’s own project', async () => {
    for (const query of ['width=255', 'width=4097', 'height=100', 'height=4097', 'lighting=disco', 'format=jpeg']) {
      expect((await get(`/projects/${projectId}/mockup?${query}`)).statusCode, query).toBe(400);
    }
    const angle = await get(`/projects/${projectId}/mockup?angle=side`);
    expect(angle.statusCode).toBe(400);
    expect(angle.json().message).toContain('angle');
    expect((await get(`/projects/${projectId}/mockup`, {})).statusCode).toBe(401);
    const stranger = await registerAccount(app);
    expect((await get(`/projects/${projectId}/mockup`, stranger.auth)).statusCode).toBe(404);
  });

  it('is documented in the OpenAPI document when enabled', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
    }>();
    expect(Object.keys(document.paths['/projects/{id}/mockup']!.get!.responses).sort()).toEqual(
      ['200', '304', '400', '401', '404', '503', 'default'].sort(),
    );
  });
});

describe(`mockups shared fairly by account (${engineName()})`, { timeout: 600_000 }, () => {
  let app: App;

  beforeAll(async () => {
    // One page, two renders of an account waiting at most: the third waiting is refused.
    app = await createTestApp({
      MOCKUP_ENABLED: 'true',
      MOCKUP_PAGES: '1',
      MOCKUP_QUEUE: '4',
      RENDER_ACCOUNT_QUEUE: '2',
      MOCKUP_TIMEOUT_MS: '300000',
      CHROMIUM_PATH: CHROMIUM,
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it('one account runs one mockup at a time, its others wait behind another account, ' +
    'and past RENDER_ACCOUNT_QUEUE waiting the next is 503', async () => {
    const [busy, other] = [await registerAccount(app), await registerAccount(app)];
    const busyProject = await createProject(app, busy, 'reverse-tuck-carton', { background: { kind: 'color', value: '#2255aa' } });
    const otherProject = await createProject(app, other, 'reverse-tuck-carton', { background: { kind: 'color', value: '#aa5522' } });
    const finished: string[] = [];
    const mockup = async (account: TestAccount, projectId: string, label: string, side: number) => {
      const url = `/projects/${projectId}/mockup?width=${side}&height=${side}`;
      const answer = await app.inject({ method: 'GET', url, headers: account.auth });
      if (answer.statusCode === 200) finished.push(label);
      return answer;
    };
    // Both models are built first (the model cache keeps them): the other account's request then
    // reaches the queue in milliseconds, while the busy account's first mockup is still being drawn.
    for (const [account, projectId] of [[busy, busyProject], [other, otherProject]] as const) {
      const warm = await app.inject({ method: 'GET', url: `/projects/${projectId}/mockup?width=280&height=280`, headers: account.auth });
      expect(warm.statusCode).toBe(200);
    }
    // Distinct sizes: none is answered from the cache.
    const burst = [300, 310, 320, 330].map((side) => mockup(busy, busyProject, 'busy', side));
    while (app.services.mockups!.stats().waiting < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = mockup(other, otherProject, 'other', 300);
    const answers = await Promise.all([...burst, second]);

    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.statusCode).toBe(503);
    expect(refused[0]!.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Too many mockups are being rendered; retry in a few seconds.',
    });
    expect(refused[0]!.headers['retry-after']).toBe('5');
    // The other account's mockup is taken before the busy account's second.
    expect(finished).toEqual(['busy', 'other', 'busy', 'busy']);
  });
});

describe(`project mockups switched off (${engineName()})`, () => {
  it('answers 404 like any unknown route and is not in the OpenAPI document', async () => {
    const app = await createTestApp();
    try {
      const owner = await registerAccount(app);
      const id = await createProject(app, owner, 'mailer-box', {});
      const response = await app.inject({ method: 'GET', url: `/projects/${id}/mockup`, headers: owner.auth });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: `Route GET /projects/${id}/mockup not found.` });
      expect(app.services.mockups).toBeNull();
      const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>();
      expect(document.paths['/projects/{id}/mockup']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
