import { Type } from '@sinclair/typebox';
import { NextCursor } from './paging.js';
import type { ApiKey } from '../services/api-keys.js';
import { Id, IsoDateTime } from './common.js';

export const ApiKeySchema = Type.Object(
  {
    id: Id,
    userId: Id,
    key: Type.String({
      pattern: '^pf_[0-9a-f]{48}$',
      description: 'Send as the x-api-key header on /v1 routes. Valid until revoked.',
      examples: ['pf_3f9c2a7d1e5b8c4f6a0d9e2b7c1f5a8d3e6b9c2f4a7d0e1b'],
    }),
    createdAt: IsoDateTime,
  },
  { $id: 'ApiKey', title: 'ApiKey', additionalProperties: false },
);

export const ApiKeyReply = Type.Object({ apiKey: Type.Ref(ApiKeySchema) });

export const ApiKeyListReply = Type.Object({
  apiKeys: Type.Array(Type.Ref(ApiKeySchema), { description: 'Newest first.' }),
  total: Type.Integer({ description: 'All keys, whatever the page.' }),
  nextCursor: Type.Optional(NextCursor),
});

export const toApiKeyDto = (apiKey: ApiKey) => ({
  id: apiKey.id,
  userId: apiKey.userId,
  key: apiKey.key,
  createdAt: apiKey.createdAt.toISOString(),
});
