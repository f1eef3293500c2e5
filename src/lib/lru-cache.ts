// A least-recently-used cache bounded by entry count and by total size. A Map iterates in
// insertion order, so re-inserting on every hit keeps the least recently used entry first.

export interface LruCacheOptions<V> {
  maxEntries: number;
  maxBytes: number;
  sizeOf: (value: V) => number;
}

export interface LruCache<V> {
  get(key: string): V | undefined;
  /** Values larger than maxBytes are not kept. */
  set(key: string, value: V): void;
  readonly size: number;
  readonly bytes: number;
}

export function createLruCache<V>({ maxEntries, maxBytes, sizeOf }: LruCacheOptions<V>): LruCache<V> {
  const entries = new Map<string, { value: V; bytes: number }>();
  let totalBytes = 0;

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      remove(key);
      const bytes = sizeOf(value);
      if (maxEntries <= 0 || bytes > maxBytes) return;
      entries.set(key, { value, bytes });
      totalBytes += bytes;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && totalBytes <= maxBytes) break;
        remove(oldest);
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return totalBytes;
    },
  };
}
