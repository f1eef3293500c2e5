// The log lines of an account deletion, whoever asked for it (the owner or an administrator).
import type { FastifyBaseLogger } from 'fastify';
import type { DeletedAccount } from '../services/accounts.js';

export function logAccountDeletion(log: FastifyBaseLogger, who: { userId: string; adminId?: string }, deleted: DeletedAccount) {
  log.info(who, who.adminId ? 'account deleted by an administrator' : 'account deleted by its owner');
  if (deleted.unremovedFiles > 0) {
    log.warn(
      { ...who, unremovedFiles: deleted.unremovedFiles },
      'files of a deleted account could not be removed yet; the file janitor retries them',
    );
  }
}
