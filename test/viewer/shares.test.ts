// Share links: a read-only link to one project's model, for a visitor without any credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { apiError } from '../api-keys/keys.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { expectValidGlb } from '../models/glb.js';
import { artwork, createProject, twoToneJpeg, uploadJpeg } from '../print/harness.js';

interface ShareDto {
  id: string;
  url: string;
  createdAt: string;
  expiresAt: string | null;
}

const tokenOf = (share: ShareDto) => new URL(share.url, 'http://client.example').searchParams.get('share')!;

describe(`share links (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  let stranger: TestAccount;
  let projectId: string;

  const share = async (account: TestAccount, id: string, payload?: object) =>
    app.inject({
      method: 'POST',
      url: `/projects/${id}/shares`,
      headers: { ...account.auth, host: 'viewer.test:8080' },
      ...(payload ? { payload } : {}),
    });
  const shared = (token: string, query = '') => app.inject({ method: 'GET', url: `/shared/${token}/model${query}` });

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
    stranger = await registerAccount(app);
    const image = await uploadJpeg(app, owner, await twoToneJpeg(64, 48));
    projectId = await createProject(app, owner, 'mailer-box', { artworks: [artwork('a1', 'lid', image)] });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('without PUBLIC_BASE_URL the link is relative, never built from the request\'s Host; ' +
    'without credentials it serves the owner\'s model', async () => {
    const created = await share(owner, projectId);
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json<{ share: ShareDto }>().share;
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'url']);
    expect(body.expiresAt).toBeNull();
    expect(body.url).toMatch(/^\/viewer\?share=[A-Za-z0-9_-]{43}$/);

    const viaLink = await shared(tokenOf(body), '?textureSize=256');
    expect(viaLink.statusCode, viaLink.body).toBe(200);
    expect(viaLink.headers['content-type']).toBe('model/gltf-binary');
    expect(viaLink.headers['cache-control']).toBe('private, no-cache');
    expect(viaLink.headers['referrer-policy']).toBe('no-referrer');
    await expectValidGlb(viaLink.rawPayload);
    const asOwner = await app.inject({ method: 'GET', url: `/projects/${projectId}/model?textureSize=256`, headers: owner.auth });
    expect(asOwner.statusCode).toBe(200);
    expect(viaLink.rawPayload.equals(asOwner.rawPayload)).toBe(true);
    expect(viaLink.headers.etag).toBe(asOwner.headers.etag);

    const again = await app.inject({
      method: 'GET',
      url: `/shared/${tokenOf(body)}/model?textureSize=256`,
      headers: { 'if-none-match': viaLink.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('lists the links newest first with their URLs, and a revoked link stops at once', async () => {
    const first = (await share(owner, projectId, { expiresInDays: 30 })).json<{ share: ShareDto }>().share;
    const second = (await share(owner, projectId)).json<{ share: ShareDto }>().share;
    expect(Date.parse(first.expiresAt!) - Date.parse(first.createdAt)).toBe(30 * 86_400_000);

    const list = await app.inject({
      method: 'GET',
      url: `/projects/${projectId}/shares`,
      headers: { ...owner.auth, host: 'viewer.test:8080' },
    });
    expect(list.statusCode, list.body).toBe(200);
    const shares = list.json<{ shares: ShareDto[] }>().shares;
    expect(shares.slice(0, 2)).toEqual([second, first]);

    expect((await shared(tokenOf(first), '?textureSize=256')).statusCode).toBe(200);
    const revoked = await app.inject({ method: 'DELETE', url: `/projects/${projectId}/shares/${first.id}`, headers: owner.auth });
    expect(revoked.statusCode, revoked.body).toBe(204);
    const gone = await shared(tokenOf(first), '?textureSize=256');
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual(apiError(404, 'Share link not found.'));
    expect((await shared(tokenOf(second), '?textureSize=256')).statusCode).toBe(200);

    const twice = await app.inject({ method: 'DELETE', url: `/projects/${projectId}/shares/${first.id}`, headers: owner.auth });
    expect(twice.json()).toEqual(apiError(404, 'Share link not found.'));
  });

  it('an expired link is a 404 like an unknown one', async () => {
    const created = (await share(owner, projectId, { expiresInDays: 1 })).json<{ share: ShareDto }>().share;
    expect((await shared(tokenOf(created), '?textureSize=256')).statusCode).toBe(200);
    await app.db.prisma.projectShare.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await shared(tokenOf(created))).json()).toEqual(apiError(404, 'Share link not found.'));
    for (const token of ['x'.repeat(43), 'short', tokenOf(created).slice(0, 42) + '!']) {
      const response = await shared(encodeURIComponent(token));
      expect(response.statusCode, token).toBe(404);
      expect(response.json()).toEqual(apiError(404, 'Share link not found.'));
    }
  });

  it("another account cannot share, list or revoke the project's links (404), and no token means 401", async () => {
    const mine = (await share(owner, projectId)).json<{ share: ShareDto }>().share;
    expect((await share(stranger, projectId)).json()).toEqual(apiError(404, 'Project not found.'));
    const list = await app.inject({ method: 'GET', url: `/projects/${projectId}/shares`, headers: stranger.auth });
    expect(list.json()).toEqual(apiError(404, 'Project not found.'));
    const revoke = await app.inject({ method: 'DELETE', url: `/projects/${projectId}/shares/${mine.id}`, headers: stranger.auth });
    expect(revoke.json()).toEqual(apiError(404, 'Project not found.'));
    expect((await shared(tokenOf(mine), '?textureSize=256')).statusCode).toBe(200);
    const anonymous = await app.inject({ method: 'POST', url: `/projects/${projectId}/shares` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('rejects a bad body or query with a 400 and creates nothing', async () => {
    const before = await app.db.prisma.projectShare.count({ where: { projectId } });
    for (const payload of [{ expiresInDays: 0 }, { expiresInDays: 366 }, { expiresInDays: 1.5 }, { expiresInDays: '7' }, { other: 1 }]) {
      const response = await share(owner, projectId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await app.db.prisma.projectShare.count({ where: { projectId } })).toBe(before);
    const mine = (await share(owner, projectId)).json<{ share: ShareDto }>().share;
    expect((await shared(tokenOf(mine), '?textureSize=1')).statusCode).toBe(400);
    expect((await shared(tokenOf(mine), '?projectId=x')).statusCode).toBe(400);
  });

  it('the token opens the model only: the project, its dieline and print stay closed to it', async () => {
    const token = tokenOf((await share(owner, projectId)).json<{ share: ShareDto }>().share);
    for (const url of [
      `/projects/${projectId}`,
      `/projects/${projectId}/print`,
      `/projects/${projectId}/dieline`,
      `/shared/${token}`,
      `/shared/${token}/print`,
    ]) {
      const bearer = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect(bearer.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(bearer.statusCode, url).not.toBe(200);
    }
  });

  it('deleting the project removes its links', async () => {
    const other = await createProject(app, owner, 'mailer-box', { artworks: [] });
    const token = tokenOf((await share(owner, other)).json<{ share: ShareDto }>().share);
    expect((await shared(token, '?textureSize=256')).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: `/projects/${other}`, headers: owner.auth })).statusCode).toBe(204);
    expect((await shared(token)).statusCode).toBe(404);
  });

  it('uses PUBLIC_BASE_URL for the link when it is set', async () => {
    const configured = await createTestApp({ PUBLIC_BASE_URL: 'https://pack.example.com/api' });
    try {
      const account = await registerAccount(configured);
      const id = await createProject(configured, account, 'mailer-box', { artworks: [] });
      const response = await configured.inject({ method: 'POST', url: `/projects/${id}/shares`, headers: account.auth });
      expect(response.json<{ share: ShareDto }>().share.url).toMatch(
        /^https:\/\/pack\.example\.com\/api\/viewer\?share=[A-Za-z0-9_-]{43}$/,
      );
    } finally {
      await configured.close();
    }
  });
});
