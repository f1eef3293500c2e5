// Building blocks shared by every route schema.
import { Type, type ObjectOptions, type StringOptions, type TProperties, type TSchema } from '@sinclair/typebox';

/** An object that rejects unknown fields (Ajv runs with removeAdditional: false). */
export const StrictObject = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** One of these strings, as one { type: 'string', enum } (a union of literals would be an anyOf). */
export const StringEnum = <T extends readonly string[]>(values: T, options: StringOptions = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const EmptyQuery = StrictObject({});

/** A route that takes no body: none, `{}` or `null` is accepted; any field is a 400. */
export const NoBody = Type.Union([StrictObject({}), Type.Null()], {
  description: 'No body. An empty object is tolerated; any field is rejected.',
});

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const IsoDateTime = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' });

export const Id = Type.String({ minLength: 1, maxLength: 64, description: 'Opaque cuid2 identifier.' });

export const IdParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const ApiErrorSchema = Type.Object(
  {
    statusCode: Type.Integer({ description: 'HTTP status code.' }),
    error: Type.String({ description: 'HTTP status text.' }),
    message: Type.String(),
  },
  { $id: 'ApiError', title: 'ApiError', additionalProperties: false },
);

/** The request header of a creating POST that may be repeated safely. */
export const IdempotencyKeyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Repeat the same request safely for 24 h: the same key with the same request on this route answers 200 with the first ' +
        'answer; the key with another request is a 409. 1–255 visible ASCII characters, scoped to the account.',
    }),
  ),
});

/** Error responses, referenced by status so OpenAPI shows them and serialization stays fast. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, Type.Ref(ApiErrorSchema)]));
