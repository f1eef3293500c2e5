import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  FINISH_IDS,
  FULL_LISTING_JSON,
  getTemplate,
  listTemplates,
  MATERIAL_IDS,
} from '../../src/catalog/index.js';
import { TEMPLATES } from '../../src/catalog/data.js';

const SPEC_CATEGORIES = [
  ['folding-cartons', 'Folding Cartons', 1],
  ['mailer-boxes', 'Mailer Boxes', 1],
  ['rigid-boxes', 'Rigid Boxes', 1],
  ['shipping-boxes', 'Shipping Boxes', 1],
  ['product-boxes', 'Product Boxes', 2],
  ['bottles-jars', 'Bottles & Jars', 2],
  ['cans-tins', 'Cans & Tins', 1],
  ['pouches-bags', 'Pouches & Bags', 1],
  ['tubes', 'Tubes', 1],
  ['labels-sleeves', 'Labels & Sleeves', 0],
] as const;

describe('template catalog data', () => {
  it('holds 11 templates with unique ids', () => {
    expect(TEMPLATES).toHaveLength(11);
    expect(new Set(TEMPLATES.map((template) => template.id)).size).toBe(11);
  });

  it('has the two templates the spec names', () => {
    expect(getTemplate('mailer-box')).toMatchObject({ category: 'mailer-boxes', kind: 'box' });
    expect(getTemplate('rsc-box')).toMatchObject({ category: 'shipping-boxes', kind: 'box' });
  });

  it('lists the ten categories with the spec labels and counts, in order', () => {
    expect(CATEGORIES.map(({ id, label, count }) => [id, label, count])).toEqual(SPEC_CATEGORIES);
  });

  it('has six box templates with dielines and five containers without', () => {
    const boxes = TEMPLATES.filter((template) => template.kind === 'box');
    expect(boxes).toHaveLength(6);
    expect(boxes.every((template) => template.dielineAvailable)).toBe(true);
    const containers = TEMPLATES.filter((template) => template.kind !== 'box');
    expect(containers.map((template) => template.kind).sort()).toEqual(['bottle', 'can', 'jar', 'pouch', 'tube']);
    expect(containers.every((template) => !template.dielineAvailable)).toBe(true);
  });

  it('gives round containers equal width and depth (the diameter)', () => {
    for (const template of TEMPLATES.filter((t) => ['bottle', 'jar', 'can', 'tube'].includes(t.kind))) {
      expect(template.defaultDimensions.widthMm, template.id).toBe(template.defaultDimensions.depthMm);
    }
  });

  it('uses only allowed materials and finishes, at least one of each, and bounded dimensions', () => {
    for (const template of TEMPLATES) {
      expect(template.materials.length, template.id).toBeGreaterThan(0);
      expect(template.finishes.length, template.id).toBeGreaterThan(0);
      for (const material of template.materials) expect(MATERIAL_IDS).toContain(material);
      for (const finish of template.finishes) expect(FINISH_IDS).toContain(finish);
      for (const value of Object.values(template.defaultDimensions)) {
        expect(value).toBeGreaterThanOrEqual(1);
        expect(value).toBeLessThanOrEqual(3000);
      }
      expect(template.description.length).toBeGreaterThan(10);
      expect(template.description).not.toContain('\n');
    }
  });

  it('serializes the unfiltered listing once, equal to a fresh listing', () => {
    expect(JSON.parse(FULL_LISTING_JSON)).toEqual(JSON.parse(JSON.stringify(listTemplates())));
  });

  it('filters by category and case-insensitive text over id, name and description with AND', () => {
    expect(listTemplates({ category: 'product-boxes' }).total).toBe(2);
    expect(listTemplates({ q: 'MAILER' }).templates.map((t) => t.id)).toEqual(['mailer-box']);
    expect(listTemplates({ q: 'e-commerce' }).templates.map((t) => t.id)).toEqual(['mailer-box']);
    expect(listTemplates({ q: 'rsc-b' }).templates.map((t) => t.id)).toEqual(['rsc-box']);
    expect(listTemplates({ category: 'tubes', q: 'box' }).total).toBe(0);
    expect(listTemplates({ category: 'product-boxes', q: 'straight' }).templates.map((t) => t.id)).toEqual([
      'straight-tuck-box',
    ]);
  });
});
