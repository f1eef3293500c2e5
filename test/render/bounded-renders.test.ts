// Every render has a deadline enforced by killing its child process, stops when the client goes
// away, and never holds up another account's request: proven through HTTP on the real app with
// the SVGs of the adversarial review, an SVG the filter check lets through but librsvg cannot
// finish, and a project whose image is such an SVG.
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { filePart, multipartBody, type MultipartBody } from '../helpers/multipart.js';
import { connect, requestHead } from '../helpers/raw-http.js';
import { registerProAccount } from '../projects/fixtures.js';
import { blurMorphologyBomb, dashedCircles, modestFilterSvg, translucentCircles, turbulenceBomb } from '../../fixtures/svg-bombs.js';
import { getTemplate } from '../../src/catalog/index.js';
import { loadConfig } from '../../src/config.js';
import { placeDesign, type DesignState, type ResolvedAsset } from '../../src/print/index.js';
import { printGeometry } from '../../src/services/print-geometry.js';

/** Ten levels of ten `use` of the level below: 2 KB of markup, 10¹⁰ shapes once expanded. */
function nestedUse(): string {
  let svg =
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
      'width="100" height="100"><defs><rect id="l0" width="1" height="1"/>';
  for (let level = 1; level <= 10; level++) svg += `<g id="l${level}">${`<use xlink:href="#l${level - 1}"/>`.repeat(10)}</g>`;
  return `${svg}</defs><use xlink:href="#l10"/></svg>`;
}

/** The analysis deadline of this app: short, so the tests that reach it wait seconds. */
const DEADLINE_MS = 8_000;
/**
 * The print deadline: long enough for a render that leaves its image out on a loaded CI machine,
 * where a fresh child's start takes seconds. Previews and 3D textures keep their defaults.
 */
const PRINT_DEADLINE_MS = 20_000;
const { preview: PREVIEW_DEADLINE_MS, texture: TEXTURE_DEADLINE_MS } = loadConfig({}).render.timeoutsMs;
/** A generous bound on how long after its deadline an answer may come (a loaded CI machine). */
const SLACK_MS = 7_000;
const METRICS_TOKEN = 'render-metrics-token-0123456789';
const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };

let app: App;
let base: string;
let attacker: TestAccount;
let other: TestAccount;
let smallPng: Buffer;
let port: number;

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  /** When the answer had arrived (Date.now()). */
  at: number;
}

async function upload(account: TestAccount, data: Buffer, type: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), `upload.${type.split('/')[1]!.replace('svg+xml', 'svg')}`);
  const response = await fetch(`${base}/assets`, { method: 'POST', headers: account.auth, body: form });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown>, at: Date.now() };
}

/** Sends a request over its own socket and returns it: destroying it is a client going away. */
async function sendAndHold(account: TestAccount, method: string, target: string, body?: MultipartBody): Promise<Socket> {
  const { socket } = await connect(port);
  const headers = body ? { ...account.auth, 'content-type': body.contentType, 'content-length': body.body.length } : account.auth;
  socket.write(requestHead(method, target, headers));
  if (body) socket.write(body.body);
  return socket;
}

async function get(account: TestAccount, url: string): Promise<Answer> {
  const response = await fetch(`${base}${url}`, { headers: account.auth });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return {
    status: response.status,
    headers: response.headers,
    body: json ? JSON.parse(bytes.toString('utf8')) : { bytes: bytes.length },
    at: Date.now(),
  };
}

const stats = () => app.services.renderer.stats();

