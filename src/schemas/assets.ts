import { Type } from '@sinclair/typebox';
import type { Asset } from '../repositories/assets.js';
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
    createdAt: IsoDateTime,
  },
  { $id: 'Asset', title: 'Asset', additionalProperties: false },
);

export const AssetReply = Type.Object({ asset: Type.Ref(AssetSchema) });

export const AssetListReply = Type.Object({
  assets: Type.Array(Type.Ref(AssetSchema), { description: 'Newest first.' }),
  total: Type.Integer(),
});

// No pattern here: a malformed name must be the same 404 as an unknown one, not a 400.
export const FileParams = StrictObject({ name: Type.String({ description: 'The stored name of an asset.' }) });

export const FileBytes = Type.String({ format: 'binary', description: 'The stored bytes.' });

export const NotModified = Type.Null({ description: 'Not modified: the If-None-Match ETag is current.' });

/** url is PUBLIC_BASE_URL (no trailing slash) + "/files/" + name, or the bare path without one. */
export const toAssetDto = (asset: Asset, publicBaseUrl: string | null) => ({
  id: asset.id,
  userId: asset.userId,
  name: asset.name,
  url: `${publicBaseUrl ?? ''}/files/${asset.name}`,
  filename: asset.filename,
  mimeType: asset.mimeType,
  sizeBytes: asset.sizeBytes,
  createdAt: asset.createdAt.toISOString(),
});
