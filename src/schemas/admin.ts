// The /admin surface: account listing and management for administrators.
import { Type } from '@sinclair/typebox';
import type { UserWithCounts } from '../repositories/users.js';
import { UserSchema } from './auth.js';
import { StrictObject } from './common.js';
import { toUserDto } from './dto.js';

export const AdminUserSchema = Type.Object(
  {
    ...UserSchema.properties,
    counts: Type.Object(
      {
        projects: Type.Integer({ minimum: 0 }),
        assets: Type.Integer({ minimum: 0 }),
        apiKeys: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false, description: 'What the account owns.' },
    ),
  },
  { $id: 'AdminUser', title: 'AdminUser', additionalProperties: false },
);

export const ListUsersQuery = StrictObject({
  q: Type.Optional(Type.String({ maxLength: 254, description: 'Case-insensitive substring of the email.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100; default 20.' })),
  cursor: Type.Optional(
    Type.String({ maxLength: 300, description: 'The nextCursor of the previous page, as it was returned (opaque).' }),
  ),
});

export const UserListReply = Type.Object({
  users: Type.Array(Type.Ref(AdminUserSchema), { description: 'Newest account first.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
});

export const AdminUserReply = Type.Object({ user: Type.Ref(AdminUserSchema) });

export const UpdateUserBody = StrictObject(
  {
    plan: Type.Optional(Type.Union([Type.Literal('free'), Type.Literal('pro')])),
    role: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('admin')])),
  },
  { minProperties: 1, examples: [{ plan: 'pro' }, { role: 'admin' }] },
);

export const toAdminUserDto = (user: UserWithCounts) => ({ ...toUserDto(user), counts: user.counts });
