// Cursors of the account lists (projects, assets, exports, webhooks, deliveries, keys, shares): the
// signed (createdAt, id) position of the shared codec, keyed per list and account, so a cursor
// from another list or another account fails its signature like a forged one.
import { createCursorCodec } from '../services/admin.js';
import { HttpError, badRequest } from '../errors.js';

export const INVALID_CURSOR = 'Invalid cursor.';

export interface ListPosition {
  createdAt: Date;
  id: string;
}

export interface ListCursors {
  encode(position: ListPosition): string;
  /** The position the cursor names; 400 "Invalid cursor." for any cursor not issued for this list and account. */
  decode(cursor: string): ListPosition;
}

export function createListCursors(secret: string) {
  return (list: string, userId: string): ListCursors => {
    const codec = createCursorCodec(`${secret}\u0000${list}\u0000${userId}`);
    return {
      encode: (position) => codec.encode(position),
      decode(cursor) {
        try {
          return codec.decode(cursor);
        } catch (error) {
          if (error instanceof HttpError && error.statusCode === 400) throw badRequest(INVALID_CURSOR);
          throw error;
        }
      },
    };
  };
}

export type ListCursorFactory = ReturnType<typeof createListCursors>;

/** One page of rows read with one extra: the page, and the cursor of its last row when more follow. */
export function pageOf<T extends ListPosition>(rows: T[], limit: number, cursors: ListCursors): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? cursors.encode({ createdAt: last.createdAt, id: last.id }) : null };
}
