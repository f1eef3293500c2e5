import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestApiKey, digestsEqual, generateApiKey, isWellFormedApiKey } from '../../src/lib/api-key-crypto.js';
import { createSecretSealer, SealedSecretError } from '../../src/lib/secret-sealer.js';
import { readApiKeyHeader } from '../../src/plugins/api-key-guard.js';
import { KEY_FORMAT } from './keys.js';

const secret = Buffer.alloc(32, 7);

describe('api key crypto', () => {
  it('generates pf_ + 48 lower-case hex characters, never the same twice', () => {
    const keys = Array.from({ length: 1000 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(KEY_FORMAT);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('recognises only the exact key format', () => {
    const key = generateApiKey();
    expect(isWellFormedApiKey(key)).toBe(true);
    for (const bad of ['', key.toUpperCase(), `${key}\n`, ` ${key}`, key.slice(0, -1), `${key}a`, key.slice(3), `pf_${'z'.repeat(48)}`]) {
      expect(isWellFormedApiKey(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('digests with SHA-256 as lower-case hex', () => {
    const key = `pf_${'ab'.repeat(24)}`;
    expect(digestApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(digestApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('compares digests', () => {
    const digest = digestApiKey(generateApiKey());
    expect(digestsEqual(digest, digest)).toBe(true);
    expect(digestsEqual(digest, digestApiKey(generateApiKey()))).toBe(false);
    expect(digestsEqual(digest, digest.slice(0, 62))).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
  });

  it('seals and opens a key for its own key id, with a fresh nonce every time', () => {
    const sealer = createSecretSealer(secret);
    const key = generateApiKey();
    const first = sealer.seal(key, 'key-1');
    const second = sealer.seal(key, 'key-1');
    expect(first).not.toBe(second);
    expect(first).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.length).toBeLessThanOrEqual(128);
    expect(first).not.toContain(key.slice(3));
    expect(sealer.open(first, 'key-1')).toBe(key);
    expect(sealer.open(second, 'key-1')).toBe(key);
  });

  it('refuses to open a seal under another key id, another secret, or after tampering', () => {
    const sealer = createSecretSealer(secret);
    const sealed = sealer.seal(generateApiKey(), 'key-1');
    expect(() => sealer.open(sealed, 'key-2')).toThrow(SealedSecretError);
    expect(() => createSecretSealer(randomBytes(32)).open(sealed, 'key-1')).toThrow(SealedSecretError);
    const bytes = Buffer.from(sealed, 'base64url');
    for (const index of [0, 12, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[index] = (tampered[index] ?? 0) ^ 1;
      expect(() => sealer.open(tampered.toString('base64url'), 'key-1')).toThrow(SealedSecretError);
    }
    expect(() => sealer.open('', 'key-1')).toThrow(SealedSecretError);
    expect(() => sealer.open(bytes.subarray(0, 28).toString('base64url'), 'key-1')).toThrow(SealedSecretError);
  });

  it('opens a stored seal: nonce | ciphertext | tag, base64url, the row id authenticated', () => {
    const stored = 'qpGSOGzqKI_nwl1kZFUJXqXBWvMsbwxeKlYrNv7ClZ1mWh3dYccSodD8ZyiKDF2xuMVLh2UtC-UVWZHRx7J6xXQj_SxUsuEYcOqEui2v0g';
    expect(createSecretSealer(secret).open(stored, 'key-1')).toBe(`pf_${'ab'.repeat(24)}`);
  });

  it('needs a 32-byte secret', () => {
    expect(() => createSecretSealer(Buffer.alloc(16))).toThrow();
    expect(() => createSecretSealer(Buffer.alloc(33))).toThrow();
  });
});

describe('reading the x-api-key header', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['   ', null],
    ['\t', null],
    [[], null],
    ['pf_abc', 'pf_abc'],
    [' pf_abc\t', 'pf_abc'],
    ['pf_a, pf_b', 'pf_a, pf_b'],
    [['pf_a', 'pf_b'], 'pf_a, pf_b'],
    ['pf_a\nb', 'pf_a\nb'],
  ])('%j → %j', (value, expected) => {
    expect(readApiKeyHeader(value)).toBe(expected);
  });
});
