// A bucket of its own on the local S3 gateway (Ceph's radosgw, scripts/start-s3.sh) for the storage
// workload: S3_TEST_ENDPOINT names a running gateway, else the script starts one (it is idempotent).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { createS3Client } from '../src/storage/s3.js';
import { ROOT } from './support.js';

/** The account start-s3.sh creates (the gateway checks signatures). */
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: process.env.PF_S3_ACCESS_KEY ?? 'PFTESTACCESSKEY00001',
  AWS_SECRET_ACCESS_KEY: process.env.PF_S3_SECRET_KEY ?? 'pf-test-secret-key-0000000000000000000000',
};

function gatewayEndpoint(): string {
  if (process.env.S3_TEST_ENDPOINT) return process.env.S3_TEST_ENDPOINT;
  const output = execFileSync('bash', [path.join(ROOT, 'scripts/start-s3.sh')], { encoding: 'utf8', timeout: 120_000 });
  return output.trim().split('\n').pop() ?? '';
}

export interface BenchBucket {
  /** The S3_* and credential variables of a service storing its files in the bucket. */
  env: Record<string, string>;
  /** Empties and deletes the bucket. */
  remove(): Promise<void>;
}

export async function createBucket(prefix = 'pf-bench'): Promise<BenchBucket> {
  const name = `${prefix}-${randomBytes(6).toString('hex')}`;
  const endpoint = gatewayEndpoint();
  // The SDK's standard chain reads the credentials from the environment, as in production.
  process.env.AWS_ACCESS_KEY_ID ??= CREDENTIALS.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY ??= CREDENTIALS.AWS_SECRET_ACCESS_KEY;
  const client = createS3Client({ bucket: name, endpoint, region: 'us-east-1', forcePathStyle: true, timeoutMs: 10_000 });
  await client.send(new CreateBucketCommand({ Bucket: name }));
  return {
    env: {
      S3_BUCKET: name,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
    },
    async remove() {
      const open = await client.send(new ListMultipartUploadsCommand({ Bucket: name }));
      for (const item of open.Uploads ?? []) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: name, Key: item.Key, UploadId: item.UploadId }));
      }
      const page = await client.send(new ListObjectsV2Command({ Bucket: name }));
      for (const item of page.Contents ?? []) await client.send(new DeleteObjectCommand({ Bucket: name, Key: item.Key }));
      await client.send(new DeleteBucketCommand({ Bucket: name }));
      client.destroy();
    },
  };
}
