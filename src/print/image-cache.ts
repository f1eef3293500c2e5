/**
 * Converted images on the local disk, so a second print of the same photos embeds the stored
 * stream instead of decoding, separating and encoding them again.
 *
 * Why a directory on the machine's own disk: prints run in render children that may be killed at
 * any moment and idle out, so nothing in a child's memory outlives it; a directory is shared by
 * every child (and every process) of the machine. Machines sharing the S3 bucket each keep their
 * own: an entry is derived data that is cheap to make again once, and keeping it out of the bucket
 * leaves the bucket holding only what accounts stored.
 *
 * - Key: a hash of the source file's content digest, what it is converted to (colour space, the
 *   output profile's own digest, the pixel width after resampling, the JPEG quality) and the
 *   conversion itself (CONVERSION_VERSION, the libvips and lcms versions). Identical bytes give
 *   identical output, so an entry tells nobody anything the bytes they hold do not: an account
 *   reaches an entry only by printing the very same file, and after an asset is deleted its entry
 *   is reachable by nobody who does not hold those bytes, until evicted.
 * - Written atomically: a temporary file in the directory, renamed to the entry's name. A child
 *   killed while writing leaves a temporary file (removed by a later eviction once stale), never a
 *   half entry; an entry that still does not read back whole (its length and CRC-32 are checked)
 *   is a miss, deleted and written again.
 * - Bounded: after each write, the least recently used entries (their modification time, renewed
 *   on every hit) are deleted until the directory holds at most `maxBytes`.
 * - Private: the directory is created owner-only; one owned by another user, or not a directory,
 *   turns the cache off. Every failure of the cache (a full disk, a permission) is a miss: the
 *   print converts as it would without it.
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, readdir, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { PdfImageData } from './types.js';
import { kept } from './memo.js';

export interface ImageCacheSettings {
  /** The directory of the entries (created when missing). */
  dir: string;
  /** The entries together at most, in bytes. */
  maxBytes: number;
}

export interface ImageCache {
  /** The stored conversion, or null when there is none that reads back whole. */
  get(key: string): Promise<PdfImageData | null>;
  /** Stores the conversion under key; never fails (a cache that cannot write stays empty). */
  put(key: string, image: PdfImageData): Promise<void>;
}

const MAGIC = Buffer.from('PFIMG1\n\0', 'latin1');
const ENTRY_SUFFIX = '.img';
const TEMP_SUFFIX = '.tmp';
/** A temporary file this old belongs to a writer that is gone (a print's deadline is at most 10 minutes). */
const STALE_TEMP_MS = 30 * 60_000;
const COLOR_SPACES = new Set(['sRGB', 'DeviceCMYK', 'DeviceGray']);
const FILTERS = new Set(['DCTDecode', 'FlateDecode']);

interface EntryHeader {
  width: number;
  height: number;
  colorSpace: string;
  filter: string;
  decode?: number[];
  dataBytes: number;
  smaskBytes: number;
  crc: number;
}

const checksum = (data: Buffer, smask?: Buffer) => (smask ? crc32(smask, crc32(data)) : crc32(data));

