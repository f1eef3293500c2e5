// The real S3 gateway the storage tests run against: Ceph's radosgw from scripts/start-s3.sh.
// .ci/run starts it and passes its address in S3_TEST_ENDPOINT; without CI a test run starts it
// itself (the script is idempotent). In CI a missing endpoint is a failure, never a skip.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  AbortMultipartUploadCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createS3Client } from '../../src/storage/s3.js';
import type { S3Target } from '../../src/config.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The test account start-s3.sh creates (the gateway checks signatures). */
export const S3_TEST_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: process.env.PF_S3_ACCESS_KEY ?? 'PFTESTACCESSKEY00001',
  AWS_SECRET_ACCESS_KEY: process.env.PF_S3_SECRET_KEY ?? 'pf-test-secret-key-0000000000000000000000',
};

let endpoint: string | undefined;

export function s3TestEndpoint(): string {
  if (endpoint) return endpoint;
  const given = process.env.S3_TEST_ENDPOINT;
  if (given) {
    endpoint = given;
  } else if (process.env.CI) {
    throw new Error('S3_TEST_ENDPOINT is not set: .ci/run starts the S3 gateway (scripts/start-s3.sh) and must pass its address.');
  } else {
    const output = execFileSync('bash', [path.join(ROOT, 'scripts/start-s3.sh')], { encoding: 'utf8', timeout: 120_000 });
    endpoint = output.trim().split('\n').pop() ?? '';
  }
  // The SDK's standard chain reads them from the environment, as in production.
  process.env.AWS_ACCESS_KEY_ID ??= S3_TEST_CREDENTIALS.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY ??= S3_TEST_CREDENTIALS.AWS_SECRET_ACCESS_KEY;
  return endpoint;
}

/** The S3_* (and credential) variables of a service using bucket on endpoint. */
export function s3Env(bucket: string, at = s3TestEndpoint()): Record<string, string> {
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: at,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? S3_TEST_CREDENTIALS.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? S3_TEST_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
  };
}

export interface TestBucket {
  name: string;
  client: S3Client;
  target: S3Target;
  /** Every object key in the bucket. */
  keys(): Promise<string[]>;
  /** Multipart uploads started and neither completed nor aborted. */
  openUploads(): Promise<string[]>;
  /** Empties and deletes the bucket. */
  remove(): Promise<void>;
}

/** A fresh bucket of its own on the test gateway. */
export async function createTestBucket(prefix = 'pf-test'): Promise<TestBucket> {
  const name = `${prefix}-${randomBytes(6).toString('hex')}`;
  const target: S3Target = { bucket: name, endpoint: s3TestEndpoint(), region: 'us-east-1', forcePathStyle: true, timeoutMs: 10_000 };
  const client = createS3Client(target);
  await client.send(new CreateBucketCommand({ Bucket: name }));
  const keys = async () => {
    const page = await client.send(new ListObjectsV2Command({ Bucket: name }));
    return (page.Contents ?? []).map((item) => item.Key ?? '');
  };
  const openUploads = async () => {
    const page = await client.send(new ListMultipartUploadsCommand({ Bucket: name }));
    return (page.Uploads ?? []).map((item) => `${item.Key}:${item.UploadId}`);
  };
  return {
    name,
    client,
    target,
    keys,
    openUploads,
    async remove() {
      const page = await client.send(new ListMultipartUploadsCommand({ Bucket: name }));
      for (const item of page.Uploads ?? []) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: name, Key: item.Key, UploadId: item.UploadId }));
      }
      for (const key of await keys()) await client.send(new DeleteObjectCommand({ Bucket: name, Key: key }));
      await client.send(new DeleteBucketCommand({ Bucket: name }));
      client.destroy();
    },
  };
}
