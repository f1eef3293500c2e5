import { Type, type Static } from '@sinclair/typebox';
import { CATEGORY_IDS, FINISH_IDS, MATERIAL_IDS, TEMPLATE_KINDS } from '../catalog/index.js';
import { StrictObject } from './common.js';

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((value) => Type.Literal(value)));

export const DimensionsSchema = Type.Object(
  { widthMm: Type.Number(), heightMm: Type.Number(), depthMm: Type.Number() },
  { additionalProperties: false },
);

export const TemplateSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    category: literals(CATEGORY_IDS),
    kind: literals(TEMPLATE_KINDS),
    defaultDimensions: DimensionsSchema,
    materials: Type.Array(literals(MATERIAL_IDS)),
    finishes: Type.Array(literals(FINISH_IDS)),
    dielineAvailable: Type.Boolean({
      description:
        'True for the box templates, which have a folding blank. False for the containers, whose print layout ' +
        '(label, sleeve, band, laminate or pouch web) is still served by the dieline, print, preview and preflight routes.',
    }),
    description: Type.String(),
  },
  { $id: 'Template', title: 'Template' },
);

export const CategorySchema = Type.Object(
  { id: literals(CATEGORY_IDS), label: Type.String(), count: Type.Integer() },
  { $id: 'Category', title: 'Category' },
);

export const TemplateListQuery = StrictObject({
  category: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'One of the ten category ids; any other value is a 400 naming it.',
      'x-document': { enum: [...CATEGORY_IDS] },
    }),
  ),
  q: Type.Optional(
    Type.String({ maxLength: 200, description: 'Case-insensitive substring of id, name or description.' }),
  ),
});
export type TemplateListQuery = Static<typeof TemplateListQuery>;

export const TemplateListReply = Type.Object({
  templates: Type.Array(Type.Ref(TemplateSchema)),
  total: Type.Integer(),
  categories: Type.Array(Type.Ref(CategorySchema)),
});

/** The listing's 200 with the headers every listing answer carries (the 304 repeats them). */
export const TemplateListResponse = {
  description: 'The catalog, or the templates matching the filters, in the order of the catalog.',
  headers: {
    etag: Type.String({
      description: 'Strong validator: a hash of the uncompressed body. Send it back in If-None-Match for a 304.',
    }),
    'cache-control': Type.String({
      description: 'public, max-age=300, stale-while-revalidate=86400 on /templates; private, with the same ages, on /v1.',
    }),
    vary: Type.String({ description: 'accept-encoding: the body is compressed (br or gzip) when the client accepts it.' }),
  },
  content: { 'application/json': { schema: TemplateListReply } },
};

export const TemplateReply = Type.Object({ template: Type.Ref(TemplateSchema) });
