// Uploads and stored files: what may be stored (an image by its content, at most 25 MB), how it is
// named, and the guarantee that a failed upload leaves neither a file nor a row behind.
import { createHash } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import { createId, foundOr404 } from '../lib/ids.js';
import { badRequest, HttpError, MESSAGES, notFound } from '../errors.js';
import { DigestStream } from '../lib/digest-stream.js';
import { ImageTooLargeError, ImageUnreadableError, type ImageAnalysis, type ImageInput } from '../lib/image-analysis.js';
import { detectImageType, SNIFF_BYTES, STORED_EXTENSIONS, SVG_IMAGE, type ImageType } from '../lib/image-type.js';
import { readWhole } from '../lib/read-whole.js';
import type { ListPosition } from '../lib/cursors.js';
import { UploadGuard } from '../lib/upload-guard.js';
import { RenderError, SvgTooCostlyError, type Renderer } from '../render/index.js';
import { boundedSvg } from '../render/svg-filters.js';
import type { BarcodeFacts } from '../barcodes/types.js';
import type { Asset, AssetMetadata, AssetRepository, StoredFile, StoredSvg, UnreadAsset } from '../repositories/assets.js';
import type { FileStorage, OpenedFile, PendingFile } from '../storage/index.js';
import type { FileJanitor } from './file-janitor.js';
import type { FontFace } from '../print/fonts.js';

/** 25 MB as the interface defines it: 25 × 1024 × 1024 bytes. That size is accepted. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const FILENAME_MAX_LENGTH = 255;

/** The only names GET /files/:name can serve: cuid2 + an extension this service writes. */
export const STORED_NAME = new RegExp(`^[a-z0-9]{20,32}\\.(?:${STORED_EXTENSIONS.join('|')})$`);

/** A thumbnail's stored name: the asset's stem + this suffix. */
export const THUMBNAIL_SUFFIX = '-thumb.webp';
export const THUMBNAIL_NAME = /^[a-z0-9]{20,32}-thumb\.webp$/;

/** The thumbnail's stored name for an asset's stored name. */
export const thumbnailNameOf = (name: string) => `${name.replace(/\.[a-z0-9]+$/, '')}${THUMBNAIL_SUFFIX}`;

/** How many rows the backfill reads per page. */
const BACKFILL_PAGE = 20;

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
  /** SHA-256 of the bytes received, hex. */
  sha256: string;
  /** Moves the file into place, then records it for userId; on failure nothing is left. */
  save(userId: string, signal?: AbortSignal): Promise<Asset>;
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

/** The analysis errors as the client's 4xx; anything else (a storage failure) is left as it is. */
function asClientError(error: unknown): unknown {
  if (error instanceof ImageTooLargeError) return new HttpError(413, MESSAGES.imageTooManyPixels);
  if (error instanceof ImageUnreadableError) return badRequest(MESSAGES.imageUnreadable);
  if (error instanceof SvgTooCostlyError) return new HttpError(422, error.message);
  return error;
}

/** Backfill progress: how many rows were filled, could not be read, or were skipped (no file). */
export type BackfillResult = Record<'filled' | 'unreadable' | 'skipped', number>;

/** A stored SVG the cost model refuses: renders leave it out and preflight reports SVG_TOO_COSTLY. */
export type CostlySvg = Pick<StoredSvg, 'id' | 'userId' | 'name'> & { reason: string };

/** What the backfill records as unreadable: the image itself cannot be analysed within the bounds. */
const refusedByBounds = (error: unknown) =>
  error instanceof ImageTooLargeError ||
  error instanceof ImageUnreadableError ||
  error instanceof SvgTooCostlyError ||
  (error instanceof RenderError && (error.reason === 'deadline' || error.reason === 'memory'));

/** The backfill's renders wait their turn as one account of their own. */
const BACKFILL_ACCOUNT = 'backfill';

