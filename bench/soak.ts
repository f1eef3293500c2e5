// npm run soak: mixed traffic against one real server process for SOAK_SECONDS (300 by default)
// from SOAK_CONNECTIONS keep-alive connections (8), one virtual user each: register, login,
// project CRUD, uploads and their files, /v1 reads. Prints per reporting interval (60 s) the
// requests, errors, p99 per route and the server's resident memory; exits 1 on any error.
// PostgreSQL when DATABASE_URL is set (a fresh database, dropped afterwards), else embedded.
// Runs dist/server.js when the build is newer than every source file, else src/server.ts under tsx.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_KEY_SECRET, createDatabase, freePort, JWT_SECRET, ROOT, rssBytes, type BenchDatabase } from './support.js';

const SECONDS = positive('SOAK_SECONDS', 300);
const CONNECTIONS = positive('SOAK_CONNECTIONS', 8);
const REPORT_SECONDS = positive('SOAK_REPORT_SECONDS', 60);
const BCRYPT_COST = process.env.SOAK_BCRYPT_COST ?? '10';

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}.`);
  return value;
}

// ---- the server ------------------------------------------------------------------------------

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function chooseEntry(): { args: string[]; label: string } {
  const built = path.join(ROOT, 'dist/server.js');
  const forced = process.env.SOAK_ENTRY;
  const fresh = existsSync(built) && statSync(built).mtimeMs >= newestSourceMtime(path.join(ROOT, 'src'));
  if (forced === 'dist' || (forced !== 'tsx' && fresh)) return { args: [built], label: 'node dist/server.js' };
  const why = forced === 'tsx' ? 'SOAK_ENTRY=tsx' : existsSync(built) ? 'dist is older than src' : 'no dist';
  return { args: ['--import', 'tsx', path.join(ROOT, 'src/server.ts')], label: `tsx src/server.ts (${why})` };
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  stderr(): string;
}

async function startServer(args: string[], env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited during start-up:\n${stderr}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`The server did not answer /health within 60 s:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, baseUrl, port, stderr: () => stderr };
}

// ---- measurements ----------------------------------------------------------------------------

interface Interval {
  index: number;
  latencies: Map<string, number[]>;
  requests: number;
  errors: number;
}

const intervals: Interval[] = [];
const errorSamples: string[] = [];
let totalErrors = 0;
let current: Interval = { index: 1, latencies: new Map(), requests: 0, errors: 0 };

function record(route: string, ms: number): void {
  current.requests++;
  const list = current.latencies.get(route) ?? [];
  list.push(ms);
  current.latencies.set(route, list);
}

function fail(what: string): void {
  current.errors++;
  totalErrors++;
  if (errorSamples.length < 20) errorSamples.push(what);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

// ---- one client connection -------------------------------------------------------------------

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly port: number) {}

  send(
    method: string,
    url: string,
    options: { token?: string; apiKey?: string; json?: unknown; body?: Buffer; contentType?: string } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    let body: Buffer | undefined = options.body;
    if (options.json !== undefined) body = Buffer.from(JSON.stringify(options.json));
    if (body) {
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = String(body.length);
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: this.port, method, path: url, headers, agent: this.agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? '', body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      });
      req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Sends, times and checks one request; returns the parsed body, or null after recording an error. */
async function step<T>(
  client: Client,
  route: string,
  expected: number,
  method: string,
  url: string,
  options: Parameters<Client['send']>[2] = {},
): Promise<T | null> {
  const started = performance.now();
  let answer: Answer;
  try {
    answer = await client.send(method, url, options);
  } catch (error) {
    fail(`${route}: ${(error as Error).message}`);
    return null;
  }
  record(route, performance.now() - started);
  if (answer.status !== expected) {
    fail(`${route}: ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`);
    return null;
  }
  if (!answer.contentType.startsWith('application/json')) return { bytes: answer.body } as T;
  try {
    return JSON.parse(answer.body.toString('utf8')) as T;
  } catch {
    fail(`${route}: ${answer.status} with a body that is not JSON`);
    return null;
  }
}

