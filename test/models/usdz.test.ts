// USDZ for AR: GET /projects/:id/model?format=usdz and the shared model. The package is read
// byte by byte as Quick Look reads it: stored zip entries, each file's data 64-byte aligned, the
// USD layer first, the print texture inside and named by the layer.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { TEMPLATES } from '../../src/catalog/data.js';
import { usdName } from '../../src/models/index.js';
import { apiError } from '../api-keys/keys.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { decodeTexture, expectNearColour, readGlb } from './glb.js';

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  dataOffset: number;
  data: Buffer;
}

/** Walks the local file headers from the start, checking them against the central directory. */
function readZip(body: Buffer): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let offset = 0;
  while (body.readUInt32LE(offset) === 0x04034b50) {
    const flags = body.readUInt16LE(offset + 6);
    const method = body.readUInt16LE(offset + 8);
    const compressed = body.readUInt32LE(offset + 18);
    const size = body.readUInt32LE(offset + 22);
    expect(compressed).toBe(size);
    const nameLength = body.readUInt16LE(offset + 26);
    const extraLength = body.readUInt16LE(offset + 28);
    const name = body.toString('utf8', offset + 30, offset + 30 + nameLength);
    const dataOffset = offset + 30 + nameLength + extraLength;
    entries.push({ name, method, flags, dataOffset, data: body.subarray(dataOffset, dataOffset + size) });
    offset = dataOffset + size;
  }
  expect(body.readUInt32LE(offset)).toBe(0x02014b50);
  const end = body.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(body.readUInt16LE(end + 10)).toBe(entries.length);
  return entries;
}

function expectValidUsdz(body: Buffer): { layer: string; entries: ZipEntry[] } {
  const entries = readZip(body);
  expect(entries.length).toBeGreaterThan(0);
  for (const entry of entries) {
    expect(entry.method, `${entry.name} is stored`).toBe(0);
    expect(entry.flags & 0x9, `${entry.name}: no encryption, no data descriptor`).toBe(0);
    expect(entry.dataOffset % 64, `${entry.name} starts at ${entry.dataOffset}`).toBe(0);
  }
  expect(entries[0]!.name).toMatch(/\.usd[ac]$/);
  const layer = entries[0]!.data.toString('utf8');
  expect(layer.startsWith('#usda 1.0')).toBe(true);
  // Every asset the layer names is in the package.
  for (const [, asset] of layer.matchAll(/@([^@]+)@/g)) {
    expect(entries.map((entry) => entry.name)).toContain(asset);
  }
  return { layer, entries };
}

