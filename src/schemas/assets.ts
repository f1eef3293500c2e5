import { Type } from '@sinclair/typebox';
import { NextCursor } from './paging.js';
import type { Asset } from '../repositories/assets.js';
import { BarcodeFactsSchema } from './barcodes.js';
import { Id, IsoDateTime, StrictObject } from './common.js';

export const AssetSchema = Type.Object(
  {
    id: Id,
    userId: Id,
    name: Type.String({
      description: 'Stored file name, unguessable: a cuid2 and the extension of the detected type.',
      examples: ['tz4a98xxat96iws9zmbrgj3a.png'],
    }),
    url: Type.String({
      description: 'Where GET /files/:name serves the bytes: PUBLIC_BASE_URL + "/files/" + name, or the path alone.',
    }),
    filename: Type.String({
      maxLength: 255,
      description: "The client's original file name without its directory part or control characters.",
    }),
    mimeType: Type.String({ description: 'The type detected from the content, e.g. image/png or image/svg+xml.' }),
    sizeBytes: Type.Integer({ minimum: 0, description: 'Stored size in bytes (at most 26,214,400).' }),
    widthPx: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description:
        'Width in pixels as the image is shown (EXIF orientation applied; ' +
        'SVG: its width or viewBox width, rounded); null when undeterminable.',
    }),
    heightPx: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'Height in pixels, as widthPx.',
    }),
    dpi: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()], {
      description:
        'The resolution the file itself records (JPEG JFIF/EXIF, PNG pHYs, …), ' +
        'in pixels per inch; null when it records none (always for SVG). Never a guess.',
    }),
    colorSpace: Type.Union([Type.Literal('srgb'), Type.Literal('cmyk'), Type.Literal('gray'), Type.Literal('other')], {
      description: 'The colour space of the pixels: srgb (RGB, 8 or 16 bit), cmyk, gray, or other.',
    }),
    hasAlpha: Type.Boolean({ description: 'Whether the image has an alpha channel.' }),
    sha256: Type.Union([Type.String({ pattern: '^[0-9a-f]{64}$' }), Type.Null()], {
      description:
        'SHA-256 of the stored bytes, lowercase hex. ' +
        'Null only for a file stored before this field existed, until the start-up backfill has read it.',
    }),
    thumbnailUrl: Type.Union([Type.String(), Type.Null()], {
      description:
        'A WebP preview, longer side at most 512 px (never upscaled), served by GET /files/:name under its own name; same base rule as ' +
        'url. Null only while the backfill has not reached a file stored before thumbnails existed, or when that old file cannot be ' +
        'decoded.',
    }),
    barcode: Type.Union([BarcodeFactsSchema, Type.Null()], {
      description: 'Set when the service made this asset as a barcode (POST /barcodes): the symbol as made; null for uploads.',
    }),
    createdAt: IsoDateTime,
  },
  { $id: 'Asset', title: 'Asset', additionalProperties: false },
);

export const AssetReply = Type.Object({ asset: Type.Ref(AssetSchema) });

export const AssetListReply = Type.Object({
  assets: Type.Array(Type.Ref(AssetSchema), { description: 'Newest first.' }),
  total: Type.Integer({ description: 'All assets, whatever the page.' }),
  nextCursor: Type.Optional(NextCursor),
});

// No pattern here: an id of another form is the same 404 as an unknown one.
export const AssetParams = StrictObject({ id: Type.String({ description: "The asset's id." }) });

// No pattern here: a malformed name must be the same 404 as an unknown one, not a 400.
export const FileParams = StrictObject({
  name: Type.String({ description: "The stored name of an asset, or of an asset's thumbnail (<stem>-thumb.webp)." }),
});

export const FileBytes = Type.String({ format: 'binary', description: 'The stored bytes.' });

const BINARY = { type: 'string', format: 'binary' } as const;

/** The upload's multipart body, for the OpenAPI document (the route reads the parts itself). */
export const UPLOAD_OPERATION = {
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          additionalProperties: false,
          properties: { file: { ...BINARY, description: 'The image, at most 25 MB (26,214,400 bytes), of an image/* type.' } },
        },
        encoding: { file: { contentType: 'image/*' } },
      },
    },
  },
};

const FILE_HEADERS = {
  etag: {
    required: true,
    description: 'Strong validator "<name>-<size>"; send it in If-None-Match for a 304.',
    schema: { type: 'string' },
  },
  'cache-control': {
    required: true,
    description: 'public, max-age=31536000, immutable: a stored file never changes.',
    schema: { type: 'string' },
  },
  'content-security-policy': {
    required: true,
    description: "default-src 'none'; style-src 'unsafe-inline'; sandbox — nothing in a served file can run.",
    schema: { type: 'string' },
  },
  'x-content-type-options': { required: true, description: 'nosniff', schema: { type: 'string' } },
};

/** The raw file reply, for the OpenAPI document (its string schema would otherwise read as JSON). */
export const FILE_OPERATION = {
  responses: {
    '200': {
      description: 'The stored bytes, with the stored Content-Type, an ETag and immutable caching.',
      headers: FILE_HEADERS,
      content: { 'image/*': { schema: BINARY } },
    },
    '304': { headers: FILE_HEADERS },
  },
};

export const NotModified = Type.Null({ description: 'Not modified: the If-None-Match ETag is current.' });

const fileUrl = (name: string, publicBaseUrl: string | null) => `${publicBaseUrl ?? ''}/files/${name}`;

/** url is PUBLIC_BASE_URL (no trailing slash) + "/files/" + name, or the bare path without one. */
export const toAssetDto = (asset: Asset, publicBaseUrl: string | null) => ({
  id: asset.id,
  userId: asset.userId,
  name: asset.name,
  url: fileUrl(asset.name, publicBaseUrl),
  filename: asset.filename,
  mimeType: asset.mimeType,
  sizeBytes: asset.sizeBytes,
  widthPx: asset.widthPx,
  heightPx: asset.heightPx,
  dpi: asset.dpi,
  colorSpace: asset.colorSpace,
  hasAlpha: asset.hasAlpha,
  sha256: asset.sha256,
  thumbnailUrl: asset.thumbnailName ? fileUrl(asset.thumbnailName, publicBaseUrl) : null,
  barcode: asset.barcode,
  createdAt: asset.createdAt.toISOString(),
});