// ---- traffic ---------------------------------------------------------------------------------

/** The test suite's tiny PNG, padded after its IEND chunk to 16 KiB. */
const IMAGE = (() => {
  const tiny = readFileSync(path.join(ROOT, 'test/fixtures/tiny.png'));
  return Buffer.concat([tiny, Buffer.alloc(16 * 1024 - tiny.length)]);
})();
const PASSWORD = 'soak password 123';

function multipart(image: Buffer): { body: Buffer; contentType: string } {
  const boundary = `----soak${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="soak.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), image, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function virtualUser(port: number, worker: number, until: number): Promise<void> {
  const client = new Client(port);
  let sequence = 0;
  const email = () => `soak-${worker}-${Date.now()}-${sequence++}@example.com`;
  try {
    const first = email();
    const account = await step<{ token: string }>(client, 'POST /auth/register', 201, 'POST', '/auth/register', {
      json: { email: first, password: PASSWORD, name: 'Soak' },
    });
    if (!account) return;
    let token = account.token;
    const issued = await step<{ apiKey: { key: string } }>(client, 'POST /api-keys', 201, 'POST', '/api-keys', { token });
    const apiKey = issued?.apiKey.key ?? '';

    while (Date.now() < until) {
      const dice = Math.random();
      if (dice < 0.05) {
        await step(client, 'POST /auth/register', 201, 'POST', '/auth/register', {
          json: { email: email(), password: PASSWORD, name: 'Soak' },
        });
      } else if (dice < 0.12) {
        const login = await step<{ token: string }>(client, 'POST /auth/login', 200, 'POST', '/auth/login', {
          json: { email: first, password: PASSWORD },
        });
        if (login) token = login.token;
      } else if (dice < 0.5) {
        const created = await step<{ project: { id: string } }>(client, 'POST /projects', 201, 'POST', '/projects', {
          token,
          json: { name: `soak ${sequence++}`, templateId: 'mailer-box' },
        });
        if (created) {
          const id = created.project.id;
          await step(client, 'GET /projects/:id', 200, 'GET', `/projects/${id}`, { token });
          await step(client, 'PUT /projects/:id', 200, 'PUT', `/projects/${id}`, {
            token,
            json: { name: `renamed ${sequence++}`, widthMm: 120 },
          });
          await step(client, 'GET /projects', 200, 'GET', '/projects', { token });
          await step(client, 'DELETE /projects/:id', 204, 'DELETE', `/projects/${id}`, { token });
        }
      } else if (dice < 0.6) {
        const upload = multipart(IMAGE);
        const asset = await step<{ asset: { name: string } }>(client, 'POST /assets', 201, 'POST', '/assets', {
          token,
          body: upload.body,
          contentType: upload.contentType,
        });
        const file = asset && (await step<{ bytes: Buffer }>(client, 'GET /files/:name', 200, 'GET', `/files/${asset.asset.name}`));
        if (file && !file.bytes.equals(IMAGE)) fail('GET /files/:name: served bytes differ from the upload');
      } else if (dice < 0.65) {
        await step(client, 'GET /assets', 200, 'GET', '/assets', { token });
      } else if (dice < 0.9) {
        await step(client, 'GET /v1/templates', 200, 'GET', '/v1/templates?category=mailer-boxes', { apiKey });
        await step(client, 'GET /v1/templates/:id', 200, 'GET', '/v1/templates/rsc-box', { apiKey });
      } else {
        await step(client, 'GET /auth/me', 200, 'GET', '/auth/me', { token });
        await step(client, 'GET /templates', 200, 'GET', '/templates?q=box');
      }
    }
  } finally {
    client.close();
  }
}

// ---- the run ---------------------------------------------------------------------------------

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function report(interval: Interval, pid: number, secondsSoFar: number, label = `interval ${interval.index}`): void {
  const rss = safeRss(pid);
  console.log(
    `\n== ${secondsSoFar}s (${label}): ${interval.requests} requests, ` +
      `${interval.errors} errors, server RSS ${rss === null ? 'n/a' : mb(rss)}`,
  );
  const rows = [...interval.latencies.entries()].sort(([a], [b]) => a.localeCompare(b));
  for (const [route, values] of rows) {
    console.log(
      `   ${route.padEnd(24)} n=${String(values.length).padStart(6)}  ` +
        `p50=${percentile(values, 50).toFixed(1).padStart(7)} ms  p99=${percentile(values, 99).toFixed(1).padStart(7)} ms`,
    );
  }
}

function safeRss(pid: number): number | null {
  try {
    return rssBytes(pid);
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const baseUrl = process.env.DATABASE_URL;
  const database: BenchDatabase | null = baseUrl ? await createDatabase(baseUrl, 'pf_soak') : null;
  const work = mkdtempSync(path.join(tmpdir(), 'pf-soak-'));
  const entry = chooseEntry();
  console.log(
    `soak: ${SECONDS}s, ${CONNECTIONS} connections, report every ${REPORT_SECONDS}s, ` +
      `${database ? 'PostgreSQL (fresh database)' : 'embedded database'}, ${entry.label}, bcrypt cost ${BCRYPT_COST}`,
  );
  let server: Server | undefined;
  try {
    server = await startServer(entry.args, {
      NODE_ENV: 'production',
      JWT_SECRET,
      API_KEY_SECRET,
      DATA_DIR: path.join(work, 'data'),
      UPLOAD_DIR: path.join(work, 'uploads'),
      BCRYPT_COST,
      RATE_LIMIT_AUTH_PER_MIN: '0',
      RATE_LIMIT_V1_PER_MIN: '0',
      LOG_LEVEL: 'warn',
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    const pid = server.child.pid ?? 0;
    console.log(`server pid ${pid}, RSS at start ${mb(safeRss(pid) ?? 0)}`);

    const started = Date.now();
    const until = started + SECONDS * 1000;
    const ticker = setInterval(() => {
      intervals.push(current);
      report(current, pid, Math.round((Date.now() - started) / 1000));
      current = { index: current.index + 1, latencies: new Map(), requests: 0, errors: 0 };
    }, REPORT_SECONDS * 1000);
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, worker) => virtualUser(server!.port, worker, until)));
    clearInterval(ticker);
    if (current.requests > 0 || current.errors > 0) {
      intervals.push(current);
      report(current, pid, Math.round((Date.now() - started) / 1000), 'tail: steps finishing after the deadline');
    }

    const all = new Map<string, number[]>();
    for (const interval of intervals) {
      for (const [route, values] of interval.latencies) all.set(route, [...(all.get(route) ?? []), ...values]);
    }
    const total = [...all.values()].reduce((sum, values) => sum + values.length, 0);
    console.log(`\n== total: ${total} requests in ${SECONDS}s (${(total / SECONDS).toFixed(0)}/s), ${totalErrors} errors`);
    for (const [route, values] of [...all.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`   ${route.padEnd(24)} n=${String(values.length).padStart(7)}  p99=${percentile(values, 99).toFixed(1).padStart(7)} ms`);
    }
    const rssSeries = intervals.length;
    console.log(`   server RSS: ${mb(safeRss(pid) ?? 0)} at the end (${rssSeries} samples above)`);
    for (const sample of errorSamples) console.log(`   error: ${sample}`);

    const exit = new Promise<number | null>((resolve) => server!.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    const code = await exit;
    console.log(`server exited with code ${code} after SIGTERM`);
    if (code !== 0) fail(`server exit code ${code}: ${server.stderr().slice(-500)}`);
  } finally {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  }
  if (totalErrors > 0) {
    console.log(`FAILED: ${totalErrors} errors`);
    process.exitCode = 1;
  }
}

await main();
