// One process at a time on an embedded (PGlite) data directory: two would each cache and write
// its files and corrupt it. The holder writes "<dataDir>.lock" (beside the directory, not in it:
// PostgreSQL's initdb wants an empty directory) with its pid and port; another process finds it
// there, alive, and opens nothing. A lock left by a process that is gone is taken over.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../lib/process-alive.js';

export interface LockHolder {
  pid: number;
  /** The port the holder serves on; null for a command (npm run admin, migrate, backfill). */
  port: number | null;
  command: string;
}

/** The data directory is open in another live process. */
export class DirectoryLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const by = holder.port === null ? `${holder.command} (pid ${holder.pid})` : `a server (pid ${holder.pid}, port ${holder.port})`;
    super(
      `The embedded database directory ${dataDir} is in use by ${by}. Two processes on one directory would corrupt it: nothing was opened.`,
    );
    this.name = 'DirectoryLockedError';
  }
}

export const lockFileOf = (dataDir: string) => `${path.resolve(dataDir)}.lock`;

function readHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, port: typeof parsed.port === 'number' ? parsed.port : null, command: String(parsed.command ?? 'a process') };
  } catch {
    return null; // Vanished, or half-written by a process that died while writing it.
  }
}

/**
 * Takes the directory's lock for this process or throws DirectoryLockedError. Returns the release
 * (also run when the process exits, however it exits short of a SIGKILL).
 */
export function lockDataDirectory(dataDir: string, holder: Omit<LockHolder, 'pid'>): () => void {
  const file = lockFileOf(dataDir);
  // The lock sits beside the data directory: on a first start neither may exist yet.
  mkdirSync(path.dirname(file), { recursive: true });
  const mine: LockHolder = { pid: process.pid, ...holder };
  for (let attempt = 0; attempt < 3; attempt++) {
    let descriptor: number;
    try {
      descriptor = openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readHolder(file);
      if (current && isProcessAlive(current.pid)) throw new DirectoryLockedError(path.resolve(dataDir), current);
      // Its holder is gone (or it was never complete): take it over.
      rmSync(file, { force: true });
      continue;
    }
    try {
      writeSync(descriptor, JSON.stringify(mine));
    } finally {
      closeSync(descriptor);
    }
    const release = () => {
      process.off('exit', release);
      if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    };
    process.on('exit', release);
    return release;
  }
  throw new Error(`Could not take the lock ${file}.`);
}
