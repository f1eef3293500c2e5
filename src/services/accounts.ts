// An account's lifecycle after sign-up: password change, sign-out everywhere, deletion. Every
// change that must reach all processes lives in the database: the token generation (read by the
// JWT guard on each request) and the rows themselves (keys are re-read within their lease).
import { badRequest, conflict, forbidden, MESSAGES, unauthorized } from '../errors.js';
import { checkPassword, type PasswordHasher } from '../lib/passwords.js';
import type { User, UserRepository } from '../repositories/users.js';
import type { FileStorage } from '../storage/index.js';
import { outwaitKeyLeases } from './api-keys.js';
import { assertPassword } from './auth.js';

export interface DeletedAccount {
  /** Stored files that could not be removed (the rows are gone, so no request can reach them). */
  unremovedFiles: string[];
}

/**
 * Removes the stored files of an account whose deleting transaction has committed. The one place
 * that does so: when the file-deletion outbox exists, the names are queued inside that
 * transaction instead (with the thumbnails) and this becomes the outbox's drain.
 */
export async function removeFilesOfDeletedAccount(storage: FileStorage, fileNames: readonly string[]): Promise<string[]> {
  const results = await Promise.allSettled(fileNames.map((name) => storage.delete(name)));
  return fileNames.filter((_name, index) => results[index]?.status === 'rejected');
}

export function createAccountService(users: UserRepository, passwords: PasswordHasher, storage: FileStorage) {
  /** The stored hash matches, or `error`. A password that could never have been stored fails unhashed. */
  async function assertCorrectPassword(account: User, password: string, error: () => Error): Promise<void> {
    if (checkPassword(password) !== null) throw error();
    const stored = await users.findByIdWithSecret(account.id);
    if (!stored) throw unauthorized(MESSAGES.invalidToken);
    if (!(await passwords.verify(password, stored.passwordHash))) throw error();
  }

  /**
   * Deletes the account's rows in one transaction, then its files, and resolves once its keys
   * fail on every process. Null when there was no such account; 409 for the last administrator.
   */
  async function deleteAccount(id: string): Promise<DeletedAccount | null> {
    const outcome = await users.deleteAccount(id);
    if (outcome.kind === 'missing') return null;
    if (outcome.kind === 'last-admin') throw conflict(MESSAGES.lastAdmin);
    const [unremovedFiles] = await Promise.all([removeFilesOfDeletedAccount(storage, outcome.fileNames), outwaitKeyLeases()]);
    return { unremovedFiles };
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

export type AccountService = ReturnType<typeof createAccountService>;
