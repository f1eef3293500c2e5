// A pass-through stream that hashes the bytes flowing through it, so a digest costs no second read.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export class DigestStream extends Transform {
  readonly #hash: Hash;
  #digest: string | undefined;

  constructor(algorithm = 'sha256') {
    super();
    this.#hash = createHash(algorithm);
  }

  /** The hex digest of every byte that passed; available once the stream has ended. */
  get digest(): string {
    if (this.#digest === undefined) throw new Error('DigestStream: the stream has not ended yet.');
    return this.#digest;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.#digest = this.#hash.digest('hex');
    callback();
  }
}
