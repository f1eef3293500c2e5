// A per-process lookup cache whose entries are leases: each result may be reused only while less
// than ttlMs has passed since its lookup STARTED. Whoever removes a row and tells a client so
// must first wait ttlMs after the removal committed (see waitOutLease); then every process, on
// any clock running at the same rate, has either seen the removal or let its lease expire:
// a lookup that started after the commit sees the removal, and one that started before it is
// at least ttlMs old by the time the client can ask again. Concurrent misses share one lookup.
// Null results are never kept beyond their own lookup.
//
// A key in use is looked up again shortly before its lease ends (refreshAheadMs), so under
// steady traffic no request waits for the database. The successor is a lease like any other,
// measured from the start of its own lookup; a null answer drops the key at once.

export interface LeaseCacheOptions<V> {
  ttlMs: number;
  maxEntries: number;
  /** Looks the key up at the source of truth: null when it does not exist. */
  load: (key: string) => Promise<V | null>;
  /** How long before a lease ends a request starts its successor's lookup (default ttlMs / 5). */
  refreshAheadMs?: number;
  /** Monotonic milliseconds. */
  now?: () => number;
}

interface Lease<V> {
  startedAt: number;
  result: Promise<V | null>;
  /** Set once the lookup has resolved to a value, so a fresh lease can be read without waiting. */
  value?: V;
  /** The lookup started before this lease ends, to take its place. */
  successor?: Lease<V>;
}

export interface LeaseCache<V> {
  /** The value for key, reusing a lease younger than ttlMs, otherwise from a new lookup. */
  get(key: string): Promise<V | null>;
  /**
   * The value of a lease younger than ttlMs whose lookup has already resolved, else undefined.
   * Starts the successor's lookup when the lease is about to end.
   */
  peek(key: string): V | undefined;
  readonly size: number;
}

export function createLeaseCache<V>({
  ttlMs,
  maxEntries,
  load,
  refreshAheadMs = ttlMs / 5,
  now = () => performance.now(),
}: LeaseCacheOptions<V>): LeaseCache<V> {
  const leases = new Map<string, Lease<V>>();

  /** Starts a lookup whose lease counts from `at`, read before the query is sent. */
  function lookUp(key: string, at: number): Lease<V> {
    const lease: Lease<V> = { startedAt: at, result: load(key) };
    lease.result.then(
      (value) => {
        if (value !== null) lease.value = value;
      },
      () => undefined,
    );
    return lease;
  }

  function makeRoom() {
    if (leases.size < maxEntries) return;
    const oldest = leases.keys().next();
    if (!oldest.done) leases.delete(oldest.value);
  }

  /** A lease that failed or found nothing leaves the cache, unless something else took its place. */
  function dropUnlessFound(key: string, lease: Lease<V>) {
    const forget = () => {
      if (leases.get(key) === lease) leases.delete(key);
    };
    lease.result.then((value) => value === null && forget(), forget);
  }

  function refreshAhead(key: string, current: Lease<V>, at: number) {
    if (current.successor) return;
    const successor = lookUp(key, at);
    current.successor = successor;
    successor.result.then(
      (value) => {
        const holder = leases.get(key);
        if (holder !== current && holder !== successor) return;
        if (value === null) leases.delete(key);
        else leases.set(key, successor);
      },
      () => {
        if (leases.get(key) === successor) leases.delete(key);
        if (current.successor === successor) current.successor = undefined;
      },
    );
  }

  return {
    get(key) {
      // Read the clock before load() sends its query: the lease must not outlive ttlMs from there.
      const at = now();
      const current = leases.get(key);
      if (current) {
        if (at - current.startedAt < ttlMs) return current.result;
        const successor = current.successor;
        if (successor && at - successor.startedAt < ttlMs) {
          leases.set(key, successor);
          return successor.result;
        }
        leases.delete(key);
      } else {
        makeRoom();
      }
      const lease = lookUp(key, at);
      leases.set(key, lease);
      dropUnlessFound(key, lease);
      return lease.result;
    },

    peek(key) {
      const current = leases.get(key);
      if (current?.value === undefined) return undefined;
      const at = now();
      const age = at - current.startedAt;
      if (age >= ttlMs) return undefined;
      if (age >= ttlMs - refreshAheadMs) refreshAhead(key, current, at);
      return current.value;
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