/** A mailer box with the named stored image on its front, at half the panel's width. */
async function createProject(account: TestAccount, imageName: string): Promise<string> {
  const response = await fetch(`${base}/projects`, {
    method: 'POST',
    headers: { ...account.auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Render test',
      templateId: 'mailer-box',
      ...MAILER,
      artworkJson: {
        artworks: [{ id: 'art-1', panelId: 'front', imageUrl: `/files/${imageName}`, offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 0 }],
      },
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { project: { id: string } }).project.id;
}

/** Waits until pool has a child running a task; returns its pid. */
async function busyChild(pool: 'analysis' | 'print'): Promise<number> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const [pid] = stats()[pool].busyPids;
    if (pid) return pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No ${pool} child became busy.`);
}

/** True once the process is gone (reaped, or a zombie the kernel has already stopped). */
const processGone = (pid: number) => {
  if (!existsSync(`/proc/${pid}`)) return true;
  try {
    return / Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, ''));
  } catch {
    return true;
  }
};

async function waitGone(pid: number, withinMs = 5_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (processGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return processGone(pid);
}

function expectApiError(answer: Answer, status: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(Object.keys(answer.body).sort()).toEqual(['error', 'message', 'statusCode']);
  if (status === 503) expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
}

async function assetCount(account: TestAccount): Promise<number> {
  return (await get(account, '/assets')).body.total as number;
}

async function killCount(pool: 'analysis' | 'print', reason: string): Promise<number> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await response.text();
  const line = text.split('\n').find((entry) => entry.startsWith(`render_kills_total{pool="${pool}",reason="${reason}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

beforeAll(async () => {
  app = await createTestApp({
    RENDER_ANALYSIS_TIMEOUT_MS: String(DEADLINE_MS),
    RENDER_PRINT_TIMEOUT_MS: String(PRINT_DEADLINE_MS),
    METRICS_TOKEN,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  attacker = await registerProAccount(app);
  other = await registerAccount(app);
  smallPng = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3366cc' } }).png().toBuffer();
}, 240_000);

afterAll(async () => {
  await app?.close();
});

describe(`bounded renders (${engineName()})`, () => {
  describe('SVG filters are bounded before anything is rasterised', () => {
    it('the 4000 × 4000 px blur (1000) and morphology (1000) bomb → 422 naming the filter, ' +
      'nothing stored; another account uploads meanwhile', async () => {
      const bomb = blurMorphologyBomb();
      expect(bomb.length).toBeLessThan(4_000);
      const [refused, accepted] = await Promise.all([upload(attacker, bomb, 'image/svg+xml'), upload(other, smallPng, 'image/png')]);
      expectApiError(refused, 422);
      expect(refused.body.message).toBe(
        'The SVG is too costly to render: feGaussianBlur stdDeviation is 1024 px at 4096 px, at most 200 px is rendered.',
      );
      expect(accepted.status).toBe(201);
      expect(await assetCount(attacker)).toBe(0);
    });

    it('the 10000 × 10000 px bomb of 400 rectangles under a ten-octave turbulence → 422', async () => {
      const refused = await upload(attacker, turbulenceBomb(), 'image/svg+xml');
      expectApiError(refused, 422);
      expect(refused.body.message).toMatch(/^The SVG is too costly to render: /);
      expect(await assetCount(attacker)).toBe(0);
    });

    it('the same bomb with ten octaves on a small canvas → 422 naming numOctaves', async () => {
      const small = Buffer.from(turbulenceBomb().toString('utf8').replace('width="10000" height="10000"', 'width="1000" height="1000"'));
      const refused = await upload(attacker, small, 'image/svg+xml');
      expectApiError(refused, 422);
      expect(refused.body.message).toBe("The SVG is too costly to render: feTurbulence numOctaves is 10, at most 4 is rendered.");
    });

    it('a deviation is measured in pixels at 4096 px: 0.5 user units in a 10-unit viewBox is a 205 px blur → 422', async () => {
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000" viewBox="0 0 10 10"><filter id="b">' +
          '<feGaussianBlur stdDeviation="0.5"/></filter><rect width="10" height="10" filter="url(#b)"/></svg>';
      const refused = await upload(attacker, Buffer.from(svg), 'image/svg+xml');
      expectApiError(refused, 422);
      expect(refused.body.message).toBe(
        'The SVG is too costly to render: feGaussianBlur stdDeviation is 205 px at 4096 px, at most 200 px is rendered.',
      );
    });

    it('a filter hidden in an entity (character references in its text) is refused before librsvg sees it', async () => {
      const svg =
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY f "&#60;filter ' +
        'id=\'m\'&#62;&#60;feMorphology radius=\'1000\'/&#62;&#60;/filter&#62;">]>' +
        '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000">&f;<rect width="2000" height="2000" filter="url(#m)"/></svg>';
      const refused = await upload(attacker, Buffer.from(svg), 'image/svg+xml');
      // The content check refuses any internal DTD subset; the filter check would refuse this entity too.
      expectApiError(refused, 415);
      expect(await assetCount(attacker)).toBe(0);
    });

    for (const [what, svg, reason] of [
      [
        'a CSS filter attribute, blur(1000px), on a 4000 px canvas',
        '<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><rect width="4000" height="4000" filter="blur(1000px)"/></svg>',
        'feGaussianBlur stdDeviation is 1024 px at 4096 px',
      ],
      [
        'a CSS filter attribute, blur(1000px), on a 9000 px canvas',
        '<svg xmlns="http://www.w3.org/2000/svg" width="9000" height="9000"><rect width="9000" height="9000" filter="blur(1000px)"/></svg>',
        'feGaussianBlur stdDeviation is 455 px at 4096 px',
      ],
      [
        'a <style> rule with the same blur',
        '<svg xmlns="http://www.w3.org/2000/svg" width="9000" height="9000"><style>' +
          'rect { filter: blur(1000px) }</style><rect width="9000" height="9000"/></svg>',
        'feGaussianBlur stdDeviation is 455 px at 4096 px',
      ],
      [
        'a fake small root in a leading comment before a 9000 px filtered root',
        '<!-- <svg width="10" height="10" viewBox="0 0 10 10"> --><svg xmlns="http://www.w3.org/2000/svg" width="9000" height="9000" ' +
          'viewBox="0 0 9000 9000"><filter id="f"><feGaussianBlur stdDeviation="90"/>' +
          '</filter><rect width="9000" height="9000" filter="url(#f)"/></svg>',
        'a filtered image of 9000 × 9000 px',
      ],
      [
        'primitiveUnits="objectBoundingBox" (a deviation of half the element)',
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><filter id="f" primitiveUnits="objectBoundingBox">' +
          '<feGaussianBlur stdDeviation="0.5"/></filter><rect width="400" height="400" filter="url(#f)"/></svg>',
        'feGaussianBlur stdDeviation is 2048 px at 4096 px',
      ],
      [
        'nested `use`, ten levels of ten (no filter)',
        nestedUse(),
        '46913580235 elements once `use` is expanded, at most 20000 are rendered',
      ],
    ] as const) {
      it(`${what} → 422 at once, nothing stored`, async () => {
        const started = Date.now();
        const refused = await upload(attacker, Buffer.from(svg), 'image/svg+xml');
        expectApiError(refused, 422);
        const message = String(refused.body.message);
        expect(message.startsWith(`The SVG is too costly to render: ${reason}`), message).toBe(true);
        expect(refused.at - started).toBeLessThan(DEADLINE_MS);
        expect(await assetCount(attacker)).toBe(0);
      });
    }

    it('a logo with a small blur uploads', async () => {
      const logo =
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80" viewBox="0 0 200 80"><filter id="s"><feGaussianBlur ' +
          'stdDeviation="2"/></filter><rect x="10" y="20" width="100" height="40" rx="6" ' +
          'fill="#246" filter="url(#s)"/><circle cx="160" cy="40" r="30" fill="#c33"/></svg>';
      const answer = await upload(other, Buffer.from(logo), 'image/svg+xml');
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    });

    it('a small SVG with a modest drop shadow and morphology uploads: 201 with its size and a thumbnail', async () => {
      const answer = await upload(other, modestFilterSvg(), 'image/svg+xml');
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const asset = answer.body.asset as { widthPx: number; heightPx: number; thumbnailUrl: string };
      expect([asset.widthPx, asset.heightPx]).toEqual([400, 300]);
      const thumbnail = await fetch(`${base}${new URL(asset.thumbnailUrl, base).pathname}`);
      expect(thumbnail.status).toBe(200);
    });
  });

  describe('the deadline, enforced by killing the child', () => {
    it('an SVG librsvg cannot finish → 503 with Retry-After at its deadline, its child killed', async () => {
      const killedBefore = await killCount('analysis', 'deadline');
      const started = Date.now();
      const slow = upload(attacker, dashedCircles(), 'image/svg+xml');
      const pid = await busyChild('analysis');

      const answer = await slow;
      expectApiError(answer, 503);
      expect(answer.body.message).toBe(`The image analysis took longer than its ${DEADLINE_MS / 1000} s limit.`);
      expect(answer.at - started).toBeLessThan(DEADLINE_MS + SLACK_MS);
      expect(await waitGone(pid), `render child ${pid} is gone`).toBe(true);
      expect(await killCount('analysis', 'deadline')).toBe(killedBefore + 1);
      expect(await assetCount(attacker)).toBe(0);
      // The pool replaced the child: the next upload is analysed as usual.
      expect((await upload(other, smallPng, 'image/png')).status).toBe(201);
    }, 60_000);

    it('a client that goes away during the analysis: its child is killed, nothing is stored', async () => {
      const killedBefore = await killCount('analysis', 'cancelled');
      const body = multipartBody([filePart(dashedCircles(), { filename: 'drawing.svg', contentType: 'image/svg+xml' })]);
      const socket = await sendAndHold(attacker, 'POST', '/assets', body);
      const pid = await busyChild('analysis');
      socket.destroy();
      expect(await waitGone(pid), `render child ${pid} is gone`).toBe(true);
      expect(await killCount('analysis', 'cancelled')).toBe(killedBefore + 1);
      expect(await assetCount(attacker)).toBe(0);
    }, 60_000);
  });

  describe('a project whose image is the bomb (stored before the filter check existed)', () => {
    let projectId: string;
    /** A design whose raster takes librsvg tens of seconds at any size (the print file keeps it as vectors). */
    let slowProjectId: string;
    /** A design whose image is the nested `use` bomb: resvg would expand it to 10¹⁰ shapes before drawing. */
    let useBombProjectId: string;

    /**
     * Uploads an SVG the checks accept, then replaces its stored bytes. The upload is set-up, not
     * under test: a 503 (a loaded machine, where the analysis of the child that replaced a killed
     * one can pass its 8 s deadline) is retried after its Retry-After, as a client would.
     */
    async function storedAs(svg: Buffer): Promise<string> {
      let stored = await upload(attacker, modestFilterSvg(), 'image/svg+xml');
      for (let retry = 0; stored.status === 503 && retry < 2; retry++) {
        await new Promise((resolve) => setTimeout(resolve, Number(stored.headers.get('retry-after')) * 1000));
        stored = await upload(attacker, modestFilterSvg(), 'image/svg+xml');
      }
      expect(stored.status, JSON.stringify(stored.body)).toBe(201);
      const asset = stored.body.asset as { name: string };
      await app.services.storage.save(asset.name, svg);
      return createProject(attacker, asset.name);
    }

    beforeAll(async () => {
      projectId = await storedAs(blurMorphologyBomb());
      slowProjectId = await storedAs(translucentCircles());
      useBombProjectId = await storedAs(Buffer.from(nestedUse()));
    }, 120_000);

    const tooCostly = (reason: string) => ({
      severity: 'error',
      code: 'SVG_TOO_COSTLY',
      artworkId: 'art-1',
      panelId: 'front',
      message:
        `Artwork 'art-1': the SVG is too costly to render (${reason}) and is left out of the print, preview and 3D model; ` +
        'replace it with a simpler file.',
    });

    for (const [what, id, reason] of [
      ['the nested `use` bomb', () => useBombProjectId, '46913580235 elements once `use` is expanded, at most 20000 are rendered'],
      ['the blur and morphology bomb', () => projectId, 'feGaussianBlur stdDeviation is 1024 px at 4096 px, at most 200 px is rendered'],
    ] as const) {
      it(`preflight names ${what} (SVG_TOO_COSTLY, an error) and print answers 409, before any deadline`, async () => {
        const started = Date.now();
        const preflight = await get(attacker, `/projects/${id()}/preflight`);
        expect(preflight.status, JSON.stringify(preflight.body)).toBe(200);
        const report = preflight.body.preflight as { ready: boolean; findings: Array<{ code: string }> };
        expect(report.ready).toBe(false);
        expect(report.findings.filter((finding) => finding.code.startsWith('SVG_'))).toEqual([tooCostly(reason)]);
        const print = await get(attacker, `/projects/${id()}/print`);
        expectApiError(print, 409);
        expect(print.body.message).toBe('The project has preflight errors; see GET /projects/:id/preflight.');
        expect(print.at - started).toBeLessThan(DEADLINE_MS);
      }, 60_000);
    }

    it('the print child given the nested `use` bomb directly leaves it out: a PDF, no child killed', async () => {
      const killedBefore = await killCount('print', 'deadline');
      const bomb = Buffer.from(nestedUse());
      const asset: ResolvedAsset = {
        name: 'bomb.svg',
        mimeType: 'image/svg+xml',
        widthPx: 100,
        heightPx: 100,
        sizeBytes: bomb.length,
        load: async () => bomb,
      };
      const { dieline } = printGeometry(getTemplate('mailer-box')!, MAILER, { containers: {}, bleedMm: 3 });
      const state: DesignState = {
        artworks: [{ id: 'art-1', panelId: 'front', imageUrl: '/files/bomb.svg', offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 0 }],
      };
      const placement = placeDesign({ dieline, state, assets: new Map([['bomb.svg', asset]]) });
      expect(placement.pieces.flatMap((piece) => piece.images)).toHaveLength(1);
      const file = await app.services.renderer.runToFile(
        'print',
        'print.pdf',
        { placement: { ...placement, fonts: [] }, options: { bleedMm: 3, marks: true, dieline: true, colorSpace: 'rgb' } },
        attacker.id,
      );
      const pdf = await buffer(file.stream);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(await killCount('print', 'deadline')).toBe(killedBefore);
    }, 60_000);

    it('the nested `use` bomb project: preview and 4096 px model leave it out, 200 before their deadlines, no child killed', async () => {
      const killedBefore = await killCount('print', 'deadline');
      for (const [url, deadline] of [
        [`/projects/${useBombProjectId}/preview?width=2048`, PREVIEW_DEADLINE_MS],
        [`/projects/${useBombProjectId}/model?textureSize=4096`, TEXTURE_DEADLINE_MS],
      ] as const) {
        const started = Date.now();
        const answer = await get(attacker, url);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.at - started).toBeLessThan(deadline);
      }
      expect(await killCount('print', 'deadline')).toBe(killedBefore);
    }, 90_000);

    for (const [what, url, deadline] of [
      ['preview', () => `/projects/${projectId}/preview?width=2048`, PREVIEW_DEADLINE_MS],
      ['3D model with a 4096 px texture', () => `/projects/${projectId}/model?textureSize=4096`, TEXTURE_DEADLINE_MS],
    ] as const) {
      it(`its ${what} leaves the image over the cost model out: 200 before the deadline, no child killed`, async () => {
        const killedBefore = await killCount('print', 'deadline');
        const started = Date.now();
        const answer = await get(attacker, url());
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.at - started).toBeLessThan(deadline);
        expect(await killCount('print', 'deadline')).toBe(killedBefore);
      }, 60_000);
    }

    for (const [what, url, deadline] of [
      ['print PDF', () => `/projects/${slowProjectId}/print`, PRINT_DEADLINE_MS],
      ['preview', () => `/projects/${projectId}/preview?width=2048`, PREVIEW_DEADLINE_MS],
      ['3D model with a 4096 px texture', () => `/projects/${projectId}/model?textureSize=4096`, TEXTURE_DEADLINE_MS],
    ] as const) {
      it(`its ${what} is answered by its deadline (a file, or 503 with Retry-After), ` +
        `never a 500; other accounts upload meanwhile`, async () => {
        const started = Date.now();
        const render = get(attacker, url());
        const quick = await upload(other, smallPng, 'image/png');
        expect(quick.status).toBe(201);
        const answer = await render;
        expect([200, 503], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 503) expectApiError(answer, 503);
        expect(answer.at - started).toBeLessThan(deadline + SLACK_MS);
        expect(stats().print.busy).toBe(0);
      }, 60_000);
    }

    it('a client that goes away during its preview (the print pool): the child is killed', async () => {
      const killedBefore = await killCount('print', 'cancelled');
      const socket = await sendAndHold(attacker, 'GET', `/projects/${slowProjectId}/preview?width=1999`);
      const pid = await busyChild('print');
      socket.destroy();
      expect(await waitGone(pid), `render child ${pid} is gone`).toBe(true);
      expect(await killCount('print', 'cancelled')).toBe(killedBefore + 1);
    }, 60_000);
  });
});