describe(`USDZ model (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    app = await createTestApp();
    owner = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function createProject(templateId: string, artworkJson: Record<string, unknown>, account = owner): Promise<string> {
    const template = TEMPLATES.find((t) => t.id === templateId)!;
    const response = await app.inject({
      method: 'POST',
      url: '/projects',
      headers: account.auth,
      payload: { name: `AR ${templateId}`, templateId, ...template.defaultDimensions, artworkJson },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ project: { id: string } }>().project.id;
  }

  it('is a Quick Look package: stored, 64-byte aligned, the USDA layer first, the print texture inside', async () => {
    const id = await createProject('mailer-box', { background: { kind: 'color', value: '#d0342c' }, finish: 'matte' });
    const response = await get(`/projects/${id}/model?format=usdz&textureSize=512`, owner.auth);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('model/vnd.usdz+zip');
    expect(response.headers['content-disposition']).toBe(`inline; filename="mailer-box-${dims('mailer-box')}.usdz"`);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const { layer, entries } = expectValidUsdz(response.rawPayload);
    expect(layer).toContain('metersPerUnit = 1');
    expect(layer).toContain('upAxis = "Y"');

    // The print: a JPEG or PNG the base colour reads, the design's colour.
    const texture = /asset inputs:file = @(textures\/print\.(?:jpg|png))@/.exec(layer);
    expect(texture, 'the layer names the print texture').not.toBeNull();
    const image = entries.find((entry) => entry.name === texture![1])!.data;
    const png = await decodeTexture(image);
    expect(Math.max(png.width, png.height)).toBe(512);
    expectNearColour(png.pixel(png.width / 2, png.height / 2), [0xd0, 0x34, 0x2c, 255], 12);
    expect(layer).toMatch(/color3f inputs:diffuseColor\.connect = <[^>]+\/baseColor\.outputs:rgb>/);

    // The glb's parts, one Xform each, with as many meshes (one per primitive) and triangles.
    const glb = await readGlb((await get(`/projects/${id}/model?textureSize=512`, owner.auth)).rawPayload);
    const nodes = glb.getRoot().listNodes().filter((node) => node.getMesh());
    expect(nodes.length).toBeGreaterThan(5);
    for (const node of nodes) {
      const primitives = node.getMesh()!.listPrimitives();
      const block = xformBlock(layer, usdName(node.getName()));
      const counts = [...block.matchAll(/int\[\] faceVertexCounts = \[([^\]]*)\]/g)].map((m) => m[1]!.split(',').length);
      // Only this Xform's own meshes: child panels follow them.
      const own = counts.slice(0, primitives.length);
      expect(own, node.getName()).toEqual(primitives.map((primitive) => primitive.getIndices()!.getCount() / 3));
    }

    // Same ETag conventions as the glb: strong, a 304 when named, different from the glb's.
    const etag = response.headers.etag as string;
    const again = await get(`/projects/${id}/model?format=usdz&textureSize=512`, { ...owner.auth, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    const glbReply = await get(`/projects/${id}/model?format=glb&textureSize=512`, owner.auth);
    expect(glbReply.headers['content-type']).toBe('model/gltf-binary');
    expect(glbReply.headers.etag).not.toBe(response.headers.etag);
  });

  it('containers and untextured boxes are packages too; the share link gives the same bytes', async () => {
    const bottle = await createProject('round-bottle', { background: { kind: 'color', value: '#2f6f4f' } });
    const bottleReply = await get(`/projects/${bottle}/model?format=usdz&textureSize=256`, owner.auth);
    expect(bottleReply.statusCode, bottleReply.body).toBe(200);
    const { layer } = expectValidUsdz(bottleReply.rawPayload);
    expect(layer).toContain('def Xform "label"');
    expect(layer).toMatch(/float inputs:ior = 1\.5/);

    const plain = await createProject('rsc-box', {});
    const plainReply = await get(`/projects/${plain}/model?format=usdz`, owner.auth);
    expect(plainReply.statusCode).toBe(200);
    const { entries } = expectValidUsdz(plainReply.rawPayload);
    expect(entries.map((entry) => entry.name)).toEqual(['model.usda']);

    const share = await app.inject({ method: 'POST', url: `/projects/${bottle}/shares`, headers: owner.auth });
    expect(share.statusCode, share.body).toBe(201);
    const token = new URL(share.json<{ share: { url: string } }>().share.url, 'http://x').searchParams.get('share')!;
    const viaLink = await get(`/shared/${token}/model?format=usdz&textureSize=256`);
    expect(viaLink.statusCode).toBe(200);
    expect(viaLink.headers['content-type']).toBe('model/vnd.usdz+zip');
    expect(viaLink.rawPayload.equals(bottleReply.rawPayload)).toBe(true);
    expect((await get(`/shared/${'x'.repeat(43)}/model?format=usdz`)).statusCode).toBe(404);
  });

  it('an unknown project is a 404 as for the glb; an unknown format is a 400 naming the formats', async () => {
    const missing = await get(`/projects/${randomUUID()}/model?format=usdz`, owner.auth);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(apiError(404, 'Project not found.'));
    expect(missing.json()).toEqual((await get(`/projects/${randomUUID()}/model`, owner.auth)).json());
    const stranger = await registerAccount(app);
    const id = await createProject('mailer-box', {}, stranger);
    expect((await get(`/projects/${id}/model?format=usdz`, owner.auth)).statusCode).toBe(404);
    expect((await get(`/projects/${id}/model?format=usdz`)).statusCode).toBe(401);
    const unknown = await get(`/projects/${id}/model?format=obj`, stranger.auth);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(apiError(400, 'querystring/format must be one of: glb, usdz.'));
  });
});

function dims(templateId: string): string {
  const d = TEMPLATES.find((t) => t.id === templateId)!.defaultDimensions;
  return `${d.widthMm}x${d.depthMm}x${d.heightMm}`;
}

/** The text of `def Xform "<name>"` up to its closing brace at the same indent. */
function xformBlock(layer: string, name: string): string {
  const start = layer.search(new RegExp(`^( *)def Xform "${name}"$`, 'm'));
  expect(start, name).toBeGreaterThanOrEqual(0);
  const indent = /^ */.exec(layer.slice(start))![0];
  const end = layer.indexOf(`\n${indent}}`, start);
  return layer.slice(start, end);
}
