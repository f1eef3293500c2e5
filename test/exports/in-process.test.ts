// Exports without Redis: the web process renders them itself. Through the real stack on the run's
// engine: the version requested is the one rendered, every format's file is what its reader
// accepts, Idempotency-Key, listing, another account, expiry, and failures with their reason.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, ownDatabase } from '../helpers/app.js';
import { expectApiError } from '../assets/helpers.js';
import { createProject, twoToneJpeg, uploadJpeg } from '../print/harness.js';
import { registerProAccount } from '../projects/fixtures.js';
import { MAILER, pdfPageSizes, pollInjected, printableDesign, type ExportBody } from './helpers.js';

const PT = 72 / 25.4;
let app: App;
let owner: TestAccount;
let imageUrl: string;
let own: Awaited<ReturnType<typeof ownDatabase>>;

beforeAll(async () => {
  own = await ownDatabase('pf_exports');
  app = await createTestApp(own.env);
  owner = await registerProAccount(app);
  imageUrl = await uploadJpeg(app, owner, await twoToneJpeg(1200, 800));
});

afterAll(async () => {
  await app?.close();
  await own?.drop();
});

function post(projectId: string, payload: object, headers: Record<string, string> = {}, account = owner) {
  return app.inject({ method: 'POST', url: `/projects/${projectId}/exports`, headers: { ...account.auth, ...headers }, payload });
}

async function download(url: string) {
  return app.inject({ method: 'GET', url });
}

