// Secrets the service must show or use again, sealed at rest: developer keys, webhook signing
// secrets and share tokens. AES-256-GCM under a server secret, with the row's id (or a context
// naming it) as authenticated data, so a seal opens only for its own row and a database dump alone
// yields nothing usable.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const SECRET_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const CIPHER = 'aes-256-gcm';

export class SealedSecretError extends Error {
  constructor() {
    super('A sealed secret could not be opened: wrong server secret, wrong row id, or tampered data.');
    this.name = 'SealedSecretError';
  }
}

export interface SecretSealer {
  /** nonce | ciphertext | tag as base64url; `context` is authenticated data, so a seal only opens for its own row. */
  seal(plaintext: string, context: string): string;
  /** Throws SealedSecretError when the seal does not authenticate. */
  open(sealed: string, context: string): string;
}

export function createSecretSealer(secret: Buffer): SecretSealer {
  if (secret.length !== SECRET_BYTES) throw new Error(`The sealing secret must be ${SECRET_BYTES} bytes.`);
  const key = Buffer.from(secret);

  return {
    seal(plaintext, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv(CIPHER, key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64url');
    },

    open(sealed, context) {
      const blob = Buffer.from(sealed, 'base64url');
      if (blob.length <= NONCE_BYTES + TAG_BYTES) throw new SealedSecretError();
      const nonce = blob.subarray(0, NONCE_BYTES);
      const tag = blob.subarray(blob.length - TAG_BYTES);
      const ciphertext = blob.subarray(NONCE_BYTES, blob.length - TAG_BYTES);
      try {
        const decipher = createDecipheriv(CIPHER, key, nonce, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedSecretError();
      }
    },
  };
}
