// The in-memory template catalog. Pure: no framework imports. The unfiltered listing never
// changes, so it is built once, serialized once, and handed out as the same bytes.
import { CATEGORY_LABELS, TEMPLATES } from './data.js';
import { CATEGORY_IDS, type Category, type CategoryId, type Template } from './types.js';

export * from './types.js';

const templatesById = new Map(TEMPLATES.map((template) => [template.id, template]));

export const CATEGORIES: Category[] = CATEGORY_IDS.map((id) => ({
  id,
  label: CATEGORY_LABELS[id],
  count: TEMPLATES.filter((template) => template.category === id).length,
}));

export interface TemplateListing {
  templates: Template[];
  total: number;
  categories: Category[];
}

export interface TemplateFilter {
  category?: string;
  q?: string;
}

export function isCategoryId(value: string): value is CategoryId {
  return (CATEGORY_IDS as readonly string[]).includes(value);
}

export function getTemplate(id: string): Template | undefined {
  return templatesById.get(id);
}

/** Filters by category (caller checks it is known) and case-insensitive substring q. */
export function listTemplates(filter: TemplateFilter = {}): TemplateListing {
  const needle = filter.q?.toLowerCase();
  const templates = TEMPLATES.filter(
    (template) =>
      (filter.category === undefined || template.category === filter.category) &&
      (needle === undefined || searchTexts.get(template)!.includes(needle)),
  );
  return { templates, total: templates.length, categories: CATEGORIES };
}

const searchTexts = new Map(
  TEMPLATES.map((template) => [template, `${template.id}\n${template.name}\n${template.description}`.toLowerCase()]),
);

/** The unfiltered listing, serialized once: GET /templates answers with these exact bytes. */
export const FULL_LISTING_JSON: string = JSON.stringify(listTemplates());

/** The same listing as UTF-8 bytes, encoded once. */
export const FULL_LISTING_BYTES: Buffer = Buffer.from(FULL_LISTING_JSON, 'utf8');
