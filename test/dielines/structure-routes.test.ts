// The structure options through the real stack: template and project dielines, the project layout
// (its n-up die read back by ezdxf and the CF2 parser) and the preflight's BOARD_TOO_THIN.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { parseCf2, readDxf } from './cad-readers.js';

describe(`structure options on the routes (${engineName()})`, () => {
  let app: App;
  let owner: TestAccount;
  const get = (url: string) => app.inject({ method: 'GET', url, headers: owner.auth });

  async function createProject(body: Record<string, unknown>): Promise<string> {
    owner = await registerAccount(app);
    const response = await app.inject({ method: 'POST', url: '/projects', headers: owner.auth, payload: { name: 'Box', ...body } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ project: { id: string } }>().project.id;
  }

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('template dielines take lock, nicks and dieOnly; options a template does not take and bad values answer 400', async () => {
    const slit = await app.inject({ method: 'GET', url: '/templates/reverse-tuck-carton/dieline?lock=slit&nicks=2' });
    expect(slit.statusCode, slit.body).toBe(200);
    const { dieline } = slit.json<{
      dieline: { paths: { role?: string; closed: boolean; type: string }[]; pieces: { outline?: unknown }[] };
    }>();
    expect(dieline.paths.filter((path) => path.role === 'slit')).toHaveLength(4);
    expect(dieline.paths.some((path) => path.type === 'cut' && !path.closed && path.role === 'outline')).toBe(true);
    expect(dieline.pieces[0]!.outline).toBeDefined();
    const lock = await app.inject({ method: 'GET', url: '/templates/mailer-box/dieline?lock=slit' });
    expect(lock.statusCode).toBe(400);
    expect(lock.json<{ message: string }>().message).toBe('lock applies to reverse-tuck-carton, straight-tuck-box and auto-bottom-box.');
    const lid = await app.inject({ method: 'GET', url: '/templates/mailer-box/dieline?lidHeightMm=30' });
    expect(lid.json<{ message: string }>().message).toBe('lidHeightMm applies to rigid-lid-box.');
    for (const bad of ['nicks=5', 'nicks=1.5', 'nickWidthMm=0.2', 'lock=tight', 'lidHeightMm=5']) {
      const rejected = await app.inject({ method: 'GET', url: `/templates/rigid-lid-box/dieline?${bad}` });
      expect(rejected.statusCode, bad).toBe(400);
    }
    const tooTall = await app.inject({ method: 'GET', url: '/templates/rigid-lid-box/dieline?heightMm=100&thicknessMm=2&lidHeightMm=103' });
    expect(tooTall.statusCode).toBe(400);
    expect(tooTall.json<{ message: string }>().message).toMatch(/lidHeightMm/);
    const can = await app.inject({ method: 'GET', url: '/templates/beverage-can/dieline?format=dxf' });
    expect(can.statusCode).toBe(400);
    expect(can.json<{ message: string }>().message).toBe("Template 'beverage-can' has no cutting die.");
    expect((await app.inject({ method: 'GET', url: '/templates/beverage-can/dieline?format=cf2' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/templates/beverage-can/dieline?nicks=1' })).statusCode).toBe(400);
    const [full, die] = await readDxf([
      (await app.inject({ method: 'GET', url: '/templates/rigid-lid-box/dieline?format=dxf' })).body,
      (await app.inject({ method: 'GET', url: '/templates/rigid-lid-box/dieline?format=dxf&dieOnly=true' })).body,
    ]);
    expect(full!.layers).toEqual(expect.arrayContaining(['CUT', 'V_GROOVE', 'BLEED', 'SAFE']));
    expect(die!.layers).toEqual(expect.arrayContaining(['CUT', 'V_GROOVE']));
    expect(die!.layers).not.toContain('BLEED');
  });

  it('project dielines and layouts take the options; the layout answers the n-up die as DXF and CF2', async () => {
    const id = await createProject({ templateId: 'straight-tuck-box', widthMm: 100, depthMm: 40, heightMm: 150 });
    const friction = await get(`/projects/${id}/dieline?lock=friction`);
    expect(friction.statusCode, friction.body).toBe(200);
    const layout = await get(`/projects/${id}/layout`);
    expect(layout.statusCode, layout.body).toBe(200);
    const { count } = layout.json<{ layout: { count: number } }>().layout;
    expect(count).toBe(9);
    const dxf = await get(`/projects/${id}/layout?format=dxf&nicks=1`);
    expect(dxf.statusCode, dxf.body).toBe(200);
    expect(dxf.headers['content-type']).toMatch(/^application\/dxf/);
    expect(dxf.body.match(/\r\nINSERT\r\n/g)).toHaveLength(count);
    const [reading] = await readDxf([dxf.body.replace(/0\r\nINSERT\r\n[\s\S]*?(?=0\r\n(?:INSERT|ENDSEC)\r\n)/g, '')]);
    expect(reading!.errors).toEqual([]);
    const cf2 = await get(`/projects/${id}/layout?format=cf2`);
    expect(cf2.statusCode, cf2.body).toBe(200);
    expect(cf2.body.match(/^C,BLANK,/gm)).toHaveLength(count);
    expect(parseCf2(cf2.body).rules.filter((rule) => rule.type === 1).length).toBeGreaterThan(0);
    const turned = await get(`/projects/${id}/layout?grain=along&marginMm=20`);
    expect(turned.statusCode, turned.body).toBe(200);
    for (const copy of turned.json<{ layout: { copies: { x: number; rotationDeg: number }[] } }>().layout.copies) {
      expect(copy.rotationDeg % 180).toBe(0);
      expect(copy.x).toBeGreaterThanOrEqual(20);
    }
    const bad = await get(`/projects/${id}/layout?lidHeightMm=30`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('lidHeightMm applies to rigid-lid-box.');
    expect((await get(`/projects/${id}/layout?marginMm=51`)).statusCode).toBe(400);
    expect((await get(`/projects/${id}/layout?grain=diagonal`)).statusCode).toBe(400);
  });

  it('preflight warns BOARD_TOO_THIN for a tall carton on thin board, not for a small one', async () => {
    const tall = await createProject({ templateId: 'reverse-tuck-carton', widthMm: 300, depthMm: 100, heightMm: 400 });
    const findings = (await get(`/projects/${tall}/preflight`)).json<{
      preflight: { findings: { code: string; severity: string; message: string }[] };
    }>().preflight.findings;
    const thin = findings.find((finding) => finding.code === 'BOARD_TOO_THIN');
    expect(thin?.severity).toBe('warning');
    expect(thin?.message).toMatch(/0\.67 mm/);
    const small = await createProject({ templateId: 'reverse-tuck-carton', widthMm: 70, depthMm: 70, heightMm: 180 });
    const none = (await get(`/projects/${small}/preflight`)).json<{ preflight: { findings: { code: string }[] } }>().preflight.findings;
    expect(none.some((finding) => finding.code === 'BOARD_TOO_THIN')).toBe(false);
  });
});
