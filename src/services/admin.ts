// What administrators do to accounts: list and search them, read one, change its plan or role.
// (Deleting one is the account service's deleteAccount.) The role rules live in the repository's
// transactions; this layer turns their outcomes into statuses.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest, conflict, MESSAGES, notFound } from '../errors.js';
import { isStorableText } from '../lib/text.js';
import type {
  AccountChanges,
  AccountSelector,
  User,
  UserPosition,
  UserRepository,
  UserWithCounts,
} from '../repositories/users.js';
import { normalizeEmail } from './auth.js';

export const USER_PAGE_DEFAULT = 20;
const USER_ID = /^[a-z0-9]{1,64}$/;
const CURSOR = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{22})$/;

export interface UserPage {
  users: UserWithCounts[];
  /** Opaque: pass it back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Cursors name a (createdAt, id) position and carry an HMAC, so a cursor this service did not
 * issue is refused rather than interpreted. Keyset positions stay valid while rows are inserted
 * or deleted: a page never repeats or skips an account that existed when the first page was read.
 */
export function createCursorCodec(secret: string) {
  const key = createHmac('sha256', secret).update('admin-user-cursor').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16);

  return {
    encode(position: UserPosition): string {
      const payload = Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode(cursor: string): UserPosition {
      const parts = CURSOR.exec(cursor);
      if (!parts) throw badRequest(MESSAGES.invalidCursor);
      const [, payload = '', mac = ''] = parts;
      // Compared as text: base64url has several spellings of the same bytes (the last character's
      // unused bits), and only the one this service wrote is its cursor.
      const presented = Buffer.from(mac);
      const expected = Buffer.from(sign(payload).toString('base64url'));
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) throw badRequest(MESSAGES.invalidCursor);
      // Signed by this service, so well-formed; checked anyway rather than trusted blindly.
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw badRequest(MESSAGES.invalidCursor);
      }
      const [createdAt, id] = Array.isArray(decoded) ? (decoded as unknown[]) : [];
      const at = typeof createdAt === 'string' ? new Date(createdAt) : new Date(Number.NaN);
      if (typeof id !== 'string' || !USER_ID.test(id) || Number.isNaN(at.getTime())) throw badRequest(MESSAGES.invalidCursor);
      return { createdAt: at, id };
    },
  };
}

function emailFilter(q: string | undefined): string | null {
  const needle = (q ?? '').trim().toLowerCase();
  if (needle === '') return null;
  // PostgreSQL text cannot hold NUL; a lone surrogate could match nothing stored.
  if (!isStorableText(needle)) throw badRequest('q must not contain NUL or unpaired surrogate characters.');
  return needle;
}

export function createAdminService(users: UserRepository, cursorSecret: string) {
  const cursors = createCursorCodec(cursorSecret);

  async function change(target: AccountSelector, changes: AccountChanges): Promise<User> {
    const outcome = await users.changeAccount(target, changes);
    if (outcome.kind === 'missing') throw notFound(MESSAGES.userNotFound);
    if (outcome.kind === 'last-admin') throw conflict(MESSAGES.lastAdmin);
    return outcome.user;
  }

  return {
    async listUsers(query: { q?: string; limit?: number; cursor?: string }): Promise<UserPage> {
      const limit = query.limit ?? USER_PAGE_DEFAULT;
      const after = query.cursor === undefined ? null : cursors.decode(query.cursor);
      const rows = await users.listPage({ emailContains: emailFilter(query.q), after, limit });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { users: page, nextCursor: rows.length > limit && last ? cursors.encode(last) : null };
    },

    async getUser(id: string): Promise<UserWithCounts> {
      const user = USER_ID.test(id) ? await users.findWithCounts(id) : null;
      if (!user) throw notFound(MESSAGES.userNotFound);
      return user;
    },

    /** Plan changes apply from the next request: the project cap reads the plan under the owner's row lock. */
    async updateUser(id: string, changes: AccountChanges): Promise<User> {
      if (!USER_ID.test(id)) throw notFound(MESSAGES.userNotFound);
      return change({ id }, changes);
    },

    /** The admin command's grant and revoke. */
    setRoleByEmail(email: string, role: User['role']): Promise<User> {
      return change({ email: normalizeEmail(email) }, { role });
    },

    /** Unknown ids are answered without a query. */
    isUserId: (id: string) => USER_ID.test(id),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