/** The entry's bytes: magic, header length, JSON header, image data, soft mask. */
function encodeEntry(image: PdfImageData): Buffer[] {
  if (typeof image.colorSpace !== 'string') throw new TypeError('only converted images are cached');
  const header: EntryHeader = {
    width: image.width,
    height: image.height,
    colorSpace: image.colorSpace,
    filter: image.filter,
    ...(image.decode ? { decode: image.decode } : {}),
    dataBytes: image.data.length,
    smaskBytes: image.smask?.length ?? 0,
    crc: checksum(image.data, image.smask),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return [MAGIC, length, json, image.data, ...(image.smask ? [image.smask] : [])];
}

/** The image an entry holds (views into its bytes, no copy), or null unless it is whole. */
function decodeEntry(bytes: Buffer): PdfImageData | null {
  if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const jsonStart = MAGIC.length + 4;
  const jsonEnd = jsonStart + bytes.readUInt32BE(MAGIC.length);
  if (jsonEnd > bytes.length) return null;
  let header: EntryHeader;
  try {
    header = JSON.parse(bytes.toString('utf8', jsonStart, jsonEnd)) as EntryHeader;
  } catch {
    return null;
  }
  if (!COLOR_SPACES.has(header.colorSpace) || !FILTERS.has(header.filter)) return null;
  if (jsonEnd + header.dataBytes + header.smaskBytes !== bytes.length) return null;
  const data = bytes.subarray(jsonEnd, jsonEnd + header.dataBytes);
  const smask = header.smaskBytes > 0 ? bytes.subarray(jsonEnd + header.dataBytes) : undefined;
  if (checksum(data, smask) !== header.crc) return null;
  return {
    width: header.width,
    height: header.height,
    colorSpace: header.colorSpace as PdfImageData['colorSpace'],
    filter: header.filter as PdfImageData['filter'],
    ...(header.decode ? { decode: header.decode } : {}),
    data,
    ...(smask ? { smask } : {}),
  };
}

const ignore = () => undefined;

/** Creates dir owner-only; false when it is not a directory of this process's user. */
async function privateDirectory(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const info = await lstat(dir);
    if (!info.isDirectory()) return false;
    if (process.getuid && info.uid !== process.getuid()) return false;
    if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
    return true;
  } catch {
    return false;
  }
}

function createImageCache({ dir, maxBytes }: ImageCacheSettings): ImageCache {
  let usable: Promise<boolean> | undefined;
  const ready = () => (usable ??= privateDirectory(dir));
  const entryPath = (key: string) => path.join(dir, `${key}${ENTRY_SUFFIX}`);

  /** Deletes stale temporary files, then the least recently used entries beyond maxBytes. */
  async function evict(): Promise<void> {
    const names = await readdir(dir);
    const entries: { file: string; bytes: number; usedMs: number }[] = [];
    const now = Date.now();
    for (const name of names) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) continue;
      if (name.endsWith(TEMP_SUFFIX)) {
        if (now - info.mtimeMs > STALE_TEMP_MS) await unlink(file).catch(ignore);
      } else if (name.endsWith(ENTRY_SUFFIX)) {
        entries.push({ file, bytes: info.size, usedMs: info.mtimeMs });
      }
    }
    let total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
    entries.sort((a, b) => a.usedMs - b.usedMs);
    for (const entry of entries) {
      if (total <= maxBytes) break;
      await unlink(entry.file).catch(ignore);
      total -= entry.bytes;
    }
  }

  return {
    async get(key) {
      if (!(await ready())) return null;
      const file = entryPath(key);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch {
        // Missing, or evicted by another process since: a miss like any other.
        return null;
      }
      const image = decodeEntry(bytes);
      if (!image) {
        await unlink(file).catch(ignore);
        return null;
      }
      const now = new Date();
      await utimes(file, now, now).catch(ignore);
      return image;
    },

    async put(key, image) {
      const parts = encodeEntry(image);
      const size = parts.reduce((sum, part) => sum + part.length, 0);
      if (size > maxBytes || !(await ready())) return;
      const temp = path.join(dir, `${key}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
      try {
        const handle = await open(temp, 'wx', 0o600);
        try {
          const { bytesWritten } = await handle.writev(parts);
          if (bytesWritten !== size) throw new Error('short write');
        } finally {
          await handle.close();
        }
        await rename(temp, entryPath(key));
        await evict();
      } catch {
        await unlink(temp).catch(ignore);
      }
    },
  };
}

const caches = new Map<string, ImageCache>();

/** The cache of settings, one per directory and budget in a process. */
export function openImageCache(settings: ImageCacheSettings): ImageCache {
  const id = JSON.stringify([path.resolve(settings.dir), settings.maxBytes]);
  return kept(caches, id, () => createImageCache(settings));
}
