// An account's lifecycle after sign-up: password change, sign-out everywhere, deletion. Every
// change that must reach all processes lives in the database: the token generation (read by the
// JWT guard on each request) and the rows themselves (keys are re-read within their lease).
import { badRequest, conflict, forbidden, MESSAGES, unauthorized } from '../errors.js';
import { checkPassword, type PasswordHasher } from '../lib/passwords.js';
import type { User, UserRepository } from '../repositories/users.js';
import { assertPassword } from './auth.js';
import type { FileJanitor } from './file-janitor.js';

export interface DeletedAccount {
  /** How many stored files could not be removed yet (they stay in the outbox for the next drain). */
  unremovedFiles: number;
}

export function createAccountService(users: UserRepository, passwords: PasswordHasher, fileJanitor: FileJanitor) {
  /** The stored hash matches, or `error`. A password that could never have been stored fails unhashed. */
  async function assertCorrectPassword(account: User, password: string, error: () => Error): Promise<void> {
    if (checkPassword(password) !== null) throw error();
    const stored = await users.findWithSecret({ id: account.id });
    // Gone, or its tokens revoked since the guard read it (a concurrent password change or
    // sign-out): the request's token is no longer valid, whatever the password says.
    if (!stored || stored.tokenGeneration !== account.tokenGeneration) throw unauthorized(MESSAGES.invalidToken);
    if (!(await passwords.verify(password, stored.passwordHash))) throw error();
  }

  /**
   * Deletes the account's rows in one transaction (its files recorded in the outbox, its keys failing on every process from
   * then on), then the files. Null when there was no such account; 409 for the last administrator.
   */
  async function deleteAccount(id: string): Promise<DeletedAccount | null> {
    const outcome = await users.deleteAccount(id);
    if (outcome.kind === 'missing') return null;
    if (outcome.kind === 'last-admin') throw conflict(MESSAGES.lastAdmin);
    const removal = await fileJanitor.removeRecorded(outcome.fileNames);
    return { unremovedFiles: removal.failed };
  }

  return {
    /** Sets a new password and returns the account's new token generation: every older token stops working. */
    async changePassword(account: User, input: { currentPassword: string; newPassword: string }): Promise<number> {
      assertPassword(input.newPassword, 'newPassword');
      if (input.newPassword === input.currentPassword) throw badRequest(MESSAGES.samePassword);
      await assertCorrectPassword(account, input.currentPassword, () => forbidden(MESSAGES.currentPasswordIncorrect));
      const passwordHash = await passwords.hash(input.newPassword);
      // Written only if no other change or sign-out moved the generation since this request's token was checked.
      const generation = await users.replacePassword(account.id, account.tokenGeneration, passwordHash);
      if (generation === null) throw unauthorized(MESSAGES.invalidToken);
      return generation;
    },

    /** Every token issued so far stops working, on every process from the next request. */
    async endSessions(account: User): Promise<void> {
      if (!(await users.advanceTokenGeneration(account.id))) throw unauthorized(MESSAGES.invalidToken);
    },

    /** The caller's own account, after checking its password. Gone already (a concurrent deletion): 401. */
    async deleteOwnAccount(account: User, password: string): Promise<DeletedAccount> {
      await assertCorrectPassword(account, password, () => forbidden(MESSAGES.passwordIncorrect));
      const deleted = await deleteAccount(account.id);
      if (!deleted) throw unauthorized(MESSAGES.invalidToken);
      return deleted;
    },

    deleteAccount,
  };
}
