import { Type } from '@sinclair/typebox';
import { Id, IsoDateTime, StrictObject } from './common.js';

export const UserSchema = Type.Object(
  {
    id: Id,
    email: Type.String({ format: 'email', maxLength: 254, examples: ['ada@example.com'] }),
    name: Type.String({ minLength: 1, maxLength: 100, examples: ['Ada Lovelace'] }),
    plan: Type.Union([Type.Literal('free'), Type.Literal('pro')], {
      description: 'free: up to 3 projects; pro: no project cap. Changed by an administrator.',
    }),
    role: Type.Union([Type.Literal('user'), Type.Literal('admin')], {
      description: 'admin: may use the /admin routes. Set with `npm run admin` or by another administrator.',
    }),
    createdAt: IsoDateTime,
  },
  { $id: 'User', title: 'User', additionalProperties: false },
);

const PASSWORD_FIELD = { maxLength: 256, description: '8 to 72 bytes in UTF-8, no NUL character.' } as const;

// Lengths are checked after trimming by the service, with clear messages; these bounds only cap input.
export const RegisterBody = StrictObject(
  {
    email: Type.String({
      maxLength: 320,
      description: 'Trimmed and lower-cased; at most 254 characters.',
      'x-document': { format: 'email', maxLength: 254 },
    }),
    password: Type.String({
      maxLength: 256,
      description:
        '8 to 72 bytes in UTF-8, no NUL character (JSON Schema counts characters, not bytes: 8 to 72 ASCII characters are always right).',
      'x-document': { minLength: 8, maxLength: 72 },
    }),
    name: Type.String({
      maxLength: 400,
      description: '1 to 100 characters after trimming.',
      'x-document': { minLength: 1, maxLength: 100, pattern: '\\S' },
    }),
  },
  { examples: [{ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Lovelace' }] },
);

export const LoginBody = StrictObject(
  {
    email: Type.String({ maxLength: 320 }),
    password: Type.String({ maxLength: 256 }),
  },
  { examples: [{ email: 'ada@example.com', password: 'correct horse battery' }] },
);

export const AuthReply = Type.Object({
  user: Type.Ref(UserSchema),
  token: Type.String({ description: 'JWT (HS256) for the Authorization: Bearer header; valid 7 days.' }),
});

export const UserReply = Type.Object({ user: Type.Ref(UserSchema) });

export const ChangePasswordBody = StrictObject(
  {
    currentPassword: Type.String({ maxLength: 256 }),
    newPassword: Type.String({ ...PASSWORD_FIELD, description: `${PASSWORD_FIELD.description} Must differ from currentPassword.` }),
  },
  { examples: [{ currentPassword: 'correct horse battery', newPassword: 'battery staple horse' }] },
);

export const TokenReply = Type.Object({
  token: Type.String({ description: 'A new JWT for this account; every token issued before it no longer works.' }),
});

export const DeleteAccountBody = StrictObject(
  { password: Type.String({ maxLength: 256 }) },
  { examples: [{ password: 'correct horse battery' }] },
);
