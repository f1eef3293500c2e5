import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { FULL_LISTING_JSON } from '../../src/catalog/index.js';
import { createTestApp, engineName } from '../helpers/app.js';

describe(`GET /templates (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('returns the whole catalog with every category, as the precomputed bytes', async () => {
    const response = await get('/templates');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(FULL_LISTING_JSON);
    const body = response.json();
    expect(body.total).toBe(11);
    expect(body.templates).toHaveLength(11);
    expect(body.categories).toHaveLength(10);
    expect(body.categories[0]).toEqual({ id: 'folding-cartons', label: 'Folding Cartons', count: 1 });
    expect(Object.keys(body.templates[0]).sort()).toEqual(
      ['category', 'defaultDimensions', 'description', 'dielineAvailable', 'finishes', 'id', 'kind', 'materials', 'name'].sort(),
    );
  });

  it('filters by category, counting the filtered result but listing all categories', async () => {
    const body = (await get('/templates?category=product-boxes')).json();
    expect(body.total).toBe(2);
    expect(body.templates.map((t: { category: string }) => t.category)).toEqual(['product-boxes', 'product-boxes']);
    expect(body.categories).toHaveLength(10);
    expect(body.categories.find((c: { id: string }) => c.id === 'bottles-jars').count).toBe(2);
  });

  it('answers an empty list for a known category without templates', async () => {
    const body = (await get('/templates?category=labels-sleeves')).json();
    expect(body).toMatchObject({ templates: [], total: 0 });
    expect(body.categories).toHaveLength(10);
  });

  it('searches id, name and description case-insensitively and combines with category (AND)', async () => {
    expect((await get('/templates?q=MaIlEr')).json().templates.map((t: { id: string }) => t.id)).toEqual(['mailer-box']);
    expect((await get('/templates?q=crash-lock')).json().total).toBe(1);
    expect((await get('/templates?category=tubes&q=box')).json().total).toBe(0);
    expect((await get('/templates?category=bottles-jars&q=jar')).json().templates.map((t: { id: string }) => t.id)).toEqual([
      'cosmetic-jar',
    ]);
  });

  it('accepts q of 200 characters and refuses 201', async () => {
    expect((await get(`/templates?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
    const response = await get(`/templates?q=${'a'.repeat(201)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'querystring/q must NOT have more than 200 characters.',
    });
  });

  it('refuses an unknown category with the fixed message', async () => {
    const response = await get('/templates?category=nope');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: "Unknown template category 'nope'." });
    expect((await get('/templates?category=Mailer-Boxes')).json().message).toBe("Unknown template category 'Mailer-Boxes'.");
  });

  it('refuses unknown query parameters and repeated parameters', async () => {
    expect((await get('/templates?page=2')).json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: "querystring has an unknown field 'page'.",
    });
    expect((await get('/templates?category=tubes&category=tubes')).statusCode).toBe(400);
  });

  it('returns one template and a 404 with the fixed message for an unknown id', async () => {
    const response = await get('/templates/mailer-box');
    expect(response.statusCode).toBe(200);
    expect(response.json().template).toMatchObject({ id: 'mailer-box', category: 'mailer-boxes', kind: 'box' });
    const missing = await get('/templates/nope-box');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ statusCode: 404, error: 'Not Found', message: "Template 'nope-box' was not found." });
    expect((await get('/templates/mailer-box?x=1')).statusCode).toBe(400);
  });
});
