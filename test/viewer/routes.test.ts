import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName } from '../helpers/app.js';

describe(`viewer page routes (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves the page with a strict CSP that allows its own script, models and inline style by hash only', async () => {
    const response = await app.inject({ method: 'GET', url: '/viewer?model=%2Ftemplates%2Fmailer-box%2Fmodel&lighting=dramatic' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<script src="viewer/viewer.js"></script>');
    expect(response.body).not.toMatch(/https?:\/\//);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'self'; style-src 'sha256-[A-Za-z0-9+/=]{44}'; img-src 'self' blob: data:; connect-src 'self' blob: data:; base-uri 'none'; form-action 'none'$/,
    );
    expect(csp).not.toContain('unsafe');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the bundled three.js script with a strong ETag and 304', async () => {
    const script = await app.inject({ method: 'GET', url: '/viewer/viewer.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body.length).toBeGreaterThan(100_000);
    expect(script.body).toContain('packagingViewer');
    const again = await app.inject({ method: 'GET', url: '/viewer/viewer.js', headers: { 'if-none-match': String(script.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('takes each camera angle the mockups take', async () => {
    for (const angle of ['front', 'three-quarter', 'top', 'bottom', 'back']) {
      const response = await app.inject({ method: 'GET', url: `/viewer?model=%2Ftemplates%2Fmailer-box%2Fmodel&angle=${angle}` });
      expect(response.statusCode, angle).toBe(200);
    }
  });

  it('refuses an unknown lighting preset, a bad background, an unknown angle and unknown parameters', async () => {
    for (const query of ['lighting=disco', 'background=red', 'background=%23ff00ff00', 'angle=side', 'zoom=2']) {
      const response = await app.inject({ method: 'GET', url: `/viewer?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });
});
