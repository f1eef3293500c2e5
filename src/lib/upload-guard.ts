// A pass-through stream that enforces an upload's rules while its bytes flow: it counts them
// against a size limit and holds back the first bytes until they have been inspected, so a
// rejected upload stops early and nothing it sent reaches storage unchecked.
import { Transform, type TransformCallback } from 'node:stream';

export interface UploadGuardOptions<Verdict> {
  maxBytes: number;
  /** How many leading bytes inspect() receives (fewer when the upload is shorter). */
  headBytes: number;
  /** Judges the head; throwing (or rejecting) fails the stream with that error. */
  inspect(head: Buffer): Promise<Verdict>;
  /** The error for more than maxBytes. */
  tooLarge(): Error;
}

export class UploadGuard<Verdict> extends Transform {
  readonly #options: UploadGuardOptions<Verdict>;
  #held: Buffer[] = [];
  #heldBytes = 0;
  #bytes = 0;
  #inspected = false;
  #verdict: Verdict | undefined;

  constructor(options: UploadGuardOptions<Verdict>) {
    super();
    this.#options = options;
  }

  /** Bytes seen so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** What inspect() decided; available once the stream has ended without error. */
  get verdict(): Verdict {
    if (!this.#inspected) throw new Error('UploadGuard: the head has not been inspected yet.');
    return this.#verdict as Verdict;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.#options.maxBytes) return callback(this.#options.tooLarge());
    if (this.#inspected) return callback(null, chunk);
    this.#held.push(chunk);
    this.#heldBytes += chunk.length;
    if (this.#heldBytes < this.#options.headBytes) return callback();
    this.#release(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#inspected) return callback();
    this.#release(callback);
  }

  #release(callback: TransformCallback): void {
    const held = Buffer.concat(this.#held, this.#heldBytes);
    this.#held = [];
    this.#options.inspect(held.subarray(0, this.#options.headBytes)).then(
      (verdict) => {
        this.#verdict = verdict;
        this.#inspected = true;
        callback(null, held);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }
}
