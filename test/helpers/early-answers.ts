// Early answers on POST /assets (400, 401, 413, 415) from three kinds of client, each many times:
// Node's fetch (undici), curl, and a raw socket that writes its body slowly and reads only once it
// has written all of it. Each try must get the service's ApiError: no EPIPE, no reset, no 502.
// Shared by the direct test (test/assets/early-answers.test.ts) and the one behind nginx.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import path from 'node:path';
import { filePart, multipartBody, type Part } from './multipart.js';

export interface EarlyCase {
  name: string;
  status: number;
  message: string;
  headers: Record<string, string>;
  body: Buffer;
  /** The same parts as a FormData and the headers without Content-Type, as an application sends them with fetch. */
  form: () => FormData;
  formHeaders: Record<string, string>;
}

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** Large enough that the body cannot sit in the socket buffers when the answer is written. */
const REST_BYTES = 4 * 1024 * 1024;

const pngHead = () => Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108020000', 'hex');
const padded = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 0x41)]);

function multipart(parts: Part[], headers: Record<string, string>) {
  const built = multipartBody(parts);
  const form = () => {
    const data = new FormData();
    for (const part of parts) data.append(part.name, new File([part.data], part.filename ?? 'file', { type: part.contentType }));
    return data;
  };
  return { headers: { ...headers, 'content-type': built.contentType }, body: built.body, form, formHeaders: headers };
}

/** The four early answers of POST /assets, with `auth` (the account's Authorization header). */
export function earlyCases(auth: Record<string, string>): EarlyCase[] {
  return [
    {
      name: '400 (a file part under another name)',
      status: 400,
      message: 'Only one file part named "file" may be sent.',
      ...multipart([filePart(padded(pngHead(), REST_BYTES), { name: 'other' })], auth),
    },
    {
      name: '401 (no token)',
      status: 401,
      message: 'Authentication required.',
      ...multipart([filePart(padded(pngHead(), REST_BYTES))], {}),
    },
    {
      name: '413 (a 25.5 MiB image part)',
      status: 413,
      message: 'File is larger than 25 MB (26,214,400 bytes).',
      ...multipart([filePart(padded(pngHead(), MAX_UPLOAD_BYTES + 512 * 1024))], auth),
    },
    {
      name: '415 (a text/plain part)',
      status: 415,
      message: 'Only images can be uploaded: the file part must be declared with an image/* type.',
      ...multipart([filePart(padded(Buffer.from('hello world\n'), REST_BYTES), { contentType: 'text/plain', filename: 'a.txt' })], auth),
    },
  ];
}

export interface Outcome {
  status: number;
  body: string;
}

/** Runs `tries` calls, `concurrency` at a time; resolves with every outcome or rejects with the first error. */
export async function repeat(tries: number, concurrency: number, attempt: (index: number) => Promise<Outcome>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < tries) {
      const index = next++;
      try {
        outcomes[index] = await attempt(index);
      } catch (error) {
        throw new Error(`try ${index + 1}: ${(error as Error).message} (${String((error as { cause?: unknown }).cause ?? '')})`, {
          cause: error,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return outcomes;
}

export async function viaFetch(url: string, early: EarlyCase): Promise<Outcome> {
  const response = await fetch(url, {
    method: 'POST',
    headers: early.formHeaders,
    body: early.form(),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.text() };
}

/**
 * Writes the request in slices, yielding between them, and starts reading only after the last
 * slice was written: a server that closes on unread bytes resets this socket before it reads.
 */
export async function viaSlowSocket(url: string, early: EarlyCase, sliceBytes = 64 * 1024): Promise<Outcome> {
  const { hostname, port, pathname } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.pause();
  const failed = new Promise<never>((_resolve, reject) => socket.once('error', reject));
  failed.catch(() => undefined);
  try {
    await Promise.race([new Promise((resolve) => socket.once('connect', resolve)), failed]);
    const head = [`POST ${pathname} HTTP/1.1`, `Host: ${hostname}:${port}`, `Content-Length: ${early.body.length}`];
    for (const [name, value] of Object.entries(early.headers)) head.push(`${name}: ${value}`);
    const write = (chunk: Buffer | string) =>
      Promise.race([new Promise<void>((resolve, reject) => socket.write(chunk, (error) => (error ? reject(error) : resolve()))), failed]);
    await write(`${head.join('\r\n')}\r\n\r\n`);
    for (let offset = 0; offset < early.body.length; offset += sliceBytes) {
      await write(early.body.subarray(offset, offset + sliceBytes));
      await nextTurn();
    }
    return await Promise.race([readResponse(socket), failed]);
  } finally {
    socket.destroy();
  }
}

/** One response with a Content-Length body, read from a paused socket. */
function readResponse(socket: net.Socket): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? Number.NaN);
      if (received.length - end - 4 < length) return;
      resolve({ status: Number(head.split(' ')[1]), body: received.subarray(end + 4, end + 4 + length).toString('utf8') });
    });
    socket.once('end', () => reject(new Error(`connection closed before a whole response: ${received.toString('latin1').slice(0, 200)}`)));
    socket.resume();
  });
}

/**
 * `tries` POSTs of the case's body by `processes` curl processes (each reuses its connection while
 * the server keeps it). Resolves with each transfer's outcome; curl's own errors reject.
 */
export async function viaCurl(url: string, early: EarlyCase, tries: number, scratchDir: string, processes = 1): Promise<Outcome[]> {
  const bodyFile = path.join(scratchDir, `early-${early.status}.bin`);
  writeFileSync(bodyFile, early.body);
  const shares = Array.from({ length: processes }, (_, index) => Math.floor((tries + index) / processes));
  return (await Promise.all(shares.map((share) => curlTries(url, early, share, bodyFile)))).flat();
}

function curlTries(url: string, early: EarlyCase, tries: number, bodyFile: string): Promise<Outcome[]> {
  const args = ['-sS', '-X', 'POST', '--data-binary', `@${bodyFile}`, '-w', '\\n%{http_code}\\n', '--max-time', '60'];
  for (const [name, value] of Object.entries(early.headers)) args.push('-H', `${name}: ${value}`);
  for (let i = 0; i < tries; i++) args.push(url);
  return new Promise((resolve, reject) => {
    const curl = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    curl.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    curl.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    curl.once('error', reject);
    curl.once('close', (code) => {
      if (code !== 0 || stderr !== '') return reject(new Error(`curl exited ${code}: ${stderr.slice(0, 500)}`));
      const lines = stdout.split('\n').filter(Boolean);
      const outcomes: Outcome[] = [];
      for (let i = 0; i + 1 < lines.length; i += 2) outcomes.push({ body: lines[i]!, status: Number(lines[i + 1]) });
      resolve(outcomes);
    });
  });
}
