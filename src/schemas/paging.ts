import { Type } from '@sinclair/typebox';
import { StrictObject } from './common.js';

export const PageLimit = Type.Integer({ minimum: 1, maximum: 100, description: 'Page size; without it the list answers whole.' });
export const PageCursor = Type.String({ minLength: 1, maxLength: 300, description: 'nextCursor of the previous page.' });

export const ListPageQuery = StrictObject({ limit: Type.Optional(PageLimit), cursor: Type.Optional(PageCursor) });

export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Present when limit was given: pass it as cursor for the next page; null on the last page.',
});
