// Where uploaded bytes live: the FileStorage interface and the stores that implement it.
export type { FileStorage, OpenedFile, PendingFile } from './file-storage.js';
export { createLocalDiskStorage, TEMP_PREFIX } from './local-disk.js';
export { createStorage, type SelectedStorage } from './select.js';
