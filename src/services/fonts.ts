// The account's fonts: upload (TrueType, OpenType or WOFF2, read from its bytes; WOFF2 stored
// decompressed), list (with the bundled families), delete, and the font set a render outlines
// text with. The stored bytes are never served; renders read them as files (a local copy when
// the storage is an object store).
import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HttpError } from '../errors.js';
import { createId, foundOr404 } from '../lib/ids.js';
import { NotAFontError, readFontFile, UnusableFontError } from '../lib/font-file.js';
import { readWhole } from '../lib/read-whole.js';
import { bundledFamilies, type FontFace } from '../print/fonts.js';
import type { Font, FontRepository } from '../repositories/fonts.js';
import type { FileStorage } from '../storage/index.js';
import type { FileJanitor } from './file-janitor.js';

/** 20 MB: 20 × 1024 × 1024 bytes. That size is accepted. */
export const MAX_FONT_BYTES = 20 * 1024 * 1024;

export const FONT_MESSAGES = {
  notAFont: 'Unsupported font file.',
  tooLarge: 'Font is larger than 20 MB (20,971,520 bytes).',
  notFound: 'Font not found.',
} as const;

const EXTENSIONS = { truetype: 'ttf', opentype: 'otf' } as const;

/** The owner's fonts as a render needs them: faces as files, and an identity for ETags. */
export interface OwnerFonts {
  faces: FontFace[];
  /** Changes exactly when the owner's font set changes. */
  identity: string;
}

const identityOf = (rows: Font[]) => rows.map((row) => row.id).sort().join(',');

export function createFontService(
  fonts: FontRepository,
  storage: FileStorage,
  janitor: FileJanitor,
  cacheDirectory = path.join(tmpdir(), 'packaging-fonts'),
) {
  /**
   * A file holding the font's bytes: the stored file itself on local disk, else a copy in the
   * cache directory named by its digest (written whole, then renamed into place). Null when the
   * stored object is gone.
   */
  async function fileOf(font: Font): Promise<string | null> {
    if (storage.localPath) {
      const local = storage.localPath(font.name);
      return (await stat(local).catch(() => null)) ? local : null;
    }
    const cached = path.join(cacheDirectory, `${font.sha256}.${EXTENSIONS[font.format]}`);
    if (await stat(cached).catch(() => null)) return cached;
    const opened = await storage.open(font.name);
    if (!opened) return null;
    const bytes = await readWhole(opened.stream, opened.size);
    await mkdir(cacheDirectory, { recursive: true });
    const temporary = `${cached}.${createId()}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, cached);
    return cached;
  }

  return {
    /** Reads, stores and records an uploaded font; on failure nothing is left. */
    async upload(userId: string, upload: Buffer): Promise<Font> {
      let read;
      try {
        read = await readFontFile(upload);
      } catch (error) {
        if (error instanceof NotAFontError) throw new HttpError(415, FONT_MESSAGES.notAFont);
        if (error instanceof UnusableFontError) throw new HttpError(422, error.message);
        throw error;
      }
      const name = `font-${createId()}.${EXTENSIONS[read.format]}`;
      await storage.save(name, read.bytes);
      try {
        return await fonts.create({
          id: createId(),
          userId,
          name,
          family: read.family,
          style: read.style,
          weight: read.weight,
          format: read.format,
          sizeBytes: read.bytes.length,
          sha256: createHash('sha256').update(read.bytes).digest('hex'),
        });
      } catch (error) {
        await storage.delete(name).catch(() => undefined);
        throw error;
      }
    },

    list: (userId: string) => fonts.listOwned(userId),

    bundled: bundledFamilies,

    async remove(userId: string, id: string): Promise<void> {
      await janitor.removeRecorded([await foundOr404(id, FONT_MESSAGES.notFound, () => fonts.deleteOwned(userId, id))]);
    },

    /** Changes exactly when the owner's font set changes (no file is read). */
    async identity(userId: string): Promise<string> {
      return identityOf(await fonts.listOwned(userId));
    },

    /** The owner's fonts a render outlines text with (the bundled ones are added by src/print). */
    async ownerFonts(userId: string): Promise<OwnerFonts> {
      const rows = await fonts.listOwned(userId);
      const faces: FontFace[] = [];
      for (const row of rows) {
        const file = await fileOf(row);
        if (file) faces.push({ family: row.family, style: row.style, weight: row.weight, path: file });
      }
      return { faces, identity: identityOf(rows) };
    },
  };
}
