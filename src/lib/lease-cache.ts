// A per-process lookup cache whose entries are leases: each result may be reused only while less
// than ttlMs has passed since its lookup STARTED. Whoever removes a row and tells a client so
// must first wait ttlMs after the removal committed (see waitOutLease); then every process, on
// any clock running at the same rate, has either seen the removal or let its lease expire:
// a lookup that started after the commit sees the removal, and one that started before it is
// at least ttlMs old by the time the client can ask again. Concurrent misses share one lookup.
// Null results are never kept beyond their own lookup.

export interface LeaseCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Monotonic milliseconds. */
  now?: () => number;
}

interface Lease<V> {
  startedAt: number;
  result: Promise<V | null>;
  /** Set once the lookup has resolved to a value, so a fresh lease can be read without waiting. */
  value?: V;
}

export interface LeaseCache<V> {
  /** The value for key, reusing a lease younger than ttlMs, otherwise from load(). */
  get(key: string, load: () => Promise<V | null>): Promise<V | null>;
  /** The value of a lease younger than ttlMs whose lookup has already resolved, else undefined. */
  peek(key: string): V | undefined;
  readonly size: number;
}

export function createLeaseCache<V>({ ttlMs, maxEntries, now = () => performance.now() }: LeaseCacheOptions): LeaseCache<V> {
  const leases = new Map<string, Lease<V>>();

  function forget(key: string, lease: Lease<V>) {
    if (leases.get(key) === lease) leases.delete(key);
  }

  return {
    get(key, load) {
      // Read the clock before load() sends its query: the lease must not outlive ttlMs from there.
      const at = now();
      const current = leases.get(key);
      if (current && at - current.startedAt < ttlMs) return current.result;
      if (current) leases.delete(key);
      else if (leases.size >= maxEntries) {
        const oldest = leases.keys().next();
        if (!oldest.done) leases.delete(oldest.value);
      }
      const lease: Lease<V> = { startedAt: at, result: load() };
      leases.set(key, lease);
      lease.result.then(
        (value) => {
          if (value === null) forget(key, lease);
          else lease.value = value;
        },
        () => forget(key, lease),
      );
      return lease.result;
    },
    peek(key) {
      const current = leases.get(key);
      return current && now() - current.startedAt < ttlMs ? current.value : undefined;
    },
    get size() {
      return leases.size;
    },
  };
}

/** Resolves once at least ms have passed on the monotonic clock (a timer alone may fire early). */
export async function waitOutLease(ms: number, now: () => number = () => performance.now()): Promise<void> {
  const until = now() + ms;
  for (let left = ms; left > 0; left = until - now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
  }
}
