// Graceful shutdown of a real server process: SIGTERM while 50 requests are in flight (slow
// uploads streamed in chunks, bcrypt logins and registrations, project writes). Each in-flight
// request completes with its normal answer, new connections are refused from the signal on, the
// process exits 0 within 10 s, and UPLOAD_DIR holds the uploaded files and no temporary file.
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/app.js';
import { thumbnailNameOf } from '../../src/services/assets.js';
import { pngOfSize } from '../helpers/images.js';
import { filePart, multipartBody } from '../helpers/multipart.js';
import { spawnServer, type LifecycleServer } from '../helpers/server-lifecycle.js';

const UPLOAD_BYTES = 192 * 1024;
const EXIT_WITHIN_MS = 10_000;

interface Answer {
  status: number;
  body: string;
  connection?: string;
}

/**
 * A request the server has started (its headers were answered with 100 Continue) whose body is
 * held back: part of it is sent at once, the rest only when finish() is called, in chunks.
 */
interface HeldRequest {
  label: string;
  /** Resolves once the server has the request and the first part of the body. */
  started: Promise<void>;
  finish(chunkBytes: number, pauseMs: number): Promise<void>;
  /** Drops the connection half way (a client that goes away). */
  abort(): void;
  answer: Promise<Answer>;
}

function holdRequest(
  port: number,
  label: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  firstBytes: number,
  agent: Agent | false = false,
): HeldRequest {
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method,
    path: url,
    agent,
    headers: { ...headers, 'content-length': String(body.length), expect: '100-continue' },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          connection: response.headers.connection,
        }),
      );
      response.on('error', reject);
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  const started = new Promise<void>((resolve, reject) => {
    req.once('continue', () => req.write(body.subarray(0, firstBytes), () => resolve()));
    req.once('error', reject);
  });
  started.catch(() => undefined);
  return {
    label,
    started,
    async finish(chunkBytes, pauseMs) {
      for (let offset = firstBytes; offset < body.length; offset += chunkBytes) {
        await new Promise<void>((resolve) => req.write(body.subarray(offset, offset + chunkBytes), () => resolve()));
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
      req.end();
    },
    abort: () => req.destroy(),
    answer,
  };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const jsonHeaders = (token?: string): Record<string, string> => ({
  'content-type': 'application/json',
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

/** Resolves with the error code of a new TCP connection to port ('connected' if it was accepted). */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('graceful shutdown (real process, SIGTERM)', () => {
  let server: LifecycleServer;
  let keepAliveServer: LifecycleServer;
  afterAll(async () => {
    await server?.cleanup();
    await keepAliveServer?.cleanup();
  });

  it('finishes all 50 in-flight requests, refuses new connections, ' +
    'exits 0 within 10 s, leaves no temp file', { timeout: 90_000 }, async () => {
    // bcrypt at cost 10 makes logins and registrations slow enough to still be running at exit.
    // The grace period is the default one (the test helper's is shorter): renders in flight get
    // half of it, and the 15 uploads' analyses share the niced render children with 20 bcrypt
    // hashes on two cores, which takes 1–2.5 s while other test files load the machine.
    server = await spawnServer({ BCRYPT_COST: '10', SHUTDOWN_GRACE_MS: '10000' });
    await server.waitUntilHealthy();
    const api = async (method: string, url: string, body?: unknown, token?: string) => {
      const response = await fetch(`${server.baseUrl}${url}`, {
        method,
        headers: jsonHeaders(token),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(300);
      return JSON.parse(text);
    };
    const register = async () => {
      const email = uniqueEmail('shutdown');
      const { token } = await api('POST', '/auth/register', { email, password: 'correct horse battery', name: 'S' });
      return { email, token: token as string };
    };
    const [uploader, loginUser, editor, ...creators] = await Promise.all(Array.from({ length: 7 }, register));
    const { project } = await api('POST', '/projects', { name: 'edited during shutdown', templateId: 'mailer-box' }, editor.token);

    // The analysis children are started before the signal (a cold start is not what is tested): on a
    // loaded machine their start-up would take a share of the half grace period renders get.
    const warmUp = multipartBody([filePart(pngOfSize(4096), { filename: 'warm-up.png' })]);
    const warmed = await fetch(`${server.baseUrl}/assets`, {
      method: 'POST',
      headers: { 'content-type': warmUp.contentType, authorization: `Bearer ${uploader.token}` },
      body: warmUp.body,
    });
    expect(warmed.status).toBe(201);
    const warmUpName = ((await warmed.json()) as { asset: { name: string } }).asset.name;

    const port = server.port;
    const image = pngOfSize(UPLOAD_BYTES);
    const held: HeldRequest[] = [];
    for (let i = 0; i < 15; i++) {
      const upload = multipartBody([filePart(image, { filename: `slow-${i}.png` })]);
      held.push(
        holdRequest(
          port,
          `upload ${i}`,
          'POST',
          '/assets',
          { 'content-type': upload.contentType, authorization: `Bearer ${uploader.token}` },
          upload.body,
          32 * 1024,
        ),
      );
    }
    for (let i = 0; i < 15; i++) {
      const body = json({ email: loginUser.email, password: 'correct horse battery' });
      held.push(holdRequest(port, `login ${i}`, 'POST', '/auth/login', jsonHeaders(), body, 10));
    }
    for (let i = 0; i < 5; i++) {
      const body = json({ email: uniqueEmail('late'), password: 'correct horse battery', name: 'Late' });
      held.push(holdRequest(port, `register ${i}`, 'POST', '/auth/register', jsonHeaders(), body, 10));
    }
    for (let i = 0; i < 10; i++) {
      const owner = creators[i % creators.length];
      const body = json({ name: `created during shutdown ${i}`, templateId: 'rsc-box' });
      held.push(holdRequest(port, `create ${i}`, 'POST', '/projects', jsonHeaders(owner.token), body, 10));
    }
    for (let i = 0; i < 5; i++) {
      const body = json({ name: `renamed ${i}`, widthMm: 100 + i });
      held.push(holdRequest(port, `update ${i}`, 'PUT', `/projects/${project.id}`, jsonHeaders(editor.token), body, 10));
    }
    expect(held).toHaveLength(50);
    // Two more uploads whose clients vanish mid-body during shutdown: their bytes must not stay.
    const abandoned = [0, 1].map((i) => {
      const upload = multipartBody([filePart(image, { filename: `abandoned-${i}.png` })]);
      return holdRequest(
        port,
        `abandoned ${i}`,
        'POST',
        '/assets',
        { 'content-type': upload.contentType, authorization: `Bearer ${uploader.token}` },
        upload.body,
        64 * 1024,
      );
    });
    await Promise.all([...held, ...abandoned].map((request) => request.started));

    const signalledAt = performance.now();
    server.child.kill('SIGTERM');

    // From the signal on, new connections are refused while the 50 are still waiting for bodies.
    let refusal = await tryConnect(port);
    while (refusal !== 'ECONNREFUSED' && performance.now() - signalledAt < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      refusal = await tryConnect(port);
    }
    expect(refusal).toBe('ECONNREFUSED');

    for (const request of abandoned) request.abort();
    await Promise.all(held.map((request) => (request.label.startsWith('upload') ? request.finish(16 * 1024, 40) : request.finish(64, 0))));
    const answers = await Promise.all(held.map(async (request) => ({ label: request.label, ...(await request.answer) })));

    const expected = (label: string) => (label.startsWith('login') || label.startsWith('update') ? 200 : 201);
    for (const answer of answers) expect(answer.status, `${answer.label}: ${answer.body}`).toBe(expected(answer.label));
    for (const answer of answers.filter((a) => a.label.startsWith('upload'))) {
      expect(JSON.parse(answer.body).asset).toMatchObject({ sizeBytes: UPLOAD_BYTES, mimeType: 'image/png' });
    }
    for (const answer of answers.filter((a) => a.label.startsWith('login'))) {
      expect(JSON.parse(answer.body).token).toEqual(expect.any(String));
    }

    const exit = await server.exited;
    expect(exit, server.output()).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(EXIT_WITHIN_MS);

    const entries = await readdir(server.uploadDir);
    expect(entries.filter((entry) => entry.startsWith('.')), 'temporary or probe files left').toEqual([]);
    const storedNames = [
      warmUpName,
      ...answers.filter((a) => a.label.startsWith('upload')).map((a) => JSON.parse(a.body).asset.name as string),
    ];
    expect(entries.sort()).toEqual([...storedNames, ...storedNames.map(thumbnailNameOf)].sort());
    expect((await readFile(path.join(server.uploadDir, storedNames[1]!))).equals(image)).toBe(true);
  });

  it('keep-alive clients: an idle connection is ended, one whose request runs is answered then ended, ' +
    'and the process exits 0 long before the grace period', { timeout: 90_000 }, async () => {
    const GRACE_MS = 30_000;
    keepAliveServer = await spawnServer({ SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    await keepAliveServer.waitUntilHealthy();
    const port = keepAliveServer.port;
    const agent = new Agent({ keepAlive: true });
    try {
      // Two connections kept alive: one is idle at the signal, the other carries a login whose
      // body is held until after it.
      const held = holdRequest(
        port,
        'held',
        'POST',
        '/auth/login',
        jsonHeaders(),
        json({ email: uniqueEmail('keep-alive'), password: 'correct horse battery' }),
        10,
        agent,
      );
      await held.started;
      const idle = await new Promise<IncomingMessage>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/templates', agent }, resolve).on('error', reject).end();
      });
      idle.resume();
      await new Promise((resolve) => idle.once('end', resolve));
      expect(idle.statusCode).toBe(200);
      expect(idle.headers.connection).toBe('keep-alive');
      const sockets = Object.values(agent.sockets).flat().concat(Object.values(agent.freeSockets).flat());
      expect(sockets).toHaveLength(2);
      const allClosed = Promise.all(sockets.map((socket) => new Promise((resolve) => socket!.once('close', resolve))));

      const signalledAt = performance.now();
      keepAliveServer.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await held.finish(64, 0);
      const answer = await held.answer;
      expect(answer.status, answer.body).toBe(401);

      // Without the connections ended, the process would wait for the grace timer (exit code 1).
      await allClosed;
      const exit = await keepAliveServer.exited;
      expect(exit, keepAliveServer.output()).toMatchObject({ code: 0, signal: null });
      expect(exit.at - signalledAt).toBeLessThan(GRACE_MS / 2);
    } finally {
      agent.destroy();
    }
  });
});
