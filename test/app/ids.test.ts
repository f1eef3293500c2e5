import { init, isCuid } from '@paralleldrive/cuid2';
import { describe, expect, it } from 'vitest';
import { createFingerprint, createId, cuid2From, type IdSource } from '../../src/lib/ids.js';

/** A deterministic source: the same sequence of "random" floats, counter and fingerprint each time. */
function seededSource(seed: number): IdSource {
  let state = seed;
  let count = seed * 7;
  return {
    random: () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    },
    counter: () => count++,
    fingerprint: createFingerprint(() => 0.5).padEnd(32, 'x'),
  };
}

describe('record ids', () => {
  it("are the cuid2 library's ids for the same random draws, counter, fingerprint and time", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const ours = seededSource(seed);
      const theirs = seededSource(seed);
      const library = init({ random: theirs.random, counter: theirs.counter, fingerprint: theirs.fingerprint });
      // The library reads the clock itself: compare only pairs made within one millisecond.
      for (;;) {
        const before = Date.now();
        const fromLibrary = library();
        const fromOurs = cuid2From(ours, before);
        if (Date.now() === before) {
          expect(fromOurs).toBe(fromLibrary);
          break;
        }
        // The clock moved: both sources advanced by the same draws, so the next pair still matches.
      }
    }
  });

  it('are 24-character cuid2s, unique across many', () => {
    const ids = Array.from({ length: 20_000 }, createId);
    for (const id of ids.slice(0, 500)) {
      expect(id).toHaveLength(24);
      expect(isCuid(id)).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
