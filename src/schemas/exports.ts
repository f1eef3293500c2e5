import { Type } from '@sinclair/typebox';
import { EXPORT_FORMATS } from '../services/export-render.js';
import { DielineResponse } from './dielines.js';
import { Id, IsoDateTime, StrictObject } from './common.js';
import { FindingSchema } from './print.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

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

export const CreateExportBody = StrictObject({
  format: Type.String({ enum: [...EXPORT_FORMATS], description: 'What to render.' }),
  options: Type.Optional(
    Type.Object({}, {
      additionalProperties: true,
      description:
        "The synchronous route's query as JSON values: print-pdf → GET /projects/{id}/print (bleedMm, marks, dieline, colorSpace); " +
        'preview-png → /preview (width); model-glb → /model (textureSize); dieline-* → /dieline (bleedMm).',
    }),
  ),
});

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
