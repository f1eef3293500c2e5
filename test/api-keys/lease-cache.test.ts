import { describe, expect, it } from 'vitest';
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
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: clock.now });
    const { calls, load } = counter('owner');
    expect(await cache.get('k', load)).toBe('owner');
    clock.advance(99);
    expect(await cache.get('k', load)).toBe('owner');
    expect(calls.count).toBe(1);
    clock.advance(1);
    expect(await cache.get('k', load)).toBe('owner');
    expect(calls.count).toBe(2);
  });

  it('measures the lease from the start of the lookup, not from its answer', async () => {
    const clock = fakeClock();
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: clock.now });
    let calls = 0;
    const slow = async () => {
      calls += 1;
      clock.advance(80);
      return 'owner';
    };
    await cache.get('k', slow);
    clock.advance(20);
    await cache.get('k', slow);
    expect(calls).toBe(2);
  });

  it('never keeps a null answer or a failure', async () => {
    const clock = fakeClock();
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: clock.now });
    const missing = counter<string>(null);
    expect(await cache.get('k', missing.load)).toBeNull();
    expect(await cache.get('k', missing.load)).toBeNull();
    expect(missing.calls.count).toBe(2);

    let failures = 0;
    const failing = async (): Promise<string | null> => {
      failures += 1;
      throw new Error('database down');
    };
    await expect(cache.get('f', failing)).rejects.toThrow('database down');
    await expect(cache.get('f', failing)).rejects.toThrow('database down');
    expect(failures).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('shares one lookup between concurrent misses', async () => {
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: fakeClock().now });
    const { calls, load } = counter('owner');
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', load)));
    expect(results).toEqual(Array(20).fill('owner'));
    expect(calls.count).toBe(1);
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = createLeaseCache<string>({ ttlMs: 1_000, maxEntries: 3, now: fakeClock().now });
    const loads = new Map<string, number>();
    const loader = (key: string) => async () => {
      loads.set(key, (loads.get(key) ?? 0) + 1);
      return key;
    };
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, loader(key));
    expect(cache.size).toBe(3);
    await cache.get('d', loader('d'));
    await cache.get('a', loader('a'));
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
    const cache = createLeaseCache<string>({ ttlMs: 100, maxEntries: 10, now: () => clock });
    expect(cache.peek('k')).toBeUndefined();
    let resolve!: (value: string | null) => void;
    const pending = cache.get('k', () => new Promise((r) => (resolve = r)));
    expect(cache.peek('k'), 'not settled yet').toBeUndefined();
    resolve('owner');
    await pending;
    expect(cache.peek('k')).toBe('owner');
    clock = 99;
    expect(cache.peek('k')).toBe('owner');
    clock = 100;
    expect(cache.peek('k'), 'the lease has run out').toBeUndefined();
    await cache.get('missing', async () => null);
    expect(cache.peek('missing'), 'null results are never kept').toBeUndefined();
  });
});
