// Developer keys: issue, list (the full key, unsealed), revoke, and verify a presented key.
// Verification reuses a lookup for at most KEY_LEASE_MS (lib/lease-cache.ts), and a revocation is
// confirmed only after that long, so a revoked key fails on every process from the next request.
import { createId, isRecordId } from '../lib/ids.js';
import { conflict, MESSAGES, notFound } from '../errors.js';
import { digestApiKey, digestsEqual, generateApiKey, isWellFormedApiKey } from '../lib/api-key-crypto.js';
import { SealedSecretError, type SecretSealer } from '../lib/secret-sealer.js';
import { createDigestMemo } from '../lib/digest-memo.js';
import { createLeaseCache, waitOutLease } from '../lib/lease-cache.js';
import type { ApiKeyOwner, ApiKeyRepository, SealedApiKey } from '../repositories/api-keys.js';

export interface ApiKey extends ApiKeyOwner {
  key: string;
  createdAt: Date;
}

/** How long one process may reuse a key lookup. Any code that deletes keys must wait it out before confirming. */
export const KEY_LEASE_MS = 250;
/** Allowance for clocks of different hosts running at slightly different rates. */
const CLOCK_MARGIN_MS = 25;
const MAX_CACHED_KEYS = 10_000;

/**
 * Resolves once no process can still accept a key deleted before the call: whatever deletes keys
 * (a revocation, an account deletion) awaits this before telling the client it is done.
 */
export const outwaitKeyLeases = (): Promise<void> => waitOutLease(KEY_LEASE_MS + CLOCK_MARGIN_MS);
/** API keys one account may hold. */
export const API_KEY_LIMIT = 20;

export function createApiKeyService(keys: ApiKeyRepository, sealer: SecretSealer) {
  /** The digest a key is looked up by, or null when it is malformed (no database work for those). */
  const lookupDigest = (presented: string) => (isWellFormedApiKey(presented) ? digestApiKey(presented) : null);
  const lookupDigestOnConnection = createDigestMemo(lookupDigest);
  // Keyed by digest, so the cache holds no key and its lookups compare no key.
  const owners = createLeaseCache<ApiKeyOwner>({
    ttlMs: KEY_LEASE_MS,
    maxEntries: MAX_CACHED_KEYS,
    // One owner object serves every request within a lease, so it is frozen.
    load: async (digest) => {
      const owner = await keys.findOwnerByDigest(digest);
      return owner && Object.freeze(owner);
    },
  });

  /** Opens a stored key and checks it against its digest, so the list never shows a key that would not work. */
  function unseal(row: SealedApiKey): ApiKey {
    const key = sealer.open(row.sealedKey, row.id);
    if (!digestsEqual(digestApiKey(key), row.keyDigest)) throw new SealedSecretError();
    return { id: row.id, userId: row.userId, key, createdAt: row.createdAt };
  }

  return {
    /** 409 once the account holds API_KEY_LIMIT keys. */
    async issue(userId: string): Promise<ApiKey> {
      if ((await keys.count(userId)) >= API_KEY_LIMIT) throw conflict(MESSAGES.apiKeyLimit);
      const id = createId();
      const key = generateApiKey();
      const row = await keys.create({ id, userId, keyDigest: digestApiKey(key), sealedKey: sealer.seal(key, id) });
      return { id: row.id, userId: row.userId, key, createdAt: row.createdAt };
    },

    async list(userId: string): Promise<ApiKey[]> {
      return (await keys.listSealed(userId)).map(unseal);
    },

    /** 404 for an unknown key and for another account's key alike. Resolves once no process can still accept the key. */
    async revoke(userId: string, id: string): Promise<void> {
      // Ids are cuid2; anything else (a NUL byte would even make PostgreSQL fail) names no key.
      if (!isRecordId(id)) throw notFound(MESSAGES.apiKeyNotFound);
      if (!(await keys.deleteOwned(userId, id))) throw notFound(MESSAGES.apiKeyNotFound);
      await outwaitKeyLeases();
    },

    /** Revokes every key of the account (sign-out everywhere with apiKeys=true); resolves once no process accepts them. */
    async revokeAll(userId: string): Promise<void> {
      await keys.deleteAllOwned(userId);
      await outwaitKeyLeases();
    },

    /**
     * Answers without waiting when it can: null for a malformed key, the owner for a key whose
     * lease is fresh and settled; undefined when only verify() can tell. `connection` scopes a
     * memo of the key's digest (lib/digest-memo.ts).
     */
    verifyNow(presented: string, connection?: object): ApiKeyOwner | null | undefined {
      const digest = connection ? lookupDigestOnConnection(connection, presented) : lookupDigest(presented);
      return digest === null ? null : owners.peek(digest);
    },

    /** The key's owner, or null when it is malformed (checked before any database work), unknown or revoked. */
    verify(presented: string): Promise<ApiKeyOwner | null> {
      const digest = lookupDigest(presented);
      return digest === null ? Promise.resolve(null) : owners.get(digest);
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
