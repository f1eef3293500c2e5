// What a store of uploaded bytes offers. Services see only this interface, so an object store can
// replace the local disk without touching routes or services.
import type { Readable } from 'node:stream';

/** Bytes fully written under a temporary name, not yet visible under a real one. */
export interface PendingFile {
  readonly size: number;
  /** Moves the bytes into place under name. On failure nothing is left. */
  commit(name: string): Promise<void>;
  /** Removes the temporary bytes; harmless after commit and when repeated. */
  discard(): Promise<void>;
}

export interface OpenedFile {
  size: number;
  stream: Readable;
}

export interface FileStorage {
  /**
   * Streams source to a temporary object as it arrives and resolves once every byte is written.
   * When source or the write fails it rejects with that error and leaves nothing behind.
   */
  put(source: Readable): Promise<PendingFile>;
  /**
   * Writes a derived object (a thumbnail) whole under name, atomically: readers see all of it or
   * none of it. An existing object under that name is replaced. On failure nothing is left.
   */
  save(name: string, bytes: Buffer): Promise<void>;
  /** A committed object ready to stream, or null when there is none under that name. */
  open(name: string): Promise<OpenedFile | null>;
  stat(name: string): Promise<{ size: number } | null>;
  /**
   * The path of a committed object on this machine's file system, for readers that open files
   * themselves (libvips); only stores that keep objects as local files have it.
   */
  localPath?(name: string): string;
  /**
   * A URL that downloads the object, as an attachment, without credentials until expiresAt; only
   * stores that can presign (object storage) have it.
   */
  presign?(name: string, expiresAt: Date, download: { fileName: string; contentType: string }): Promise<string>;
  /** Removes a committed object; a missing one is not an error. */
  delete(name: string): Promise<void>;
  /**
   * Readiness: rejects with StorageUnavailableError when the store cannot be reached. Only stores
   * that can be unreachable (object storage) have it.
   */
  check?(): Promise<void>;
}
