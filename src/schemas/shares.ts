// Share links: POST/GET /projects/:id/shares, DELETE /projects/:id/shares/:shareId, and the
// read-only model behind a link, GET /shared/:token/model.
import { Type } from '@sinclair/typebox';
import { NextCursor } from './paging.js';
import type { Share } from '../services/shares.js';
import { Id, IsoDateTime, StrictObject } from './common.js';

export const SHARE_DAYS_MAX = 365;

export const ShareSchema = Type.Object(
  {
    id: Id,
    url: Type.String({
      description:
        "The viewer link: PUBLIC_BASE_URL (or the request's origin) + " +
        '"/viewer?share=" + an unguessable token. Anyone with it sees the model, read-only.',
      examples: ['https://packaging.example.com/viewer?share=q3Jx0c3v5QeQ8mT9k1b2n3V4c5X6z7A8s9D0f1G2h3J'],
    }),
    createdAt: IsoDateTime,
    expiresAt: Type.Union([IsoDateTime, Type.Null()], { description: 'When the link stops working; null: until revoked.' }),
  },
  { $id: 'Share', title: 'Share', additionalProperties: false },
);

export const CreateShareBody = Type.Union(
  [
    StrictObject({
      expiresInDays: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: SHARE_DAYS_MAX,
          description: `Days until the link stops working (1–${SHARE_DAYS_MAX}); absent: no expiry.`,
        }),
      ),
    }),
    Type.Null(),
  ],
  { description: 'Optional. No body (or {}) makes a link without expiry.' },
);

export const ShareParams = StrictObject({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  shareId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const SharedModelParams = StrictObject({
  token: Type.String({ minLength: 1, maxLength: 100, description: 'The token of a share link.' }),
});

export const ShareReply = Type.Object({ share: Type.Ref(ShareSchema) });
export const ShareListReply = Type.Object({
  shares: Type.Array(Type.Ref(ShareSchema), { description: 'Newest first, expired links included.' }),
  nextCursor: Type.Optional(NextCursor),
});

export const toShareDto = (share: Share) => ({
  id: share.id,
  url: share.url,
  createdAt: share.createdAt.toISOString(),
  expiresAt: share.expiresAt ? share.expiresAt.toISOString() : null,
});
