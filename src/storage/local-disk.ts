// FileStorage on a local directory. An upload is written to `.tmp-<cuid>` in the same directory
// and renamed into place on commit (a derived object on save), so a stored name never shows a
// partial file.
import { createWriteStream, mkdirSync, readdirSync, statSync, unlinkSync, type WriteStream } from 'node:fs';
import { open, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createId } from '../lib/ids.js';
import type { FileStorage, OpenedFile, PendingFile } from './file-storage.js';

export const TEMP_PREFIX = '.tmp-';

/**
 * A temporary file this old was left by a process that died mid-upload: no live upload lasts
 * that long (requests time out after two minutes), so another process's upload is never touched.
 */
export const STALE_TEMP_MS = 60 * 60 * 1000;

// Names come from the service (cuid2 + extension); anything else is a programming error, and
// never a path: no separators, no leading dot.
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9]+)?$/;

export function assertSafeName(name: string): void {
  if (!SAFE_NAME.test(name)) throw new Error(`Refusing unsafe storage name ${JSON.stringify(name)}.`);
}

/** Creates root (recursively) if needed and removes stale temporary files; call once at start-up. */
export function createLocalDiskStorage(root: string): FileStorage {
  mkdirSync(root, { recursive: true });
  removeStaleTemporaries(root, Date.now() - STALE_TEMP_MS);

  const pathOf = (name: string) => {
    assertSafeName(name);
    return path.join(root, name);
  };

  return {
    async put(source: Readable): Promise<PendingFile> {
      const temporary = path.join(root, `${TEMP_PREFIX}${createId()}`);
      // flush: the data reaches the disk before the rename makes it visible.
      const target = createWriteStream(temporary, { flags: 'wx', flush: true });
      try {
        await pipeline(source, target);
        await closed(target);
      } catch (error) {
        await closed(target);
        await removeIfPresent(temporary);
        throw error;
      }
      return {
        size: target.bytesWritten,
        async commit(name) {
          try {
            await rename(temporary, pathOf(name));
          } catch (error) {
            await removeIfPresent(temporary);
            throw error;
          }
        },
        discard: () => removeIfPresent(temporary),
      };
    },

    async save(name: string, bytes: Buffer): Promise<void> {
      const target = pathOf(name);
      const temporary = path.join(root, `${TEMP_PREFIX}${createId()}`);
      try {
        // flush: the bytes reach the disk before the rename makes them visible.
        await writeFile(temporary, bytes, { flag: 'wx', flush: true });
        await rename(temporary, target);
      } catch (error) {
        await removeIfPresent(temporary);
        throw error;
      }
    },

    async open(name: string): Promise<OpenedFile | null> {
      const handle = await open(pathOf(name), 'r').catch(nullWhenMissing);
      if (!handle) return null;
      try {
        const { size } = await handle.stat();
        return { size, stream: handle.createReadStream() };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async stat(name: string) {
      const stats = await stat(pathOf(name)).catch(nullWhenMissing);
      return stats ? { size: stats.size } : null;
    },

    localPath: pathOf,

    async delete(name: string) {
      await removeIfPresent(pathOf(name));
    },
  };
}

function removeStaleTemporaries(root: string, olderThan: number): void {
  for (const entry of readdirSync(root)) {
    if (!entry.startsWith(TEMP_PREFIX)) continue;
    const file = path.join(root, entry);
    try {
      if (statSync(file).mtimeMs < olderThan) unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Waits until the descriptor is closed: a write stream destroyed while still opening would
 * otherwise create its file after an unlink already ran.
 */
async function closed(stream: WriteStream): Promise<void> {
  if (!stream.closed) await new Promise<void>((resolve) => stream.once('close', () => resolve()));
}

async function removeIfPresent(file: string): Promise<void> {
  await unlink(file).catch(nullWhenMissing);
}

function nullWhenMissing(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT') return null;
  throw error;
}
