// Project and EditorState schemas, declared once: request bodies (create, update), replies and
// OpenAPI all come from here. Every object is strict at every depth, every string bounded.
import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import { NextCursor } from './paging.js';
import { FINISH_IDS, MATERIAL_IDS } from '../catalog/index.js';
import { EFFECTS } from '../print/effects.js';
import { Id, IsoDateTime, StrictObject, StringEnum } from './common.js';

export const PROJECT_NAME_MAX_LENGTH = 200;
export const DIMENSION_MIN_MM = 1;
export const DIMENSION_MAX_MM = 3000;
export const ARTWORKS_MAX_ITEMS = 200;

export const BACKGROUND_KINDS = ['color', 'gradient', 'image'] as const;
export const LIGHTING_IDS = ['studio', 'softbox', 'dramatic', 'outdoor'] as const;

// Strings inside artworkJson live in a json column, which keeps any JSON string (even "\u0000").
const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });

// Ajv runs in strict mode (strictNumbers), so a JSON number that overflows to Infinity is refused.
const FiniteNumber = (description?: string) => Type.Number(description ? { description } : {});

export const DimensionSchema = Type.Number({
  minimum: DIMENSION_MIN_MM,
  maximum: DIMENSION_MAX_MM,
  description: `Millimetres, ${DIMENSION_MIN_MM} to ${DIMENSION_MAX_MM} inclusive; fractions allowed.`,
});

export const EditorDimensionsSchema = StrictObject(
  {
    widthMm: Type.Optional(DimensionSchema),
    heightMm: Type.Optional(DimensionSchema),
    depthMm: Type.Optional(DimensionSchema),
  },
  { title: 'EditorDimensions', description: 'Each value may become the project dimension, so each has its bounds.' },
);

export const BackgroundSchema = StrictObject(
  {
    kind: StringEnum(BACKGROUND_KINDS),
    value: Text(2048, 'A colour, a gradient definition or an image URL, depending on kind.'),
  },
  { title: 'Background' },
);

export const ArtworkPlacementSchema = StrictObject(
  {
    id: Text(100),
    panelId: Text(
      100,
      "The panel the artwork sits on: a panel id of the template's dieline (GET /templates/{id}/dieline lists them). " +
        'Bottle, jar, can and tube: `label` (the whole layout, centred on the front), `front` (the half facing the viewer) ' +
        'or `back` (the half centred on the seam); the pouch: `front`, `back` and `gusset`, with `label` another name ' +
        "for `front`. The project stores any id; preflight reports an unknown one as PANEL_NOT_FOUND and nothing prints it.",
    ),
    imageUrl: Text(2048, 'Never fetched by the server.'),
    offsetX: FiniteNumber(),
    offsetY: FiniteNumber(),
    scale: FiniteNumber(),
    rotationDeg: FiniteNumber(),
    effect: Type.Optional(
      StringEnum(EFFECTS, {
        description:
          "A finish on the artwork's shape, printed as its own overprinting spot plate: foil-gold and foil-silver (Foil_Gold, " +
          'Foil_Silver: the foil replaces the ink, nothing prints under it), spot-uv (SpotUV), emboss and deboss (Emboss, Deboss): the ' +
          'artwork prints as well.',
      }),
    ),
  },
  { title: 'ArtworkPlacement', description: 'Every field is required within an item, but `effect`.' },
);

export const EditorStateSchema = StrictObject(
  {
    templateId: Type.Optional(Text(100)),
    dimensions: Type.Optional(EditorDimensionsSchema),
    material: Type.Optional(StringEnum(MATERIAL_IDS)),
    thicknessMm: Type.Optional(FiniteNumber('Board thickness in millimetres.')),
    finish: Type.Optional(StringEnum(FINISH_IDS)),
    background: Type.Optional(BackgroundSchema),
    lighting: Type.Optional(StringEnum(LIGHTING_IDS)),
    artworks: Type.Optional(Type.Array(ArtworkPlacementSchema, { maxItems: ARTWORKS_MAX_ITEMS })),
  },
  {
    $id: 'EditorState',
    title: 'EditorState',
    description: 'Every field optional; stored verbatim and returned exactly as sent.',
  },
);
export type EditorState = Static<typeof EditorStateSchema>;

// The service checks the length after trimming and refuses NUL and unpaired surrogates (a text
// column cannot hold them faithfully); this bound only caps the input.
const ProjectNameSchema = Type.String({
  maxLength: 1000,
  'x-document': { minLength: 1, maxLength: PROJECT_NAME_MAX_LENGTH, pattern: '\\S' },
  description: `1 to ${PROJECT_NAME_MAX_LENGTH} characters after trimming; stored trimmed. No NUL character or unpaired surrogate.`,
});
const TemplateIdSchema = Type.String({ maxLength: 100, description: 'A template id from the catalog.' });

