// Developer keys at rest: the key itself, its SHA-256 digest (the lookup), and an AES-256-GCM seal
// so the list route can show the key again while a database dump alone yields no usable key.
import { createCipheriv, createDecipheriv, hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PATTERN = /^pf_[0-9a-f]{48}$/;

const KEY_BYTES = 24;
const SECRET_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const CIPHER = 'aes-256-gcm';

/** `pf_` + 48 lower-case hex characters from a cryptographic random source. */
export function generateApiKey(): string {
  return `pf_${randomBytes(KEY_BYTES).toString('hex')}`;
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** SHA-256 of the key, lower-case hex: what the database indexes and looks up. */
export function digestApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Constant-time equality of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

export class SealedKeyError extends Error {
  constructor() {
    super('A sealed API key could not be opened: wrong secret, wrong key id, or tampered data.');
    this.name = 'SealedKeyError';
  }
}

export interface ApiKeySealer {
  /** nonce | ciphertext | tag as base64url; the key id is authenticated data, so a seal only opens for its own row. */
  seal(key: string, keyId: string): string;
  /** Throws SealedKeyError when the seal does not authenticate. */
  open(sealed: string, keyId: string): string;
}

export function createApiKeySealer(secret: Buffer): ApiKeySealer {
  if (secret.length !== SECRET_BYTES) throw new Error(`The API key secret must be ${SECRET_BYTES} bytes.`);
  const key = Buffer.from(secret);

  return {
    seal(plaintext, keyId) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv(CIPHER, key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(keyId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64url');
    },

    open(sealed, keyId) {
      const blob = Buffer.from(sealed, 'base64url');
      if (blob.length <= NONCE_BYTES + TAG_BYTES) throw new SealedKeyError();
      const nonce = blob.subarray(0, NONCE_BYTES);
      const tag = blob.subarray(blob.length - TAG_BYTES);
      const ciphertext = blob.subarray(NONCE_BYTES, blob.length - TAG_BYTES);
      try {
        const decipher = createDecipheriv(CIPHER, key, nonce, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(keyId, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedKeyError();
      }
    },
  };
}
