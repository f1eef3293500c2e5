// With object storage the export's downloadUrl is a presigned URL of the bucket (a real S3
// gateway), valid until the export expires, that serves the file as an attachment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, ownDatabase } from '../helpers/app.js';
import { createTestBucket, s3Env, type TestBucket } from '../helpers/s3.js';
import { createProject } from '../print/harness.js';
import { MAILER, pollInjected, type ExportBody } from './helpers.js';

describe(`export downloads from object storage (${engineName()})`, () => {
  let bucket: TestBucket;
  let app: App;
  let owner: TestAccount;
  let own: Awaited<ReturnType<typeof ownDatabase>>;

  beforeAll(async () => {
    bucket = await createTestBucket();
    own = await ownDatabase('pf_exports_s3');
    app = await createTestApp({ ...own.env, ...s3Env(bucket.name) });
    owner = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
    await own?.drop();
    await bucket?.remove();
  });

  it('hands out a presigned URL that expires with the export', async () => {
    const projectId = await createProject(app, owner, 'mailer-box', {}, MAILER);
    const created = await app.inject({
      method: 'POST',
      url: `/projects/${projectId}/exports`,
      headers: owner.auth,
      payload: { format: 'dieline-svg' },
    });
    const done = await pollInjected(app, `/exports/${created.json<{ export: ExportBody }>().export.id}`, owner.auth);
    expect(done.status).toBe('succeeded');
    const url = new URL(done.downloadUrl!);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const lifetime = Number(url.searchParams.get('X-Amz-Expires'));
    expect(Math.abs(lifetime - (Date.parse(done.expiresAt!) - Date.now()) / 1000)).toBeLessThan(60);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="mailer-box-300x220x80.svg"');
    expect(await file.text()).toMatch(/<svg[\s\S]*<\/svg>\s*$/);
    expect(await bucket.keys()).toContain(`export-${done.id}.svg`);
    // A URL changed in any way is refused by the bucket.
    url.searchParams.set('X-Amz-Expires', String(lifetime + 3600));
    expect((await fetch(url)).status).toBe(403);
  });
});
