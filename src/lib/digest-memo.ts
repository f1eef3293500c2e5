// Remembers, per connection, the digest of the last API key presented on it. A client on a
// keep-alive connection sends the same key with every request, and SHA-256 through OpenSSL was
// the largest part of the /v1 key check. Only the digest is remembered, never whether the key is
// valid: every request still goes through the key's lease (lib/lease-cache.ts).
// The previous request on a connection may have come from another client (a proxy pools its
// upstream connections), so the keys are compared in constant time: in JavaScript, because
// crypto.timingSafeEqual needs both keys as Buffers, and encoding one per request measured as
// costly as the hash it replaces. A remembered key lives as long as its connection, like the
// headers it came in.

interface Memo {
  key: string;
  digest: string;
}

/**
 * digest(key), reusing the digest of the key last seen in the same scope (a connection) when it
 * is the same key. null (never remembered) when digest finds the key malformed.
 */
export type MemoizedDigest = (scope: object, key: string) => string | null;

/**
 * Equality whose time depends only on the length (public: keys have one fixed length), not on
 * where the strings differ. Every UTF-16 unit is compared, so equal means identical.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

export function createDigestMemo(digest: (key: string) => string | null): MemoizedDigest {
  // Entries go with their connection: nothing to evict.
  const memos = new WeakMap<object, Memo>();
  return (scope, key) => {
    const memo = memos.get(scope);
    if (memo !== undefined && constantTimeEqual(memo.key, key)) return memo.digest;
    const fresh = digest(key);
    if (fresh !== null) memos.set(scope, { key, digest: fresh });
    return fresh;
  };
}
