// Developer keys: issue, list (the full key, unsealed), revoke, and verify a presented key. A
// presented key is looked up by its digest on every request (one statement on the unique index, with its owner), so a
// revoked key fails on every process from the next request.
import { createId, foundOr404 } from '../lib/ids.js';
import { conflict, MESSAGES } from '../errors.js';
import { digestApiKey, digestsEqual, generateApiKey, isWellFormedApiKey } from '../lib/api-key-crypto.js';
import { SealedSecretError, type SecretSealer } from '../lib/secret-sealer.js';
import type { ApiKeyRepository, SealedApiKey, VerifiedApiKey } from '../repositories/api-keys.js';

export type ApiKey = Pick<SealedApiKey, 'id' | 'userId' | 'createdAt'> & { key: string };

/** API keys one account may hold. */
export const API_KEY_LIMIT = 20;

export function createApiKeyService(keys: ApiKeyRepository, sealer: SecretSealer) {
  /** Opens a stored key and checks it against its digest, so the list never shows a key that would not work. */
  function unseal(row: SealedApiKey): ApiKey {
    const key = sealer.open(row.sealedKey, row.id);
    if (!digestsEqual(digestApiKey(key), row.keyDigest)) throw new SealedSecretError();
    return { id: row.id, userId: row.userId, key, createdAt: row.createdAt };
  }

  return {
    /** 409 once the account holds API_KEY_LIMIT keys. */
    async issue(userId: string): Promise<ApiKey> {
      const id = createId();
      const key = generateApiKey();
      const row = await keys.createCapped({ id, userId, keyDigest: digestApiKey(key), sealedKey: sealer.seal(key, id) }, API_KEY_LIMIT);
      if (row === 'limit-reached') throw conflict(MESSAGES.apiKeyLimit);
      return { id: row.id, userId: row.userId, key, createdAt: row.createdAt };
    },

    async list(userId: string): Promise<ApiKey[]> {
      return (await keys.listSealed(userId)).map(unseal);
    },

    /** 404 for an unknown key and for another account's key alike. */
    async revoke(userId: string, id: string): Promise<void> {
      await foundOr404(id, MESSAGES.apiKeyNotFound, () => keys.deleteOwned(userId, id));
    },

    /** Revokes every key of the account (sign-out everywhere with apiKeys=true). */
    async revokeAll(userId: string): Promise<void> {
      await keys.deleteAllOwned(userId);
    },

    /** The key and its owner's account, or null when it is malformed (checked before any database work), unknown or revoked. */
    async verify(presented: string): Promise<VerifiedApiKey | null> {
      return isWellFormedApiKey(presented) ? keys.findWithOwnerByDigest(digestApiKey(presented)) : null;
    },
  };
}
