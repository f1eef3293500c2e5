import { describe, expect, it } from 'vitest';
import { constantTimeEqual, createDigestMemo } from '../../src/lib/digest-memo.js';

describe('constantTimeEqual', () => {
  it('is true only for identical strings', () => {
    const key = `pf_${'0123456789abcdef'.repeat(3)}`;
    expect(constantTimeEqual(key, `${key}`)).toBe(true);
    expect(constantTimeEqual(key, `x${key.slice(1)}`), 'first character').toBe(false);
    expect(constantTimeEqual(key, `${key.slice(0, -1)}0`), 'last character').toBe(false);
    expect(constantTimeEqual(key, key.slice(0, -1)), 'shorter').toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });

  it('compares whole UTF-16 units, so characters sharing a low byte differ', () => {
    expect(constantTimeEqual('g', '\u0167')).toBe(false);
    expect(constantTimeEqual('\ud83d\ude00', '\ud83d\ude01')).toBe(false);
  });
});

describe('createDigestMemo', () => {
  function counting() {
    const calls: string[] = [];
    const memo = createDigestMemo((key) => {
      calls.push(key);
      return key.startsWith('ok') ? `digest(${key})` : null;
    });
    return { calls, memo };
  }

  it('computes a digest once per key and scope, and again when the scope carries another key', () => {
    const { calls, memo } = counting();
    const connection = {};
    expect(memo(connection, 'ok-a')).toBe('digest(ok-a)');
    expect(memo(connection, 'ok-a')).toBe('digest(ok-a)');
    expect(calls).toEqual(['ok-a']);
    expect(memo(connection, 'ok-b')).toBe('digest(ok-b)');
    expect(memo(connection, 'ok-a')).toBe('digest(ok-a)');
    expect(calls).toEqual(['ok-a', 'ok-b', 'ok-a']);
  });

  it('keeps scopes apart and never remembers a malformed key', () => {
    const { calls, memo } = counting();
    const [one, two] = [{}, {}];
    memo(one, 'ok-a');
    expect(memo(two, 'ok-b')).toBe('digest(ok-b)');
    expect(memo(one, 'ok-a')).toBe('digest(ok-a)');
    expect(memo(one, 'bad')).toBeNull();
    expect(memo(one, 'bad')).toBeNull();
    expect(calls).toEqual(['ok-a', 'ok-b', 'bad', 'bad']);
    expect(memo(one, 'ok-a'), 'a malformed key does not displace the remembered one').toBe('digest(ok-a)');
    expect(calls).toHaveLength(4);
  });
});
