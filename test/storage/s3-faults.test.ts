// Object storage faults, played with a TCP relay between the service and the real S3 gateway:
// an unreachable bucket at start-up (retry, then one line and exit 1), a bucket lost in the middle
// of an upload (503, nothing half-written), a silent bucket (503 by timeout, never a hang).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName } from '../helpers/app.js';
import { imageFixture, pngOfSize } from '../helpers/images.js';
import { createTestBucket, s3Env, type TestBucket } from '../helpers/s3.js';
import { freePort, spawnServer } from '../helpers/server-lifecycle.js';
import { startTcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';
import { assetCount, eventually, expectApiError, uploadAsset, uploadFile } from '../assets/helpers.js';

const S3_TIMEOUT_MS = 1_500;

describe(`object storage faults (${engineName()})`, { timeout: 120_000 }, () => {
  let bucket: TestBucket;
  let relay: TcpRelay;
  let app: App;
  let account: TestAccount;

  beforeAll(async () => {
    bucket = await createTestBucket('pf-faults');
    const gateway = new URL(bucket.target.endpoint!);
    relay = await startTcpRelay({ host: gateway.hostname, port: Number(gateway.port) });
    app = await createTestApp({ ...s3Env(bucket.name, relay.rewrite(gateway.origin)), S3_TIMEOUT_MS: String(S3_TIMEOUT_MS) });
    account = await registerAccount(app);
  });
  afterAll(async () => {
    await app?.close();
    await relay?.close();
    await bucket?.remove();
  });

  it('a bucket lost in the middle of an upload: 503, no object, no open upload, no row', async () => {
    const rows = await assetCount(app, account.id);
    // The relay goes down while the 20 MB upload is being sent in 5 MiB parts.
    const cut = new Promise<void>((resolve) => setTimeout(() => void relay.cut('refuse').then(resolve), 150));
    const response = await uploadFile(app, account, pngOfSize(20 * 1024 * 1024));
    await cut;
    expectApiError(response, 503, 'Storage is unavailable.');
    expect(response.headers['retry-after']).toBe('5');
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expectApiError(ready, 503, 'Storage is unavailable.');

    await relay.restore();
    expect(await bucket.keys()).toEqual([]);
    // The abort that failed with the bucket is retried in the background once it is back.
    await eventually(async () => (await bucket.openUploads()).length === 0, 15_000, 'the multipart upload to be aborted');
    expect(await assetCount(app, account.id)).toBe(rows);
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });

  it('a silent bucket: reads, uploads and readiness answer 503 within the timeout, then recover', async () => {
    const asset = await uploadAsset(app, account, imageFixture('tiny.png'));
    await relay.cut('freeze');
    try {
      for (const request of [
        () => app.inject({ method: 'GET', url: `/files/${asset.name}` }),
        () => app.inject({ method: 'HEAD', url: `/files/${asset.name}` }),
        () => uploadFile(app, account, imageFixture('tiny.png')),
        () => app.inject({ method: 'GET', url: '/health/ready' }),
      ]) {
        const started = performance.now();
        const response = await request();
        const elapsed = performance.now() - started;
        expect(response.statusCode, response.body).toBe(503);
        if (response.body) expect(response.json()).toMatchObject({ message: 'Storage is unavailable.' });
        // One attempt and one retry, each bounded by S3_TIMEOUT_MS: never the SDK's minutes.
        expect(elapsed).toBeLessThan(S3_TIMEOUT_MS * 2 + 3_000);
      }
    } finally {
      await relay.restore();
    }
    const served = await app.inject({ method: 'GET', url: `/files/${asset.name}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(imageFixture('tiny.png'));
  });
});

describe('start-up with an unreachable bucket', { timeout: 60_000 }, () => {
  it('retries with back-off, one line per attempt, then exits 1 with one clear line', async () => {
    const deadPort = await freePort();
    const server = await spawnServer({
      ...s3Env('pf-unreachable', `http://127.0.0.1:${deadPort}`),
      S3_STARTUP_RETRY_MS: '10000',
      S3_TIMEOUT_MS: '1000',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    try {
      const exit = await server.exited;
      expect(exit.code, server.output()).toBe(1);
      const lines = server.output().split('\n').filter((line) => line.trim() !== '');
      const retries = lines.filter((line) => line.startsWith('Object storage unreachable at start-up (attempt '));
      expect(retries.length, server.output()).toBeGreaterThanOrEqual(2);
      expect(retries[0]).toMatch(/^Object storage unreachable at start-up \(attempt 1\): .+; retrying in 500 ms\.$/);
      expect(lines.at(-1)).toMatch(/^Start-up failed: Object storage unreachable \(gave up after S3_STARTUP_RETRY_MS=10000\): .+$/);
      expect(lines.every((line) => !line.includes('AWS_SECRET_ACCESS_KEY') && !line.includes(s3Env('x').AWS_SECRET_ACCESS_KEY))).toBe(true);
    } finally {
      await server.cleanup();
    }
  });
});
