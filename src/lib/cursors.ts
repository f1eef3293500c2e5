// Paging cursors: a (createdAt, id) position and its HMAC, so a cursor this service did not issue
// is refused rather than interpreted. Keyset positions stay valid while rows are inserted or
// deleted: a page never repeats or skips a row that existed when the first page was read. The
// account lists key their cursors per list and account, so a cursor from another list or another
// account fails its signature like a forged one.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors.js';
import { isRecordId } from './ids.js';

const CURSOR = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{22})$/;
const INVALID_CURSOR = 'Invalid cursor.';

export interface ListPosition {
  createdAt: Date;
  id: string;
}

export interface CursorCodec {
  encode(position: ListPosition): string;
  /** The position the cursor names; a 400 for any cursor this codec did not issue. */
  decode(cursor: string): ListPosition;
}

export function createCursorCodec(secret: string, invalidMessage = INVALID_CURSOR): CursorCodec {
  const key = createHmac('sha256', secret).update('paging-cursor').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16);

  return {
    encode(position) {
      const payload = Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode(cursor) {
      const parts = CURSOR.exec(cursor);
      if (!parts) throw badRequest(invalidMessage);
      const [, payload = '', mac = ''] = parts;
      // Compared as text: base64url has several spellings of the same bytes (the last character's
      // unused bits), and only the one this service wrote is its cursor.
      const presented = Buffer.from(mac);
      const expected = Buffer.from(sign(payload).toString('base64url'));
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) throw badRequest(invalidMessage);
      // Signed by this service, so well-formed; checked anyway rather than trusted blindly.
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw badRequest(invalidMessage);
      }
      const [createdAt, id] = Array.isArray(decoded) ? (decoded as unknown[]) : [];
      const at = typeof createdAt === 'string' ? new Date(createdAt) : new Date(Number.NaN);
      if (typeof id !== 'string' || !isRecordId(id) || Number.isNaN(at.getTime())) throw badRequest(invalidMessage);
      return { createdAt: at, id };
    },
  };
}

/** The cursors of one account's list: 400 "Invalid cursor." for any cursor not issued for both. */
export function createListCursors(secret: string) {
  return (list: string, userId: string): CursorCodec => createCursorCodec(`${secret}\u0000${list}\u0000${userId}`);
}

export type ListCursorFactory = ReturnType<typeof createListCursors>;

/** One page of rows read with one extra: the page, and the cursor of its last row when more follow. */
export function pageOf<T extends ListPosition>(rows: T[], limit: number, cursors: CursorCodec): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? cursors.encode({ createdAt: last.createdAt, id: last.id }) : null };
}

/**
 * Prisma's condition and order of a keyset page on (createdAt, id): the rows strictly after `after`
 * (all of them without one), newest first, or oldest first with 'asc'.
 */
export function keysetPage(after: ListPosition | null | undefined, order: 'desc' | 'asc' = 'desc') {
  const past = <T>(value: T) => (order === 'desc' ? { lt: value } : { gt: value });
  return {
    where: after ? { OR: [{ createdAt: past(after.createdAt) }, { createdAt: after.createdAt, id: past(after.id) }] } : {},
    orderBy: [{ createdAt: order }, { id: order }],
  };
}
