// Start-up step for object storage: the bucket must answer before the service listens, and
// temporary objects left by a process killed mid-upload are removed.
import type { S3Target } from '../config.js';
import { StorageUnavailableError } from '../errors.js';
import { createS3Storage } from './s3.js';

/** Resolves once the bucket answers; rejects with StorageUnavailableError (with its cause). */
export async function prepareObjectStorage(target: S3Target): Promise<void> {
  const storage = createS3Storage(target);
  try {
    await storage.check();
    // Best effort: clutter, not a reason to refuse to start.
    await storage.removeStaleTemporaries().catch(() => 0);
  } finally {
    storage.close();
  }
}

/** Network failures and timeouts are worth retrying; a missing bucket or refused access is not. */
export function isStorageUnreachable(error: unknown): boolean {
  if (!(error instanceof StorageUnavailableError)) return false;
  const cause = error.cause as { $metadata?: { httpStatusCode?: number }; name?: string } | undefined;
  const status = cause?.$metadata?.httpStatusCode;
  return status === undefined || status >= 500;
}

/** The reason in one line, e.g. "connect ECONNREFUSED 127.0.0.1:9" or "NotFound (HTTP 404)". */
export function describeStorageError(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const { name, message, code, $metadata } = cause as {
    name?: string;
    message?: string;
    code?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = $metadata?.httpStatusCode;
  const text = message && message !== 'UnknownError' ? message : (name ?? String(cause));
  return `${code && !text.includes(code) ? `${code} ` : ''}${text}${status ? ` (HTTP ${status})` : ''}`;
}