/** Every row list gives, oldest first, page by page; stops early when signal aborts. */
async function* eachRow<Row extends ListPosition>(
  list: (limit: number, after?: Row) => Promise<Row[]>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Row> {
  let cursor: Row | undefined;
  while (!signal?.aborted) {
    const page = await list(BACKFILL_PAGE, cursor);
    for (const row of page) {
      if (signal?.aborted) return;
      yield row;
    }
    if (page.length < BACKFILL_PAGE) return;
    cursor = page[page.length - 1];
  }
}

export function createAssetService(
  assets: AssetRepository,
  storage: FileStorage,
  janitor: FileJanitor,
  renderer: Renderer,
  ownerFonts: (userId: string) => Promise<{ faces: FontFace[] }>,
) {
  /** The analysis runs in a render child for account, within its deadline (src/render/). */
  const analyse = (input: ImageInput, mimeType: string, account: string, signal?: AbortSignal, fonts?: readonly FontFace[]) =>
    renderer.run('analysis', 'image.analyse', { input, mimeType, ...(fonts ? { fonts } : {}) }, account, signal);
  /** An SVG's thumbnail outlines its text with the owner's fonts. */
  const fontsFor = async (userId: string, mimeType: string) =>
    mimeType === SVG_IMAGE.mime ? (await ownerFonts(userId)).faces : undefined;

  /** The stored bytes under name, whole, or null when storage has no such object. */
  async function readStored(name: string): Promise<Buffer | null> {
    const opened = await storage.open(name);
    return opened ? readWhole(opened.stream, opened.size) : null;
  }

  /**
   * What the analysis reads: the local file's path when storage has one (libvips reads it on its
   * own threads, so its bytes never pass through the event loop or the JavaScript heap), else the
   * bytes. SVG always as bytes (see image-analysis.ts).
   */
  async function storedInput(name: string, mimeType: string): Promise<ImageInput> {
    if (storage.localPath && mimeType !== SVG_IMAGE.mime) return { path: storage.localPath(name) };
    const bytes = await readStored(name);
    if (!bytes) throw new Error(`The stored file ${name} vanished before it was read.`);
    return bytes;
  }

  /** Saves the thumbnail and returns the columns that describe the stored file. */
  async function storeThumbnail(name: string, analysis: ImageAnalysis, sha256: string | null): Promise<AssetMetadata> {
    const thumbnailName = thumbnailNameOf(name);
    await storage.save(thumbnailName, analysis.thumbnail);
    return { ...analysis.facts, sha256, thumbnailName, thumbnailBytes: analysis.thumbnail.length };
  }

  /** Fills one pre-existing row. */
  async function backfillOne(row: UnreadAsset): Promise<keyof BackfillResult> {
    const bytes = await readStored(row.name);
    // No file under this storage (another process's directory, or lost): left for a later run.
    if (!bytes) return 'skipped';
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    let analysis: ImageAnalysis;
    try {
      analysis = await analyse(bytes, row.mimeType, BACKFILL_ACCOUNT);
    } catch (error) {
      if (!refusedByBounds(error)) throw error;
      // Kept as it is (it was accepted once), with what can be said without decoding it.
      const unread = { widthPx: null, heightPx: null, dpi: null, hasAlpha: false, thumbnailName: null, thumbnailBytes: null };
      await assets.recordMetadata(row.id, { ...unread, colorSpace: 'other', sha256 });
      return 'unreadable';
    }
    const metadata = await storeThumbnail(row.name, analysis, sha256);
    if (!(await assets.recordMetadata(row.id, metadata))) {
      // Deleted meanwhile, or filled by another process: the thumbnail it just wrote is the same.
      const still = await assets.findFile(row.name);
      if (!still) await storage.delete(metadata.thumbnailName!);
    }
    return 'filled';
  }

  /**
   * Stores a committed file as userId's asset: analysed (metadata, thumbnail) like an upload. On
   * any failure neither the file nor its thumbnail is left behind and no row is written.
   */
  async function record(
    userId: string,
    pending: PendingFile,
    file: { ext: string; mime: string; filename: string; sha256: string; barcode?: BarcodeFacts },
    signal?: AbortSignal,
  ): Promise<Asset> {
    const name = `${createId()}.${file.ext}`;
    await pending.commit(name);
    try {
      // Read back from storage once the upload is complete: the upload itself stays streamed.
      const analysis = await analyse(await storedInput(name, file.mime), file.mime, userId, signal, await fontsFor(userId, file.mime));
      const metadata = await storeThumbnail(name, analysis, file.sha256);
      return await assets.create({
        id: createId(),
        userId,
        name,
        filename: file.filename,
        mimeType: file.mime,
        sizeBytes: pending.size,
        ...metadata,
        ...(file.barcode ? { barcode: file.barcode } : {}),
      });
    } catch (error) {
      // Refused or failed: neither the file nor its thumbnail may outlive the request.
      await Promise.all([name, thumbnailNameOf(name)].map((stored) => storage.delete(stored).catch(() => undefined)));
      throw asClientError(error);
    }
  }

  return {
    /**
     * Stores an SVG the service made (a barcode) as userId's asset, exactly as an uploaded SVG is
     * stored: the same storage, analysis, thumbnail and clean-up on failure.
     */
    async storeMadeSvg(userId: string, svg: string, filename: string, barcode: BarcodeFacts, signal?: AbortSignal): Promise<Asset> {
      const bytes = Buffer.from(svg, 'utf8');
      const pending = await storage.put(Readable.from([bytes]));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      return record(userId, pending, { ext: SVG_IMAGE.ext, mime: SVG_IMAGE.mime, filename, sha256, barcode }, signal);
    },

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
      // The digest is taken as the bytes pass, so the stored file is not read twice for it.
      const digest = new DigestStream();
      // Remembers what failed the part itself, to tell a broken request from a broken disk.
      let partError: unknown;
      pipeline(stream, guard, digest, (error) => {
        partError = error;
      });

      let pending: PendingFile;
      try {
        pending = await storage.put(digest);
      } catch (error) {
        throw error === partError && isParserFailure(error) ? badRequest(MESSAGES.malformedMultipart) : error;
      }
      if (stream.truncated) {
        await pending.discard();
        throw tooLarge();
      }

      const type = guard.verdict;
      const filename = cleanFilename(incoming.filename);
      const sha256 = digest.digest;
      return {
        sha256,
        save: (userId, signal) => record(userId, pending, { ext: type.ext, mime: type.mime, filename, sha256 }, signal),
        discard: () => pending.discard(),
      };
    },

    async list(userId: string): Promise<Asset[]> {
      return assets.listOwned(userId);
    },

    async get(userId: string, id: string): Promise<Asset> {
      return foundOr404(id, MESSAGES.assetNotFound, () => assets.findOwned(userId, id));
    },

    /** Deletes the row (recording its files in the outbox, same transaction), then the files. */
    async remove(userId: string, id: string): Promise<void> {
      await janitor.removeRecorded(await foundOr404(id, MESSAGES.assetNotFound, () => assets.deleteOwned(userId, id)));
    },

    /**
     * Reads the metadata and makes the thumbnail of every row stored before they existed, page by
     * page, oldest first. Resumable: each row is marked as it is done, so a run cut short (a
     * restart) carries on where it stopped. Stops early when signal aborts.
     */
    async backfill(signal?: AbortSignal): Promise<BackfillResult> {
      const result: BackfillResult = { filled: 0, unreadable: 0, skipped: 0 };
      for await (const row of eachRow(assets.listUnread, signal)) result[await backfillOne(row)]++;
      return result;
    },

    /**
     * Every stored SVG the cost model (render/svg-filters.ts) refuses: files stored before the
     * model, or under a looser one. The model reads the markup before resvg expands anything, so a
     * `use` bomb costs no more than its text. Stops early when signal aborts.
     */
    async findCostlySvgs(signal?: AbortSignal): Promise<CostlySvg[]> {
      const costly: CostlySvg[] = [];
      for await (const row of eachRow(assets.listSvgs, signal)) {
        const bytes = await readStored(row.name);
        if (!bytes) continue;
        try {
          boundedSvg(bytes);
        } catch (error) {
          if (!(error instanceof SvgTooCostlyError)) throw error;
          costly.push({ id: row.id, userId: row.userId, name: row.name, reason: error.reason });
        }
      }
      return costly;
    },

    /** The stored file (or thumbnail) behind a public name; anything not of a stored form is a 404 unread. */
    async findFile(name: string): Promise<StoredFile> {
      let file: StoredFile | null = null;
      if (STORED_NAME.test(name)) file = await assets.findFile(name);
      else if (THUMBNAIL_NAME.test(name)) file = await assets.findThumbnail(name);
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
