// What the benchmarks do to a running service as a client: register an account, upload images
// (streamed, in one body, or over and over from a child process), probe /health.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { json, ROOT } from './support.js';

/** A 1 × 1 PNG (70 bytes): the smallest image the asset routes accept. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP438DwHwAGgAJ/EEwb4QAAAABJRU5ErkJggg==',
  'base64',
);

export interface Account {
  email: string;
  password: string;
  token: string;
  auth: { authorization: string };
}

/** A new account on the service; `label` keeps the email unique and readable. */
export async function register(serviceUrl: string, label: string | number = 0): Promise<Account> {
  const email = `bench-${Date.now()}-${label}-${Math.random().toString(16).slice(2)}@example.com`;
  const password = 'bench password 1';
  const body = await json<{ user: { id: string }; token: string }>(
    await fetch(`${serviceUrl}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, name: `Bench ${label}` }),
    }),
  );
  return { email, password, token: body.token, auth: { authorization: `Bearer ${body.token}` } };
}

export interface UploadAnswer {
  seconds: number;
  status: number;
  body: string;
}

/**
 * A real (tiny) PNG padded with zeros after its end to the given size, streamed as a multipart
 * upload: the server reads it back for its metadata, so it must decode.
 */
export function uploadPadded(serviceUrl: string, token: string, size: number, onProgress?: () => void): Promise<UploadAnswer> {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(`${serviceUrl}/assets`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('response', (response) => {
      let body = '';
      response.on('data', (data) => (body += data));
      response.on('end', () => resolve({ seconds: (performance.now() - started) / 1000, status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(head);
    req.write(TINY_PNG);
    let sent = TINY_PNG.length;
    const pump = () => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        onProgress?.();
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/** Uploads an image in one multipart body. */
export async function uploadImage(
  serviceUrl: string,
  auth: Account['auth'],
  data: Buffer,
  type: string,
  filename: string,
): Promise<UploadAnswer> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), filename);
  const started = performance.now();
  const response = await fetch(`${serviceUrl}/assets`, { method: 'POST', headers: auth, body: form });
  const body = await response.text();
  return { seconds: (performance.now() - started) / 1000, status: response.status, body };
}

export interface Image {
  label: string;
  type: string;
  filename: string;
  data: Buffer;
}

/** The two large images of the asset workloads: a 6000 × 4000 JPEG and a PNG of about 25 MB. */
export async function largeImages(): Promise<Image[]> {
  const noisy = (width: number, height: number, sigma: number) =>
    sharp({ create: { width, height, channels: 3, background: '#3a6', noise: { type: 'gaussian', mean: 128, sigma } } });
  const jpeg = await noisy(6000, 4000, 20).jpeg({ quality: 85 }).toBuffer();
  // Stored uncompressed: 2880 × 2880 RGB is 24.9 MB, just under the 25 MiB limit.
  const png = await noisy(2880, 2880, 40).png({ compressionLevel: 0 }).toBuffer();
  return [
    { label: '6000 × 4000 JPEG', type: 'image/jpeg', filename: 'large.jpg', data: jpeg },
    { label: '25 MB PNG (2880 × 2880)', type: 'image/png', filename: 'large.png', data: png },
  ];
}

/** A child process uploading one image over and over until stopped; stop() resolves to the count of 201s. */
export function uploadLane(serviceUrl: string, token: string, image: Image): { stop(): Promise<number> } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pf-bench-lane-')), image.filename);
  writeFileSync(file, image.data);
  const script = `
    const { readFileSync } = require('node:fs');
    const data = readFileSync(process.argv[1]);
    const headers = { authorization: ${JSON.stringify(`Bearer ${token}`)} };
    let stop = false, done = 0;
    process.on('message', () => { stop = true; });
    (async () => {
      while (!stop) {
        const form = new FormData();
        form.append('file', new Blob([data], { type: ${JSON.stringify(image.type)} }), ${JSON.stringify(image.filename)});
        const response = await fetch(${JSON.stringify(`${serviceUrl}/assets`)}, { method: 'POST', headers, body: form });
        await response.arrayBuffer();
        if (response.status === 201) done++;
      }
      process.send(done, () => process.exit(0));
    })();`;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return {
    stop: () =>
      new Promise<number>((resolve) => {
        child.once('message', (count) => resolve(Number(count)));
        child.send('stop');
      }),
  };
}

export interface HealthLatency {
  probes: number;
  p50: number;
  p99: number;
  max: number;
}

/** Latency of GET <url>/health as a health checker sees it (bench/health-probe.ts, its own process). */
export async function healthProbe(url: string, seconds: number): Promise<HealthLatency> {
  const script = path.join(ROOT, 'bench/health-probe.ts');
  const args = ['--import', 'tsx', script, `${url}/health`, String(seconds)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`health probe of ${url} exited with ${code}`);
  return JSON.parse(output) as HealthLatency;
}
