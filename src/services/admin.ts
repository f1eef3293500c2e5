// What administrators do to accounts: list and search them, read one, change its plan or role.
// (Deleting one is the account service's deleteAccount.) The role rules live in the repository's
// transactions; this layer turns their outcomes into statuses.
import { badRequest, conflict, MESSAGES, notFound } from '../errors.js';
import { foundOr404, isRecordId } from '../lib/ids.js';
import { createCursorCodec, pageOf } from '../lib/cursors.js';
import { isStorableText } from '../lib/text.js';
import type {
  AccountChanges,
  AccountSelector,
  User,
  UserRepository,
  UserWithCounts,
} from '../repositories/users.js';
import { normalizeEmail } from './auth.js';

export const USER_PAGE_DEFAULT = 20;

export interface UserPage {
  users: UserWithCounts[];
  /** Opaque: pass it back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

function emailFilter(q: string | undefined): string | null {
  const needle = (q ?? '').trim().toLowerCase();
  if (needle === '') return null;
  // PostgreSQL text cannot hold NUL; a lone surrogate could match nothing stored.
  if (!isStorableText(needle)) throw badRequest('q must not contain NUL or unpaired surrogate characters.');
  return needle;
}

export function createAdminService(users: UserRepository, cursorSecret: string) {
  const cursors = createCursorCodec(cursorSecret, MESSAGES.invalidCursor);

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
      const { page, nextCursor } = pageOf(await users.listPage({ emailContains: emailFilter(query.q), after, limit }), limit, cursors);
      return { users: page, nextCursor };
    },

    async getUser(id: string): Promise<UserWithCounts> {
      return foundOr404(id, MESSAGES.userNotFound, () => users.findWithCounts(id));
    },

    /** Plan changes apply from the next request: the project cap reads the plan under the owner's row lock. */
    async updateUser(id: string, changes: AccountChanges): Promise<User> {
      if (!isRecordId(id)) throw notFound(MESSAGES.userNotFound);
      return change({ id }, changes);
    },

    /** The admin command's grant and revoke. */
    setRoleByEmail(email: string, role: User['role']): Promise<User> {
      return change({ email: normalizeEmail(email) }, { role });
    },
  };
}
