// FileStorage on an S3-compatible bucket (AWS S3, Ceph radosgw, MinIO, …). An upload streams to a
// temporary key `.tmp-<cuid>` as a multipart upload while it arrives (lib-storage: 5 MiB parts, at
// most two in flight, so a 25 MB upload never sits whole in memory); a failed or rejected upload
// aborts the multipart upload, so no object appears. commit() copies the object server-side to its
// real name and deletes the temporary one: a stored name never shows a partial object.
// Credentials come only from the AWS SDK's standard chain (environment, shared files, instance
// roles) and are never logged.
import { Transform, pipeline, type Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Upload } from '@aws-sdk/lib-storage';
import { createId } from '../lib/ids.js';
import type { S3Target } from '../config.js';
import { StorageUnavailableError } from '../errors.js';
import type { FileStorage, OpenedFile, PendingFile } from './file-storage.js';
import { assertSafeName, STALE_TEMP_MS, TEMP_PREFIX } from './local-disk.js';

/** lib-storage's minimum part size (S3's lower bound for every part but the last). */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export interface S3Storage extends FileStorage {
  /** Rejects with StorageUnavailableError when the bucket cannot be reached or read. */
  check(): Promise<void>;
  /** Removes temporary objects older than STALE_TEMP_MS (left by a process killed mid-upload). */
  removeStaleTemporaries(): Promise<number>;
  close(): void;
}

export function createS3Client(target: S3Target): S3Client {
  return new S3Client({
    region: target.region,
    ...(target.endpoint ? { endpoint: target.endpoint } : {}),
    forcePathStyle: target.forcePathStyle,
    // Checksums only where S3 requires them: other S3 implementations store a streamed body with
    // its aws-chunked framing (s3rver) or refuse the trailer.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A slow or silent bucket fails the request (503), it never holds it.
    // connectionTimeout: to connect; socketTimeout: the longest silence on a connection (a long
    // upload or download that keeps moving is never cut).
    requestHandler: { connectionTimeout: target.timeoutMs, socketTimeout: target.timeoutMs },
    maxAttempts: 2,
  });
}

/** Not-found answers of GetObject / HeadObject (S3 says NoSuchKey or, for HEAD, a bare 404). */
function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/** Every failure of the bucket itself becomes 503; the request's own errors pass unchanged. */
function unavailable(error: unknown): StorageUnavailableError {
  return error instanceof StorageUnavailableError ? error : new StorageUnavailableError({ cause: error });
}

/** The request's answer; any failure a 503. */
const answered = <T>(request: Promise<T>): Promise<T> =>
  request.catch((error: unknown) => {
    throw unavailable(error);
  });

/** The request's answer, or null when the object is missing; any other failure a 503. */
const unlessMissing = <T>(request: Promise<T>): Promise<T | null> =>
  request.catch((error: unknown) => {
    if (isMissing(error)) return null;
    throw unavailable(error);
  });

export function createS3Storage(target: S3Target, client = createS3Client(target)): S3Storage {
  const { bucket, timeoutMs } = target;
  /** An abort signal for a single request: past it the call rejects and the request answers 503. */
  const deadline = () => ({ abortSignal: AbortSignal.timeout(timeoutMs) });

  const remove = async (key: string) => {
    await unlessMissing(client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), deadline()));
  };

  /** Aborts a multipart upload that may still be open, retrying while the bucket is away. */
  const abortLater = (key: string, uploadId: string | undefined, delays = [0, 1_000, 5_000, 30_000, 120_000]) => {
    if (!uploadId || delays.length === 0) return;
    const [delay, ...rest] = delays;
    setTimeout(() => {
      client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }), deadline())
        .catch((error: unknown) => {
          if (!isMissing(error)) abortLater(key, uploadId, rest);
        });
    }, delay).unref();
  };

  return {
    async put(source: Readable): Promise<PendingFile> {
      const temporary = `${TEMP_PREFIX}${createId()}`;
      let size = 0;
      // The source's own error (too large, not an image, a cut body) is what the caller must see.
      let sourceError: unknown;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(null, chunk);
        },
      });
      pipeline(source, counted, (error) => {
        if (error) sourceError = error;
      });
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: temporary, Body: counted },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        counted.destroy();
        // done() has aborted the multipart upload; a small body was never sent (one PutObject at
        // the end). What a broken source left is nothing. When the bucket itself is gone the
        // abort failed too: it is retried in the background, so no parts are left to pay for.
        abortLater(temporary, (upload as unknown as { uploadId?: string }).uploadId);
        if (sourceError) throw sourceError;
        throw unavailable(error);
      }
      if (sourceError) {
        await remove(temporary).catch(() => undefined);
        throw sourceError;
      }
      return {
        size,
        async commit(name) {
          assertSafeName(name);
          const copy = new CopyObjectCommand({ Bucket: bucket, Key: name, CopySource: `${bucket}/${temporary}` });
          try {
            await answered(client.send(copy, deadline()));
          } finally {
            // Copied or not, the temporary object is done with; one left behind is only clutter,
            // removed at the next start-up.
            await remove(temporary).catch(() => undefined);
          }
        },
        discard: () => remove(temporary),
      };
    },

    async open(name: string): Promise<OpenedFile | null> {
      assertSafeName(name);
      const headers = new AbortController();
      const headersTimer = setTimeout(() => headers.abort(), timeoutMs);
      try {
        // The deadline covers the answer's headers, not the body: a large file may take longer
        // than one request budget to read; the socket's inactivity timeout ends a stalled one.
        const get = new GetObjectCommand({ Bucket: bucket, Key: name });
        const reply = await unlessMissing(client.send(get, { abortSignal: headers.signal }));
        return reply && { size: reply.ContentLength ?? 0, stream: reply.Body as Readable };
      } finally {
        clearTimeout(headersTimer);
      }
    },

    async stat(name: string) {
      assertSafeName(name);
      const reply = await unlessMissing(client.send(new HeadObjectCommand({ Bucket: bucket, Key: name }), deadline()));
      return reply && { size: reply.ContentLength ?? 0 };
    },

    async delete(name: string) {
      assertSafeName(name);
      await remove(name);
    },

    async presign(name: string, expiresAt: Date, download: { fileName: string; contentType: string }) {
      assertSafeName(name);
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: name,
        ResponseContentDisposition: `attachment; filename="${download.fileName.replace(/[^\w.-]/g, '_')}"`,
        ResponseContentType: download.contentType,
      });
      const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
      return getSignedUrl(client, command, { expiresIn });
    },

    async save(name: string, bytes: Buffer) {
      assertSafeName(name);
      // One PutObject: S3 makes it visible whole or not at all, and overwrites.
      await answered(client.send(new PutObjectCommand({ Bucket: bucket, Key: name, Body: bytes }), deadline()));
    },

    async check() {
      await answered(client.send(new HeadBucketCommand({ Bucket: bucket }), deadline()));
    },

    async removeStaleTemporaries() {
      const olderThan = Date.now() - STALE_TEMP_MS;
      let removed = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: TEMP_PREFIX, ContinuationToken: token }),
          deadline(),
        );
        const stale = (page.Contents ?? []).filter((item) => item.Key && (item.LastModified?.getTime() ?? 0) < olderThan);
        if (stale.length > 0) {
          await client.send(
            new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: stale.map((item) => ({ Key: item.Key })), Quiet: true } }),
            deadline(),
          );
          removed += stale.length;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return removed;
    },

    close: () => client.destroy(),
  };
}
