// Removes stored files whose rows are gone, through the file_deletions outbox: whoever deletes rows
// records their files' names in the same transaction (deleteRecordingFiles in the repository
// layer); after the commit it calls removeRecorded(names). A process that dies in between leaves
// the names recorded, and the next start-up's drain() removes them. A file is never removed
// before its row is gone, and a row never points at a removed file.
import type { FileDeletionRepository } from '../repositories/file-deletions.js';
import type { FileStorage } from '../storage/index.js';

const DRAIN_PAGE = 100;

export type DrainResult = Record<'removed' | 'failed', number>;

export function createFileJanitor(deletions: FileDeletionRepository, storage: FileStorage) {
  /** Removes each file, then forgets the names whose removal succeeded. Never throws for a file. */
  async function removeFiles(names: readonly string[]): Promise<DrainResult> {
    const outcomes = await Promise.allSettled(names.map((name) => storage.delete(name)));
    const removed = names.filter((_, index) => outcomes[index]!.status === 'fulfilled');
    await deletions.forget(removed);
    return { removed: removed.length, failed: names.length - removed.length };
  }

  return {
    /**
     * Called after the transaction that recorded names committed. A failure (storage or database
     * down) is not the caller's: the names stay recorded and the next drain retries them.
     */
    async removeRecorded(names: readonly string[]): Promise<DrainResult> {
      try {
        return await removeFiles(names);
      } catch {
        return { removed: 0, failed: names.length };
      }
    },

    /** Removes every recorded file left over (by a crash, or a failed removal). Stops when signal aborts. */
    async drain(signal?: AbortSignal): Promise<DrainResult> {
      const total: DrainResult = { removed: 0, failed: 0 };
      let after: string | undefined;
      while (!signal?.aborted) {
        const names = await deletions.pending(DRAIN_PAGE, after);
        if (names.length === 0) break;
        const result = await removeFiles(names);
        total.removed += result.removed;
        total.failed += result.failed;
        if (names.length < DRAIN_PAGE) break;
        after = names[names.length - 1];
      }
      return total;
    },
  };
}

export type FileJanitor = ReturnType<typeof createFileJanitor>;