const editableFields = {
  name: ProjectNameSchema,
  templateId: TemplateIdSchema,
  widthMm: DimensionSchema,
  heightMm: DimensionSchema,
  depthMm: DimensionSchema,
  artworkJson: EditorStateSchema,
};

const optional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };

const { name, templateId, ...createOptional } = editableFields;

export const CreateProjectBody = StrictObject(
  { name, templateId, ...optional(createOptional) },
  {
    description:
      'Each dimension resolves to the body value, then artworkJson.dimensions, then the template default. ' +
      'Without artworkJson a default EditorState is created from the template.',
    examples: [{ name: 'Spring mailer', templateId: 'mailer-box', widthMm: 320 }],
  },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const UpdateProjectBody = StrictObject(optional(editableFields), {
  description: 'Only the fields sent change. artworkJson, when sent, replaces the stored one.',
  examples: [{ name: 'Spring mailer v2' }],
});
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;

/**
 * In replies artworkJson is an open object: fast-json-stringify would otherwise write its keys in
 * schema order, and the interface promises the document back exactly as sent (key order too).
 * What it holds was validated against EditorState on the way in.
 */
const StoredEditorStateSchema = Type.Unsafe<EditorState>({
  type: 'object',
  additionalProperties: true,
  description: 'The EditorState exactly as sent, key order included.',
  'x-document': { $ref: '#/components/schemas/EditorState' },
});

export const ProjectSchema = Type.Object(
  {
    id: Id,
    userId: Id,
    name: Type.String({ minLength: 1, maxLength: PROJECT_NAME_MAX_LENGTH }),
    templateId: Type.String(),
    widthMm: Type.Number(),
    heightMm: Type.Number(),
    depthMm: Type.Number(),
    artworkJson: StoredEditorStateSchema,
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { $id: 'Project', title: 'Project', additionalProperties: false },
);

/** Response headers of every { project } answer (documented in OpenAPI from here). */
export const PROJECT_ETAG_HEADER = {
  etag: {
    type: 'string',
    description: 'The project\'s version as a strong entity tag, "<version>"; it changes exactly when the project changes.',
  },
} as const;

export const ProjectReply = Type.Object({ project: Type.Ref(ProjectSchema) }, { headers: PROJECT_ETAG_HEADER });

export const ProjectNotModified = Type.Null({
  description: 'Not modified: the If-None-Match ETag is the current one.',
  headers: PROJECT_ETAG_HEADER,
});

/** Request headers are open objects: only the named ones are described and checked. */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'Write only if the project is still at one of these versions: "*" or a comma-separated list of ETags ' +
        '("3", "4"). Weak tags (W/"3") never match. Otherwise 412 and nothing changes. Without it the last write wins.',
    }),
  ),
});

export const IfNoneMatchHeaders = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ description: 'The ETag of the copy the client holds: 304 with no body while it is current.' }),
  ),
});

export const DuplicateProjectBody = StrictObject(
  { name: Type.Optional(ProjectNameSchema) },
  {
    description: `Default name: "<name> (copy)", cut to ${PROJECT_NAME_MAX_LENGTH} characters. Versions are not copied.`,
    examples: [{ name: 'Spring mailer, kraft variant' }],
  },
);
export type DuplicateProjectBody = Static<typeof DuplicateProjectBody>;

/** Versions are numbered from 1 like the project's version; the column is a 32-bit integer. */
export const VersionParams = StrictObject({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  version: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'A version number from the list.' }),
});

const versionSummaryProperties = {
  version: Type.Integer({ description: 'The project\'s version while this state was current.' }),
  name: Type.String(),
  templateId: Type.String(),
  widthMm: Type.Number(),
  heightMm: Type.Number(),
  depthMm: Type.Number(),
  createdAt: Type.String({
    format: 'date-time',
    description: 'When this state was saved (the project\'s updatedAt while it was current), ISO 8601 UTC.',
  }),
};

export const ProjectVersionSummarySchema = Type.Object(versionSummaryProperties, {
  title: 'ProjectVersionSummary',
  additionalProperties: false,
});

export const ProjectVersionSchema = Type.Object(
  { ...versionSummaryProperties, artworkJson: StoredEditorStateSchema },
  { title: 'ProjectVersion', additionalProperties: false },
);

export const VersionListReply = Type.Object({
  versions: Type.Array(ProjectVersionSummarySchema, { description: 'Newest first; the latest 50 are kept.' }),
  total: Type.Integer(),
});

export const VersionReply = Type.Object({ version: ProjectVersionSchema });

export const ProjectListReply = Type.Object({
  projects: Type.Array(Type.Ref(ProjectSchema), { description: 'Newest update first (updatedAt, then id, descending).' }),
  total: Type.Integer({ description: 'All projects, whatever the page.' }),
  nextCursor: Type.Optional(NextCursor),
});
