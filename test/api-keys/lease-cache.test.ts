import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createLeaseCache, waitOutLease } from '../../src/lib/lease-cache.js';

function fakeClock(start = 1_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

function counter<V>(value: V | null) {
  const calls = { count: 0 };
  const load = async () => {
    calls.count += 1;
    return value;
  };
  return { calls, load };
}

describe('lease cache', () => {
  it('reuses a found value only while its lookup is younger than ttlMs', async () => {
    const clock = fakeClock();
    const { calls, load } = counter('owner');
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: clock.now, load });
    expect(await cache.get('k')).toBe('owner');
    clock.advance(99);
    expect(await cache.get('k')).toBe('owner');
    expect(calls.count).toBe(1);
    clock.advance(1);
    expect(await cache.get('k')).toBe('owner');
    expect(calls.count).toBe(2);
  });

  it('measures the lease from the start of the lookup, not from its answer', async () => {
    const clock = fakeClock();
    let calls = 0;
    const slow = async () => {
      calls += 1;
      clock.advance(80);
      return 'owner';
    };
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: clock.now, load: slow });
    await cache.get('k');
    clock.advance(20);
    await cache.get('k');
    expect(calls).toBe(2);
  });

  it('never keeps a null answer or a failure', async () => {
    const clock = fakeClock();
    const missing = counter<string>(null);
    let failures = 0;
    const load = async (key: string): Promise<string | null> => {
      if (key === 'k') return missing.load();
      failures += 1;
      throw new Error('database down');
    };
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: clock.now, load });
    expect(await cache.get('k')).toBeNull();
    expect(await cache.get('k')).toBeNull();
    expect(missing.calls.count).toBe(2);

    await expect(cache.get('f')).rejects.toThrow('database down');
    await expect(cache.get('f')).rejects.toThrow('database down');
    expect(failures).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('shares one lookup between concurrent misses', async () => {
    const { calls, load } = counter('owner');
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: fakeClock().now, load });
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get('k')));
    expect(results).toEqual(Array(20).fill('owner'));
    expect(calls.count).toBe(1);
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const loads = new Map<string, number>();
    const load = async (key: string) => {
      loads.set(key, (loads.get(key) ?? 0) + 1);
      return key;
    };
    const cache = createLeaseCache<string>({ ttlMs: 1_000, maxEntries: 3, now: fakeClock().now, load });
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key);
    expect(cache.size).toBe(3);
    await cache.get('d');
    await cache.get('a');
    expect(loads.get('d')).toBe(1);
    expect(loads.get('a')).toBe(2);
  });
});

describe('waitOutLease', () => {
  it('resolves only after the full time has passed on the monotonic clock', async () => {
    const start = performance.now();
    await waitOutLease(30);
    expect(performance.now() - start).toBeGreaterThanOrEqual(30);
  });

  it('keeps waiting when a timer fires early', async () => {
    const clock = fakeClock();
    let ticks = 0;
    const now = () => {
      ticks += 1;
      // The clock only moves 10 ms per reading, as if every timer fired early.
      return clock.advance(ticks > 1 ? 10 : 0);
    };
    await waitOutLease(35, now);
    expect(clock.now() - 1_000).toBeGreaterThanOrEqual(35);
  });
});

describe('LeaseCache.peek', () => {
  it('reads a fresh, settled lease without waiting, and nothing else', async () => {
    let clock = 0;
    let resolve!: (value: string | null) => void;
    const load = (key: string) => (key === 'missing' ? Promise.resolve(null) : new Promise<string | null>((r) => (resolve = r)));
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: () => clock, load, refreshAheadMs: 0 });
    expect(cache.peek('k')).toBeUndefined();
    const pending = cache.get('k');
    expect(cache.peek('k'), 'not settled yet').toBeUndefined();
    resolve('owner');
    await pending;
    expect(cache.peek('k')).toBe('owner');
    clock = 99;
    expect(cache.peek('k')).toBe('owner');
    clock = 100;
    expect(cache.peek('k'), 'the lease has run out').toBeUndefined();
    await cache.get('missing');
    expect(cache.peek('missing'), 'null results are never kept').toBeUndefined();
  });
});

/** A loader whose lookups stay pending until the test settles them, each remembering when it began. */
function manualLoader(clock: { now: () => number }) {
  const lookups: Array<{ key: string; startedAt: number; settle: (value: Owner | null) => void; fail: () => void; settled: boolean }> = [];
  const load = (key: string) =>
    new Promise<Owner | null>((resolve, reject) => {
      const lookup = {
        key,
        startedAt: clock.now(),
        settled: false,
        settle: (value: Owner | null) => {
          lookup.settled = true;
          resolve(value);
        },
        fail: () => {
          lookup.settled = true;
          reject(new Error('database down'));
        },
      };
      lookups.push(lookup);
    });
  const settleLast = async (value: Owner | null | 'fail') => {
    const lookup = lookups.at(-1)!;
    if (value === 'fail') lookup.fail();
    else lookup.settle(value);
    await flush();
  };
  return { lookups, load, settleLast };
}
interface Owner {
  name: string;
  /** When the lookup that produced this value began. */
  lookedUpAt: number;
}
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** ttlMs 100, refreshAheadMs 20, and key k looked up at 0 and found ("first"). */
async function cacheWithFirstLease() {
  const clock = fakeClock(0);
  const loader = manualLoader(clock);
  const cache = createLeaseCache<Owner>({ ttlMs: 100, refreshAheadMs: 20, maxEntries: 10, now: clock.now, load: loader.load });
  const first = cache.get('k');
  await loader.settleLast({ name: 'first', lookedUpAt: 0 });
  expect((await first)?.name).toBe('first');
  return { clock, loader, cache };
}

