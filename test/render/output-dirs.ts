// What this process's render pools leave behind: their output directories, the files in them, and
// descriptors still open on an output file (unlinked or not), read from /proc/self/fd.
import { readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const OWN_PREFIX = `pf-render-${process.pid}-`;

export const ownDirs = () => readdirSync(tmpdir()).filter((entry) => entry.startsWith(OWN_PREFIX));

/** Output files still on disk, as `<dir>/<file>`. */
export const outputFiles = () => ownDirs().flatMap((dir) => readdirSync(path.join(tmpdir(), dir)).map((file) => path.join(dir, file)));

export function openOutputs(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.includes(OWN_PREFIX) ? [target] : [];
    } catch {
      return [];
    }
  });
}
