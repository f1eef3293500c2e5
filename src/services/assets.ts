// Uploads and stored files: what may be stored (an image by its content, at most 25 MB), how it is
// named, and the guarantee that a failed upload leaves neither a file nor a row behind.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createId } from '@paralleldrive/cuid2';
import { badRequest, HttpError, MESSAGES, notFound } from '../errors.js';
import { detectImageType, SNIFF_BYTES, STORED_EXTENSIONS, type ImageType } from '../lib/image-type.js';
import { UploadGuard } from '../lib/upload-guard.js';
import type { Asset, AssetRepository, StoredFile } from '../repositories/assets.js';
import type { FileStorage, OpenedFile, PendingFile } from '../storage/index.js';

/** 25 MB as the interface defines it: 25 × 1024 × 1024 bytes. That size is accepted. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const FILENAME_MAX_LENGTH = 255;

/** The only names GET /files/:name can serve: cuid2 + an extension this service writes. */
export const STORED_NAME = new RegExp(`^[a-z0-9]{20,32}\\.(?:${STORED_EXTENSIONS.join('|')})$`);

const DECLARED_IMAGE = /^image\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

// Control characters (C0, DEL, C1) and the bidirectional controls that can disguise an extension.
const UNSAFE_FILENAME_CHARACTERS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A file part as the multipart parser hands it over. */
export interface IncomingFile {
  filename: string | undefined;
  /** The part's declared Content-Type. */
  declaredType: string;
  /** The bytes; busboy sets truncated and emits 'limit' when it cut them at its size limit. */
  stream: Readable & { truncated?: boolean };
}

/** An upload fully received and checked, held under a temporary name. */
export interface ReceivedFile {
  /** Moves the file into place, then records it for userId; on failure nothing is left. */
  save(userId: string): Promise<Asset>;
  /** Drops the temporary file. */
  discard(): Promise<void>;
}

/** The client's name for the file: no directory part, no control characters, ≤ 255 characters. */
export function cleanFilename(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(UNSAFE_FILENAME_CHARACTERS, '').trim();
  return Array.from(cleaned).slice(0, FILENAME_MAX_LENGTH).join('');
}

const tooLarge = () => new HttpError(413, MESSAGES.fileTooLarge);
const notAnImage = () => new HttpError(415, MESSAGES.contentNotImage);

/** Busboy's errors (a cut or garbled body) carry no code; file-system errors always do. */
function isParserFailure(error: unknown): boolean {
  const { statusCode, code } = error as { statusCode?: unknown; code?: unknown };
  return statusCode === undefined && (code === undefined || code === 'ERR_STREAM_PREMATURE_CLOSE');
}

export function createAssetService(assets: AssetRepository, storage: FileStorage) {
  return {
    /**
     * Streams one file part to storage, checking size and content on the way. Attaches its
     * listeners before its first await, so a parser error can never go unhandled.
     */
    async receive(incoming: IncomingFile): Promise<ReceivedFile> {
      const { stream } = incoming;
      if (!DECLARED_IMAGE.test(incoming.declaredType)) {
        stream.destroy();
        throw new HttpError(415, MESSAGES.declaredTypeNotImage);
      }
      stream.once('limit', () => stream.destroy(tooLarge()));

      const guard = new UploadGuard<ImageType>({
        maxBytes: MAX_UPLOAD_BYTES,
        headBytes: SNIFF_BYTES,
        tooLarge,
        inspect: async (head) => {
          const type = await detectImageType(head);
          if (!type) throw notAnImage();
          return type;
        },
      });
      // Remembers what failed the part itself, to tell a broken request from a broken disk.
      let partError: unknown;
      pipeline(stream, guard, (error) => {
        partError = error;
      });

      let pending: PendingFile;
      try {
        pending = await storage.put(guard);
      } catch (error) {
        throw error === partError && isParserFailure(error) ? badRequest(MESSAGES.malformedMultipart) : error;
      }
      if (stream.truncated) {
        await pending.discard();
        throw tooLarge();
      }

      const type = guard.verdict;
      const filename = cleanFilename(incoming.filename);
      return {
        async save(userId) {
          const name = `${createId()}.${type.ext}`;
          await pending.commit(name);
          try {
            return await assets.create({ id: createId(), userId, name, filename, mimeType: type.mime, sizeBytes: pending.size });
          } catch (error) {
            // The row failed: the file must not outlive it. The write's error is the one to report.
            await storage.delete(name).catch(() => undefined);
            throw error;
          }
        },
        discard: () => pending.discard(),
      };
    },

    async list(userId: string): Promise<Asset[]> {
      return assets.listOwned(userId);
    },

    /** The stored file behind a public name; anything not of the stored form is a 404 unread. */
    async findFile(name: string): Promise<StoredFile> {
      const file = STORED_NAME.test(name) ? await assets.findFile(name) : null;
      if (!file) throw notFound(MESSAGES.fileNotFound);
      return file;
    },

    async statFile(file: StoredFile): Promise<{ size: number }> {
      const stats = await storage.stat(file.name);
      if (!stats) throw notFound(MESSAGES.fileNotFound);
      return stats;
    },

    async openFile(file: StoredFile): Promise<OpenedFile> {
      const opened = await storage.open(file.name);
      if (!opened) throw notFound(MESSAGES.fileNotFound);
      return opened;
    },
  };
}

export type AssetService = ReturnType<typeof createAssetService>;
