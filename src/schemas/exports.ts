import { Type, type Static } from '@sinclair/typebox';
import { EXPORT_FORMATS, EXPORT_OPTION_SCHEMAS, type ExportFormat } from '../services/export-render.js';
import { DielineResponse } from './dielines.js';
import { Id, IsoDateTime, Nullable, StrictObject } from './common.js';
import { FindingSchema } from './print.js';

export const ExportErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
    findings: Type.Optional(
      Type.Array(FindingSchema, { description: "A print refused for preflight errors: the preflight's error findings." }),
    ),
  },
  { title: 'ExportError', additionalProperties: false, description: 'Why the export failed, as an ApiError.' },
);

export const ExportSchema = Type.Object(
  {
    id: Id,
    projectId: Id,
    projectVersion: Type.Integer({ description: 'The project version rendered: the one current when the export was requested.' }),
    format: Type.String({ enum: [...EXPORT_FORMATS] }),
    options: Type.Object({}, { additionalProperties: true, description: 'The options as requested.' }),
    status: Type.String({ enum: ['queued', 'running', 'succeeded', 'failed'] }),
    attempts: Type.Integer({
      minimum: 0,
      description: 'Render attempts started. 2 or more once another worker took the export over (its worker stopped) or after a retry.',
    }),
    createdAt: IsoDateTime,
    startedAt: Nullable(IsoDateTime),
    finishedAt: Nullable(IsoDateTime),
    error: Nullable(ExportErrorSchema),
    downloadUrl: Nullable(
      Type.String({ description: 'Where the file is downloaded from until expiresAt (no credentials needed); set once succeeded.' }),
    ),
    expiresAt: Nullable(
      Type.String({ format: 'date-time', description: '24 h after the export finished; the row and file are removed then.' }),
    ),
  },
  { $id: 'Export', title: 'Export', additionalProperties: false },
);

const OPTIONS_OF: Record<ExportFormat, string> = {
  'print-pdf': 'GET /projects/{id}/print',
  'preview-png': 'GET /projects/{id}/preview',
  'model-glb': 'GET /projects/{id}/model',
  'dieline-svg': 'GET /projects/{id}/dieline (bleedMm)',
  'dieline-pdf': 'GET /projects/{id}/dieline (bleedMm)',
  'dieline-dxf': 'GET /projects/{id}/dieline (bleedMm)',
  'dieline-cf2': 'GET /projects/{id}/dieline (bleedMm)',
};

/** One format's request: its options are the synchronous route's query as JSON values (never text). */
const exportRequestOf = <F extends ExportFormat>(format: F) =>
  StrictObject(
    {
      format: Type.Literal(format),
      options: Type.Optional({
        ...EXPORT_OPTION_SCHEMAS[format],
        description: `The query of ${OPTIONS_OF[format]}, as JSON values.`,
      } as (typeof EXPORT_OPTION_SCHEMAS)[F]),
    },
    { title: `${format} export` },
  );

const EXPORT_REQUESTS = EXPORT_FORMATS.map(exportRequestOf);

/**
 * One branch per format, chosen by `format` (a discriminator: only that branch is checked, so an
 * unknown option is named as such). `format` is also checked first on its own, so an unknown
 * format names every allowed one.
 */
export const CreateExportBody = Type.Unsafe<Static<(typeof EXPORT_REQUESTS)[number]>>({
  type: 'object',
  required: ['format'],
  properties: { format: Type.String({ enum: [...EXPORT_FORMATS], description: 'What to render.' }) },
  oneOf: EXPORT_REQUESTS,
  discriminator: { propertyName: 'format' },
});

/**
 * The request body as the OpenAPI document states it: one of the formats' requests (their
 * options as their fields, for the client's types). The discriminator stays the validator's:
 * OpenAPI's selects named schemas only.
 */
export const CREATE_EXPORT_DOCUMENT = {
  requestBody: {
    required: true,
    content: { 'application/json': { schema: { oneOf: EXPORT_REQUESTS, description: 'What to render, and how.' } } },
  },
};

export const ExportReply = Type.Object({ export: Type.Ref(ExportSchema) });

export const ExportListQuery = StrictObject({
  projectId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'nextCursor of the previous page.' })),
});

export const ExportListReply = Type.Object({
  exports: Type.Array(Type.Ref(ExportSchema), { description: 'Newest first.' }),
  nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page.' })),
});

export const DownloadQuery = StrictObject({
  expires: Type.Integer({ minimum: 0, description: 'Unix time the link expires at.' }),
  signature: Type.String({ minLength: 1, maxLength: 100 }),
});

const binary = Type.String({ format: 'binary' });
// The dieline route's media types (every die format it gains), a print PDF, a PNG preview, a GLB model.
const downloadTypes = [
  ...Object.keys(DielineResponse.content).filter((type) => type !== 'application/json'),
  'application/pdf',
  'image/png',
  'model/gltf-binary',
];

export const DownloadResponse = {
  description: 'The exported file, as an attachment, in the media type of its format.',
  headers: {
    'content-disposition': Type.String({ description: 'attachment; filename="<template>-<L>x<W>x<H>…".' }),
  },
  content: Object.fromEntries([...new Set(downloadTypes)].map((type) => [type, { schema: binary }])),
};