describe('lease cache: looking a key up again before its lease ends', () => {
  it('starts one successor lookup in the last refreshAheadMs and serves it without any request waiting', async () => {
    const { clock, loader, cache } = await cacheWithFirstLease();

    clock.advance(79);
    expect(cache.peek('k')?.name).toBe('first');
    expect(loader.lookups).toHaveLength(1);
    clock.advance(1);
    expect(cache.peek('k')?.name, 'the current lease still answers').toBe('first');
    expect(loader.lookups).toHaveLength(2);
    clock.advance(5);
    expect(cache.peek('k')?.name).toBe('first');
    expect(loader.lookups, 'one successor at a time').toHaveLength(2);

    await loader.settleLast({ name: 'second', lookedUpAt: 80 });
    clock.advance(60); // 145: the first lease is over, the successor (from 80) is 65 ms old
    expect(cache.peek('k')?.name).toBe('second');
    expect(loader.lookups).toHaveLength(2);
  });

  it('drops the key at once when the successor finds nothing, even while the old lease is fresh', async () => {
    const { clock, loader, cache } = await cacheWithFirstLease();
    clock.advance(90);
    cache.peek('k');
    await loader.settleLast(null);
    expect(cache.peek('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('lets a request wait for a successor still in flight when the old lease runs out, without a third lookup', async () => {
    const { clock, loader, cache } = await cacheWithFirstLease();
    clock.advance(85);
    cache.peek('k');
    clock.advance(20); // 105
    expect(cache.peek('k'), 'the old lease has run out').toBeUndefined();
    const waiting = cache.get('k');
    expect(loader.lookups).toHaveLength(2);
    await loader.settleLast({ name: 'second', lookedUpAt: 85 });
    expect((await waiting)?.name).toBe('second');
  });

  it('never promotes a successor whose own lease has run out, and recovers from a failed one', async () => {
    const { clock, loader, cache } = await cacheWithFirstLease();
    clock.advance(90);
    cache.peek('k');
    await loader.settleLast('fail');
    expect(cache.peek('k')?.name, 'a failed refresh leaves the current lease in place').toBe('first');
    expect(loader.lookups, 'and the next request in the window tries again').toHaveLength(3);

    clock.advance(101); // 191: the retry (from 90) is 101 ms old and still pending
    const fresh = cache.get('k');
    expect(loader.lookups, 'a fresh lookup instead of the stale successor').toHaveLength(4);
    await loader.settleLast({ name: 'fresh', lookedUpAt: 191 });
    expect((await fresh)?.name).toBe('fresh');
  });

  it('under any interleaving, hands out only values whose lookup began less than ttlMs ago', async () => {
    const ttlMs = 100;
    const step = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 30 }) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('peek' as const), key: fc.constantFrom('a', 'b') }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('get' as const), key: fc.constantFrom('a', 'b') }) },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), outcome: fc.constantFrom('value', 'null', 'fail') }),
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 100 }), async (steps) => {
        const clock = fakeClock(0);
        const loader = manualLoader(clock);
        const cache = createLeaseCache<Owner>({ ttlMs, refreshAheadMs: 30, maxEntries: 10, now: clock.now, load: loader.load });
        const check = (owner: Owner | null | undefined) => {
          if (owner) expect(clock.now() - owner.lookedUpAt).toBeLessThan(ttlMs);
        };
        const waiting: Array<Promise<unknown>> = [];
        for (const action of steps) {
          if (action.kind === 'advance') clock.advance(action.ms);
          else if (action.kind === 'peek') check(cache.peek(action.key));
          else if (action.kind === 'get') {
            // A waiting request is answered when its lookup settles; the lease was measured from the lookup's start.
            const askedAt = clock.now();
            waiting.push(
              cache.get(action.key).then(
                (owner) => owner && expect(askedAt - owner.lookedUpAt).toBeLessThan(ttlMs),
                () => undefined,
              ),
            );
          } else {
            const unsettled = loader.lookups.filter((lookup) => !lookup.settled);
            if (unsettled.length === 0) continue;
            const pending = unsettled[action.pick % unsettled.length]!;
            if (action.outcome === 'fail') pending.fail();
            else pending.settle(action.outcome === 'null' ? null : { name: pending.key, lookedUpAt: pending.startedAt });
            await flush();
          }
        }
        for (const lookup of loader.lookups) if (!lookup.settled) lookup.settle(null);
        await Promise.all(waiting);
      }),
      { numRuns: 5000, seed: 42 },
    );
  });
});
