import { describe, expect, it } from 'vitest';
import { createLruCache } from '../../src/lib/lru-cache.js';

const cacheOf = (maxEntries: number, maxBytes: number) =>
  createLruCache<string>({ maxEntries, maxBytes, sizeOf: (value) => value.length });

describe('LRU cache', () => {
  it('evicts the least recently used entry beyond maxEntries', () => {
    const cache = cacheOf(2, 100);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A'); // a is now the most recent
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.size).toBe(2);
  });

  it('evicts oldest entries until the total size fits maxBytes', () => {
    const cache = cacheOf(10, 10);
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    cache.set('c', 'cccc');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.bytes).toBe(8);
    expect(cache.size).toBe(2);
  });

  it('never keeps a value larger than maxBytes, and replacing a key frees its old size', () => {
    const cache = cacheOf(10, 10);
    cache.set('a', 'aaaa');
    cache.set('huge', 'x'.repeat(11));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaa');
    cache.set('a', 'aa');
    expect(cache.bytes).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('keeps nothing when maxEntries is 0', () => {
    const cache = cacheOf(0, 10);
    cache.set('a', 'A');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});
