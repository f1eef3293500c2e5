// Which FileStorage the service uses: the S3-compatible bucket when S3_BUCKET is set, otherwise
// the local directory UPLOAD_DIR.
import type { Config } from '../config.js';
import type { FileStorage } from './file-storage.js';
import { createLocalDiskStorage } from './local-disk.js';
import { createS3Storage } from './s3.js';

export interface SelectedStorage {
  storage: FileStorage;
  /** Releases connections (object storage); called when the app closes. */
  close(): void;
}

export function createStorage(config: Pick<Config, 's3' | 'uploadDir'>): SelectedStorage {
  if (!config.s3) return { storage: createLocalDiskStorage(config.uploadDir), close: () => undefined };
  const s3 = createS3Storage(config.s3);
  return { storage: s3, close: () => s3.close() };
}
