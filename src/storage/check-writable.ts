// Start-up check that a storage directory can really take files: an existing but read-only
// directory would otherwise let the service start and fail every upload.
import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export class DirectoryNotWritableError extends Error {
  constructor(label: string, dir: string, cause: unknown) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    super(`${label} ${dir} is not a writable directory (${reason}).`, { cause });
    this.name = 'DirectoryNotWritableError';
  }
}

/** Creates dir if needed, then writes and removes a probe file; throws DirectoryNotWritableError. */
export async function assertWritableDirectory(dir: string, label = 'Directory'): Promise<void> {
  const probe = path.join(dir, `.write-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '', { flag: 'wx' });
    await unlink(probe);
  } catch (error) {
    throw new DirectoryNotWritableError(label, dir, error);
  }
}