describe('exports rendered in the web process', () => {
  it('renders the version current when it was requested, not a later change, and serves it through the signed link', async () => {
    const projectId = await createProject(app, owner, 'mailer-box', printableDesign(imageUrl), MAILER);
    const created = await post(projectId, { format: 'print-pdf', options: { marks: false } });
    expect(created.statusCode, created.body).toBe(202);
    const queued = created.json<{ export: ExportBody }>().export;
    expect(created.headers.location).toBe(`/exports/${queued.id}`);
    expect(queued).toMatchObject({
      projectId,
      projectVersion: 1,
      format: 'print-pdf',
      options: { marks: false },
      downloadUrl: null,
      error: null,
    });
    expect(['queued', 'running', 'succeeded']).toContain(queued.status);

    // The design changes size right away; the export still renders version 1.
    const changed = await app.inject({ method: 'PUT', url: `/projects/${projectId}`, headers: owner.auth, payload: { widthMm: 200 } });
    expect(changed.statusCode, changed.body).toBe(200);

    const done = await pollInjected(app, `/exports/${queued.id}`, owner.auth);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.startedAt).not.toBeNull();
    expect(Date.parse(done.expiresAt!) - Date.parse(done.finishedAt!)).toBe(24 * 3600 * 1000);
    const file = await download(done.downloadUrl!);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe('attachment; filename="print-test-v1-rgb.pdf"');
    const sync = await app.inject({ method: 'GET', url: `/projects/${projectId}/print?marks=false`, headers: owner.auth });
    // The synchronous route renders the current version (200 mm wide); the export the requested one.
    const [exported] = pdfPageSizes(file.rawPayload);
    const [current] = pdfPageSizes(sync.rawPayload);
    expect(exported![0]).toBeGreaterThan(current![0] + 90 * PT);

    // A tampered or foreign link is not a download.
    const tampered = done.downloadUrl!.replace(/signature=./, (m) => (m.endsWith('A') ? 'signature=B' : 'signature=A'));
    expectApiError(await download(tampered), 404, 'Export not found.');
  });

  it('renders each format its reader accepts', async () => {
    const projectId = await createProject(app, owner, 'mailer-box', printableDesign(imageUrl), MAILER);
    const formats = ['preview-png', 'model-glb', 'dieline-svg', 'dieline-pdf'] as const;
    const ids = [];
    for (const format of formats) {
      const response = await post(projectId, { format, ...(format === 'preview-png' ? { options: { width: 400 } } : {}) });
      expect(response.statusCode, response.body).toBe(202);
      ids.push(response.json<{ export: ExportBody }>().export.id);
    }
    const files = new Map<string, Buffer>();
    for (const [index, id] of ids.entries()) {
      const done = await pollInjected(app, `/exports/${id}`, owner.auth);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      const file = await download(done.downloadUrl!);
      expect(file.statusCode).toBe(200);
      files.set(formats[index]!, file.rawPayload);
    }
    const png = await sharp(files.get('preview-png')!).metadata();
    expect([png.format, png.width]).toEqual(['png', 400]);
    expect(files.get('model-glb')!.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(files.get('dieline-svg')!.toString('utf8')).toMatch(/<svg[\s\S]*<\/svg>\s*$/);
    expect(pdfPageSizes(files.get('dieline-pdf')!)).toHaveLength(1);
  });

  it('answers a repeated Idempotency-Key with the same export, and refuses it with another body or project', async () => {
    const projectId = await createProject(app, owner, 'mailer-box', printableDesign(imageUrl), MAILER);
    const otherProject = await createProject(app, owner, 'mailer-box', printableDesign(imageUrl), MAILER);
    const key = { 'idempotency-key': `retry-${Date.now()}` };
    const first = await post(projectId, { format: 'dieline-svg', options: { bleedMm: 2 } }, key);
    expect(first.statusCode, first.body).toBe(202);
    const again = await app.inject({
      method: 'POST',
      url: `/projects/${projectId}/exports`,
      headers: { ...owner.auth, ...key, 'content-type': 'application/json' },
      // The same JSON value written differently: compared parsed.
      payload: '{ "options": {"bleedMm": 2.0}, "format": "dieline-svg" }',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.json<{ export: ExportBody }>().export.id).toBe(first.json<{ export: ExportBody }>().export.id);
    expectApiError(
      await post(projectId, { format: 'dieline-svg', options: { bleedMm: 3 } }, key),
      409,
      'Idempotency-Key was used with another request.',
    );
    expectApiError(
      await post(otherProject, { format: 'dieline-svg', options: { bleedMm: 2 } }, key),
      409,
      'Idempotency-Key was used with another request.',
    );
    // Scoped to the account: another account may use the same key.
    const stranger = await registerAccount(app);
    const theirs = await createProject(app, stranger, 'mailer-box', {}, MAILER);
    expect((await post(theirs, { format: 'dieline-svg' }, key, stranger)).statusCode).toBe(202);
    expectApiError(await post(projectId, { format: 'dieline-svg' }, { 'idempotency-key': 'tab\there' }), 400);
    const listed = await app.inject({ method: 'GET', url: `/exports?projectId=${projectId}`, headers: owner.auth });
    expect(listed.json<{ exports: ExportBody[] }>().exports).toHaveLength(1);
  });

  it('lists newest first in pages, and hides another account’s exports', async () => {
    const projectId = await createProject(app, owner, 'mailer-box', printableDesign(imageUrl), MAILER);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await post(projectId, { format: 'dieline-svg' })).json<{ export: ExportBody }>().export.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/exports?projectId=${projectId}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await app.inject({ method: 'GET', url: query, headers: owner.auth });
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json<{ exports: ExportBody[]; nextCursor: string | null }>();
      seen.push(...body.exports.map((item) => item.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const stranger = await registerAccount(app);
    expectApiError(await app.inject({ method: 'GET', url: `/exports/${ids[0]}`, headers: stranger.auth }), 404, 'Export not found.');
    expectApiError(await app.inject({ method: 'GET', url: '/exports/unknown', headers: owner.auth }), 404, 'Export not found.');
    expectApiError(await post(projectId, { format: 'dieline-svg' }, {}, stranger), 404, 'Project not found.');
    const theirList = await app.inject({ method: 'GET', url: '/exports', headers: stranger.auth });
    expect(theirList.json<{ exports: ExportBody[] }>().exports).toEqual([]);
  });

  it('refuses options the synchronous route would refuse, and changes nothing', async () => {
    const projectId = await createProject(app, owner, 'mailer-box', printableDesign(imageUrl), MAILER);
    expectApiError(
      await post(projectId, { format: 'print-pdf', options: { bleedMm: 'three' } }),
      400,
      'body/options/bleedMm must be number.',
    );
    expectApiError(
      await post(projectId, { format: 'preview-png', options: { size: 3 } }),
      400,
      "body/options has an unknown field 'size'.",
    );
    expectApiError(await post(projectId, { format: 'gif' }), 400);
    const listed = await app.inject({ method: 'GET', url: `/exports?projectId=${projectId}`, headers: owner.auth });
    expect(listed.json<{ exports: ExportBody[] }>().exports).toEqual([]);
    // A revoked token is a 401 before anything about the request is judged.
    const leaving = await registerAccount(app);
    expect((await app.inject({ method: 'DELETE', url: '/auth/sessions', headers: leaving.auth })).statusCode).toBe(204);
    expectApiError(
      await post(projectId, { format: 'print-pdf', options: { bleedMm: 'three' } }, {}, leaving),
      401,
      'Invalid or expired token.',
    );
    expectApiError(await post(projectId, { format: 'print-pdf' }, {}, leaving), 401, 'Invalid or expired token.');
  });

  it('fails an export whose design cannot print, with the reason', async () => {
    const broken = { ...printableDesign(imageUrl), artworks: [{ ...printableDesign(imageUrl).artworks[0], panelId: 'no-such-panel' }] };
    const projectId = await createProject(app, owner, 'mailer-box', broken, MAILER);
    const id = (await post(projectId, { format: 'print-pdf' })).json<{ export: ExportBody }>().export.id;
    const done = await pollInjected(app, `/exports/${id}`, owner.auth);
    expect(done.status).toBe('failed');
    // The refusal carries its findings and the caller's route to the preflight.
    expect(done.error).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: `The project has preflight errors; see GET /projects/${projectId}/preflight.`,
      findings: [expect.objectContaining({ severity: 'error', code: 'PANEL_NOT_FOUND' })],
    });
    expect(done.downloadUrl).toBeNull();
  });

  it('takes over an export whose process died mid-render, and fails one out of attempts with a reason', async () => {
    const projectId = await createProject(app, owner, 'mailer-box', printableDesign(imageUrl), MAILER);
    // Two exports as a crashed process leaves them: running, their lease run out.
    const orphan = (await post(projectId, { format: 'dieline-svg' })).json<{ export: ExportBody }>().export.id;
    const exhausted = (await post(projectId, { format: 'dieline-svg' })).json<{ export: ExportBody }>().export.id;
    await pollInjected(app, `/exports/${orphan}`, owner.auth);
    await pollInjected(app, `/exports/${exhausted}`, owner.auth);
    const crashed = { status: 'running', leaseUntil: new Date(Date.now() - 1000), finishedAt: null, expiresAt: null, fileName: null };
    await app.db.prisma.export.update({ where: { id: orphan }, data: { ...crashed, attempts: 1 } });
    await app.db.prisma.export.update({ where: { id: exhausted }, data: { ...crashed, attempts: 3 } });

    const resumed = await pollInjected(app, `/exports/${orphan}`, owner.auth);
    expect(resumed.status).toBe('succeeded');
    expect((await download(resumed.downloadUrl!)).statusCode).toBe(200);
    expect((await app.db.prisma.export.findUniqueOrThrow({ where: { id: orphan } })).attempts).toBe(2);
    const failed = await pollInjected(app, `/exports/${exhausted}`, owner.auth);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ statusCode: 500, error: 'Internal Server Error', message: "The export's worker stopped 3 times." });
  });

  it("removes an account's export files with the account", async () => {
    const account = await registerAccount(app);
    const projectId = await createProject(app, account, 'mailer-box', {}, MAILER);
    const id = (await post(projectId, { format: 'dieline-svg' }, {}, account)).json<{ export: ExportBody }>().export.id;
    const done = await pollInjected(app, `/exports/${id}`, account.auth);
    const { fileName } = await app.db.prisma.export.findUniqueOrThrow({ where: { id } });
    expect(await app.services.storage.stat(fileName!)).not.toBeNull();
    const deleted = await app.inject({ method: 'DELETE', url: '/auth/me', headers: account.auth, payload: { password: account.password } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await app.db.prisma.export.findUnique({ where: { id } })).toBeNull();
    expect(await app.services.storage.stat(fileName!)).toBeNull();
    expectApiError(await download(done.downloadUrl!), 410, 'Export has expired.');
  });

  it('expires 24 h after finishing: the link answers 410 and the row and file are removed', async () => {
    const projectId = await createProject(app, owner, 'mailer-box', printableDesign(imageUrl), MAILER);
    const id = (await post(projectId, { format: 'dieline-svg' })).json<{ export: ExportBody }>().export.id;
    const done = await pollInjected(app, `/exports/${id}`, owner.auth);
    const row = await app.db.prisma.export.findUniqueOrThrow({ where: { id } });
    expect(await app.services.storage.stat(row.fileName!)).not.toBeNull();
    await app.db.prisma.export.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectApiError(await app.inject({ method: 'GET', url: `/exports/${id}`, headers: owner.auth }), 404, 'Export not found.');
    expectApiError(await download(done.downloadUrl!), 410, 'Export has expired.');
    await app.services.exports.removeExpired((names) => app.services.fileJanitor.removeRecorded(names));
    expect(await app.db.prisma.export.findUnique({ where: { id } })).toBeNull();
    expect(await app.services.storage.stat(row.fileName!)).toBeNull();
    expectApiError(await download(done.downloadUrl!), 410, 'Export has expired.');
  });
});
