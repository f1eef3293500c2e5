// npm run bench: measures the production build against the physical limit of this machine.
// PostgreSQL when DATABASE_URL is set (a fresh database, dropped afterwards), else the embedded engine.
// Prints one table and writes the figures to bench/results/.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildBaseline } from './baseline.js';
import sharp from 'sharp';
import { benchContainerPrint } from './containers.js';
import { benchExports, EXPORT_CONNECTIONS, EXPORTS_TOTAL, HEALTH_P99_TARGET_MS, POST_P99_TARGET_MS } from './exports.js';
import { benchFinishes, FINISHES_TARGET_RATIO } from './finishes.js';
import { benchPressPrint, benchPrint, PRESS_CMYK_TARGET_MS, PRESS_RGB_TARGET_MS, PREVIEW_TARGET_MS, PRINT_TARGET_MS, PRINT_TARGET_RSS_MB } from './print.js';
import { benchModels } from './models.js';
import { benchDieFormats } from './die-formats.js';
import { benchViewer } from './viewer.js';
import { createTestBucket, s3Env } from '../test/helpers/s3.js';
import { cpuMicros, createDatabase, freePort, json, JWT_SECRET, median, ROOT, rssBytes, SERVICE_LOG_LEVEL, startService, type RunningService } from './support.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = 50;
// Ratios come from workloads run in turn, round after round: this host's speed drifts by tens of
// percent from minute to minute, so comparing two runs taken a minute apart measures the drift.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
// BENCH_ONLY=3 or BENCH_ONLY=1,3: run only those workloads.
const only = new Set(process.env.BENCH_ONLY?.split(',').map((id) => id.trim()).filter(Boolean));
const wanted = (...ids: string[]) => only.size === 0 || ids.some((id) => only.has(id));
const engine = process.env.DATABASE_URL ? 'postgres' : 'embedded';

interface Row {
  id: string;
  workload: string;
  figures: Record<string, number>;
  target?: string;
  met?: boolean;
}
const rows: Row[] = [];
const record = (row: Row) => {
  rows.push(row);
  const figures = Object.entries(row.figures)
    .map(([key, value]) => `${key}=${round(value)}`)
    .join(' ');
  console.log(`#${row.id} ${row.workload}: ${figures}${row.target ? ` (target ${row.target}: ${row.met ? 'met' : 'MISSED'})` : ''}`);
};
interface CycleContext {
  id?: string;
}

const round = (value: number) => (Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100);

type Options = Parameters<typeof autocannon>[0];
async function load(options: Options, { warmup = WARMUP, duration = DURATION } = {}) {
  if (warmup > 0) await autocannon({ ...options, duration: warmup });
  const result = await autocannon({ duration, ...options });
  // A conditional request's 304 is the answer it asks for.
  const conditional = (options.headers as Record<string, string> | undefined)?.['if-none-match'] !== undefined;
  if (result.errors > 0 || (result.non2xx > 0 && !conditional)) {
    console.warn(`  warning: ${result.errors} errors, ${result.non2xx} non-2xx responses on ${options.url}`);
  }
  return result;
}

interface Workload {
  options: Options;
  /** The serving process, to measure its CPU time per request. */
  pid?: number;
  /** Run before each of the workload's rounds, outside the measurement. */
  prepare?: () => Promise<void>;
}
interface Sample {
  reqPerSec: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
}

/** Every workload once per round, ROUNDS rounds, rotating which goes first; samples[workload][round]. */
async function interleave(workloads: Workload[]): Promise<Sample[][]> {
  for (const { options, prepare } of workloads) {
    await prepare?.();
    await autocannon({ ...options, duration: WARMUP });
  }
  const samples: Sample[][] = workloads.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < workloads.length; turn++) {
      const index = (round + turn) % workloads.length;
      const { options, pid, prepare } = workloads[index]!;
      await prepare?.();
      const cpuBefore = pid === undefined ? 0 : cpuMicros(pid);
      const result = await load(options, { warmup: 0, duration: ROUND_SECONDS });
      const requests = result.requests.total || 1;
      samples[index]!.push({
        reqPerSec: result.requests.average,
        p99Ms: result.latency.p99,
        cpuMicrosPerRequest: pid === undefined ? Number.NaN : (cpuMicros(pid) - cpuBefore) / requests,
      });
    }
  }
  return samples;
}

const medianOf = (samples: Sample[], field: keyof Sample) => median(samples.map((sample) => sample[field]));
/** One workload's throughput divided by another's, round by round. */
const ratiosPerRound = (numerator: Sample[], denominator: Sample[]) =>
  numerator.map((sample, index) => sample.reqPerSec / denominator[index]!.reqPerSec);
const medianRatio = (numerator: Sample[], denominator: Sample[]) => median(ratiosPerRound(numerator, denominator));
const roundRatios = (numerator: Sample[], denominator: Sample[]) => ratiosPerRound(numerator, denominator).map(round).join(' ');

async function startReference(kind: 'logging' | 'node' | 'fastify' | 'fastify-logging'): Promise<{ url: string; pid: number; stop: () => void }> {
  const port = await freePort();
  // stdout to /dev/null, as the service's (bench/support.ts): the logging reference's lines go there.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/reference-server.ts'), kind, String(port)], {
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
  });
  await new Promise<void>((resolve) => child.stdio[3]!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/**
 * The bare node:http + pg server of bench/reference-db-server.ts on the service's database: with
 * its statements prepared once per connection like the service's, or (unnamed) parsed and planned
 * on every use, as the issue that set the target specified it.
 */
async function startDatabaseReference(databaseUrl: string, { unnamed = false } = {}): Promise<{ url: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/reference-db-server.ts'), String(port), databaseUrl, JWT_SECRET, process.env.DATABASE_POOL_SIZE ?? '10'],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production', REFERENCE_UNNAMED: unnamed ? '1' : '0' } },
  );
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/**
 * A database workload's row: the service's rate (requests / perRequest, so a cycle of three
 * requests counts once), p99 and CPU per request, and on PostgreSQL the ratio of the rates and of
 * the p99s, round by round, against both references. Target (judged against the issue's
 * reference, unnamed statements): ratio >= 0.8, p99 <= 1.5 × the reference's; the ratio against
 * the reference that prepares its statements too is printed beside it.
 */
function recordAgainstReference(id: string, workload: string, unit: string, perRequest: number, svc: Sample[], prepared?: Sample[], unnamed?: Sample[]) {
  const figures: Record<string, number> = {
    [unit]: medianOf(svc, 'reqPerSec') / perRequest,
    'p99 ms': medianOf(svc, 'p99Ms'),
    'server CPU µs/request': medianOf(svc, 'cpuMicrosPerRequest'),
  };
  if (!prepared || !unnamed) return record({ id, workload: `${workload} (no reference on the embedded engine)`, figures });
  const ratio = medianRatio(svc, unnamed);
  const p99Factor = medianOf(svc, 'p99Ms') / medianOf(unnamed, 'p99Ms');
  record({
    id,
    workload: `${workload}, vs bare node:http + pg`,
    figures: {
      ...figures,
      [`reference ${unit}`]: medianOf(unnamed, 'reqPerSec') / perRequest,
      'reference p99 ms': medianOf(unnamed, 'p99Ms'),
      'reference CPU µs/request': medianOf(unnamed, 'cpuMicrosPerRequest'),
      ratio,
      'p99 / reference p99': p99Factor,
      [`prepared reference ${unit}`]: medianOf(prepared, 'reqPerSec') / perRequest,
      'prepared reference p99 ms': medianOf(prepared, 'p99Ms'),
      'prepared reference CPU µs/request': medianOf(prepared, 'cpuMicrosPerRequest'),
      'ratio vs prepared reference': medianRatio(svc, prepared),
      'p99 / prepared reference p99': medianOf(svc, 'p99Ms') / medianOf(prepared, 'p99Ms'),
    },
    target: 'ratio >= 0.8, p99 <= 1.5 × reference',
    met: ratio >= 0.8 && p99Factor <= 1.5,
  });
  console.log(`  ratio per round: ${roundRatios(svc, unnamed)}`);
  console.log(`  ratio per round vs the prepared reference: ${roundRatios(svc, prepared)}`);
}

async function register(service: RunningService, index: number) {
  const email = `bench-${Date.now()}-${index}-${Math.random().toString(16).slice(2)}@example.com`;
  const password = 'bench password 1';
  const body = await json<{ user: { id: string }; token: string }>(
    await fetch(`${service.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, name: `Bench ${index}` }),
    }),
  );
  return { email, password, token: body.token, auth: { authorization: `Bearer ${body.token}` } };
}

/**
 * A real (tiny) PNG padded with zeros after its end to the given size, streamed as a multipart
 * upload: the server reads it back for its metadata, so it must decode. Returns seconds and the answer.
 */
function upload(service: RunningService, token: string, size: number, onProgress?: () => void) {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const png = readFileSync(path.join(ROOT, 'test/fixtures/tiny.png'));
  const chunk = Buffer.alloc(64 * 1024);
  return new Promise<{ seconds: number; status: number; body: string }>((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(`${service.url}/assets`, {
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
    req.write(png);
    let sent = png.length;
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

/** Uploads a real image in one multipart body; returns seconds and the answer. */
async function uploadImage(service: RunningService, token: string, data: Buffer, type: string, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), filename);
  const started = performance.now();
  const response = await fetch(`${service.url}/assets`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = await response.text();
  return { seconds: (performance.now() - started) / 1000, status: response.status, body };
}

/** A child process uploading one image over and over until stopped; stop() resolves to the count of 201s. */
function uploadLane(service: RunningService, token: string, image: { data: Buffer; type: string; filename: string }) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pf-bench-lane-')), image.filename);
  writeFileSync(file, image.data);
  const script = `
    const { readFileSync } = require('node:fs');
    const data = readFileSync(process.argv[1]);
    let stop = false, done = 0;
    process.on('message', () => { stop = true; });
    (async () => {
      while (!stop) {
        const form = new FormData();
        form.append('file', new Blob([data], { type: ${JSON.stringify(image.type)} }), ${JSON.stringify(image.filename)});
        const response = await fetch(${JSON.stringify(`${service.url}/assets`)}, { method: 'POST', headers: { authorization: ${JSON.stringify(`Bearer ${token}`)} }, body: form });
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

/** Latency of GET <url>/health as a health checker sees it (bench/health-probe.ts, its own process). */
async function healthProbe(url: string, seconds: number): Promise<{ probes: number; p50: number; p99: number; max: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/health-probe.ts'), `${url}/health`, String(seconds)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`health probe of ${url} exited with ${code}`);
  return JSON.parse(output) as { probes: number; p50: number; p99: number; max: number };
}

/** The two large images of the asset workloads: a 6000 × 4000 JPEG and a PNG of about 25 MB. */
async function largeImages() {
  const noisy = (width: number, height: number, sigma: number) =>
    sharp({ create: { width, height, channels: 3, background: '#3a6', noise: { type: 'gaussian', mean: 128, sigma } } });
  return [
    { label: '6000 × 4000 JPEG', type: 'image/jpeg', filename: 'large.jpg', data: await noisy(6000, 4000, 20).jpeg({ quality: 85 }).toBuffer() },
    // Stored uncompressed: 2880 × 2880 RGB is 24.9 MB, just under the 25 MiB limit.
    { label: '25 MB PNG (2880 × 2880)', type: 'image/png', filename: 'large.png', data: await noisy(2880, 2880, 40).png({ compressionLevel: 0 }).toBuffer() },
  ];
}

async function settle(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CHECKPOINT').catch(() => undefined);
  await client.end();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
}

async function measureStartup(options: Parameters<typeof startService>[0]) {
  const service = await startService(options);
  await service.stop();
  return service.startupMs;
}

type Account = Awaited<ReturnType<typeof register>>;

/** create → update → delete a project, over and over, one free-plan account per connection. */
function cycleOptions(url: string, accounts: Account[]): Options {
  let next = 0;
  return {
    url,
    connections: CONNECTIONS,
    setupClient: (client) => client.setHeaders({ ...accounts[next++ % accounts.length]!.auth, 'content-type': 'application/json' }),
    requests: [
      {
        method: 'POST',
        path: '/projects',
        body: JSON.stringify({ name: 'Cycle', templateId: 'rsc-box', widthMm: 300 }),
        onResponse: (_status, body, context) => {
          (context as CycleContext).id = (JSON.parse(body) as { project: { id: string } }).project.id;
        },
      },
      {
        method: 'PUT',
        setupRequest: (request, context) => ({ ...request, path: `/projects/${(context as CycleContext).id}`, body: JSON.stringify({ name: 'Cycle 2', heightMm: 120 }) }),
      },
      { method: 'DELETE', setupRequest: (request, context) => ({ ...request, path: `/projects/${(context as CycleContext).id}`, body: undefined }) },
    ],
  };
}

/** An editor's autosave: a full EditorState with 12 placed artworks, in two alternating variants. */
function autosaveBodies(): [string, string] {
  const artworks = Array.from({ length: 12 }, (_, index) => ({
    id: `art-${index}`,
    panelId: index % 2 ? 'front' : 'back',
    imageUrl: `/files/bench-${index}.png`,
    offsetX: index * 1.5,
    offsetY: -index,
    scale: 0.5 + index / 24,
    rotationDeg: (index * 15) % 360,
  }));
  const state = (lighting: string) => ({
    templateId: 'mailer-box',
    dimensions: { widthMm: 320, heightMm: 90, depthMm: 240 },
    material: 'kraft',
    thicknessMm: 3,
    finish: 'matte',
    background: { kind: 'color', value: '#f4efe6' },
    lighting,
    artworks,
  });
  return [JSON.stringify({ artworkJson: state('studio') }), JSON.stringify({ artworkJson: state('softbox') })];
}

/**
 * PUTs that change the project every time (the two autosave variants in turn), each connection on
 * its own account's project, so the figure is the write path and not a queue on one row lock.
 */
async function autosaveOptions(service: RunningService, accounts: Account[]): Promise<Options> {
  const projectIds = await Promise.all(
    accounts.map(async (account) => {
      const created = await json<{ project: { id: string } }>(
        await fetch(`${service.url}/projects`, {
          method: 'POST',
          headers: { ...account.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Autosave', templateId: 'mailer-box' }),
        }),
      );
      return created.project.id;
    }),
  );
  const bodies = autosaveBodies();
  let next = 0;
  return {
    url: service.url,
    connections: CONNECTIONS,
    setupClient: (client) => {
      const index = next++ % accounts.length;
      const headers = { ...accounts[index]!.auth, 'content-type': 'application/json' };
      const path = `/projects/${projectIds[index]}`;
      client.setRequests(bodies.map((body) => ({ method: 'PUT', path, headers, body })));
    },
  };
}

/** Deletes what an interrupted cycle left behind (a round can end between its create and delete). */
async function deleteLeftovers(service: RunningService, accounts: Account[]): Promise<void> {
  await Promise.all(
    accounts.map(async (account) => {
      const { projects } = await json<{ projects: Array<{ id: string; name: string }> }>(
        await fetch(`${service.url}/projects`, { headers: account.auth }),
      );
      for (const project of projects.filter((candidate) => candidate.name.startsWith('Cycle'))) {
        await fetch(`${service.url}/projects/${project.id}`, { method: 'DELETE', headers: account.auth });
      }
    }),
  );
}

async function main() {
  console.log(`Benchmark on ${engine}, ${cpus().length} cores (${cpus()[0]?.model}), ${DURATION}s per workload after ${WARMUP}s warm-up, ${CONNECTIONS} connections`);
  const database = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-data-'));
  const service = await startService({ databaseUrl: database?.url, dataDir });
  // A fresh database keeps PostgreSQL busy for a moment (checkpoint, autovacuum of the new
  // catalog); let it settle so #1 measures the service, not the neighbour.
  if (database) await settle(database.url);
  const reference = await startReference('node');
  const loggingReference = await startReference('logging');
  const fastifyFloor = await startReference('fastify');
  const fastifyLogging = await startReference('fastify-logging');
  try {
    // 1. GET /templates at the default log level against bare node:http writing one access-log
    // line per request the same way; 304s (If-None-Match) beside 200s.
    if (wanted('1')) {
      const etag = (await fetch(`${service.url}/templates`)).headers.get('etag') ?? '';
      const [logged, ref, bare, bareLogging, svc, notModified] = await interleave([
        { options: { url: `${loggingReference.url}/templates`, connections: CONNECTIONS }, pid: loggingReference.pid },
        { options: { url: `${reference.url}/templates`, connections: CONNECTIONS }, pid: reference.pid },
        { options: { url: `${fastifyFloor.url}/templates`, connections: CONNECTIONS }, pid: fastifyFloor.pid },
        { options: { url: `${fastifyLogging.url}/templates`, connections: CONNECTIONS }, pid: fastifyLogging.pid },
        { options: { url: `${service.url}/templates`, connections: CONNECTIONS }, pid: service.pid },
        { options: { url: `${service.url}/templates`, connections: CONNECTIONS, headers: { 'if-none-match': etag } }, pid: service.pid },
      ]);
      const ratio1 = medianRatio(svc!, logged!);
      const ratio304 = medianRatio(notModified!, svc!);
      record({
        id: '1',
        workload: `GET /templates (LOG_LEVEL ${SERVICE_LOG_LEVEL}) vs bare node:http logging one line per request`,
        figures: {
          'req/s': medianOf(svc!, 'reqPerSec'),
          'p99 ms': medianOf(svc!, 'p99Ms'),
          'logging node:http req/s': medianOf(logged!, 'reqPerSec'),
          ratio: ratio1,
          '304 req/s': medianOf(notModified!, 'reqPerSec'),
          '304 / 200': ratio304,
          'node:http without a log req/s': medianOf(ref!, 'reqPerSec'),
          'ratio vs node:http without a log': medianRatio(svc!, ref!),
          'bare Fastify (no log) ratio vs logging node:http': medianRatio(bare!, logged!),
          'bare Fastify logging the same line, ratio vs logging node:http': medianRatio(bareLogging!, logged!),
          'ratio vs bare Fastify logging the same line': medianRatio(svc!, bareLogging!),
          'server CPU µs/request': medianOf(svc!, 'cpuMicrosPerRequest'),
          '304 server CPU µs/request': medianOf(notModified!, 'cpuMicrosPerRequest'),
          'logging node:http CPU µs/request': medianOf(logged!, 'cpuMicrosPerRequest'),
          'bare Fastify CPU µs/request': medianOf(bare!, 'cpuMicrosPerRequest'),
          'bare Fastify logging CPU µs/request': medianOf(bareLogging!, 'cpuMicrosPerRequest'),
        },
        target: 'ratio >= 0.85, 304 / 200 >= 1',
        met: ratio1 >= 0.85 && ratio304 >= 1,
      });
      console.log(`  ratio per round: ${roundRatios(svc!, logged!)}`);
      console.log(`  bare Fastify logging the same line vs logging node:http, per round: ${roundRatios(bareLogging!, logged!)}`);
      console.log(`  304 / 200 per round: ${roundRatios(notModified!, svc!)}`);
    }

    // 2. Filtered catalog.
    if (wanted('2')) {
      const filtered = await load({ url: `${service.url}/templates?category=product-boxes&q=box`, connections: CONNECTIONS });
      record({ id: '2', workload: 'GET /templates?category=…&q=…', figures: { 'req/s': filtered.requests.average, 'p99 ms': filtered.latency.p99 } });
    }

    // 3. /v1 with a key (its owner also serves #4 to #8).
    const owner = await register(service, 0);
    const { apiKey } = await json<{ apiKey: { key: string } }>(
      await fetch(`${service.url}/api-keys`, { method: 'POST', headers: owner.auth }),
    );
    if (wanted('3')) {
      const keyHeader = { 'x-api-key': apiKey.key };
      // The key check's cost: /v1/templates against the same public route through the same
      // pipeline, also sending the same header: what is left is the key check.
      const [publicListing, keyed, publicWithHeader] = await interleave([
        { options: { url: `${service.url}/templates`, connections: CONNECTIONS }, pid: service.pid },
        { options: { url: `${service.url}/v1/templates`, connections: CONNECTIONS, headers: keyHeader }, pid: service.pid },
        { options: { url: `${service.url}/templates`, connections: CONNECTIONS, headers: keyHeader }, pid: service.pid },
      ]);
      const ratio3 = medianRatio(keyed!, publicListing!);
      record({
        id: '3',
        workload: 'GET /v1/templates with a key vs GET /templates (the public route), same rounds',
        figures: {
          'req/s': medianOf(keyed!, 'reqPerSec'),
          'p99 ms': medianOf(keyed!, 'p99Ms'),
          'GET /templates req/s': medianOf(publicListing!, 'reqPerSec'),
          ratio: ratio3,
          'ratio vs GET /templates sending the same header': medianRatio(keyed!, publicWithHeader!),
          'server CPU µs/request': medianOf(keyed!, 'cpuMicrosPerRequest'),
          'GET /templates server CPU µs/request': medianOf(publicListing!, 'cpuMicrosPerRequest'),
        },
        target: 'ratio >= 0.85',
        met: ratio3 >= 0.85,
      });
      console.log(`  ratio per round: ${roundRatios(keyed!, publicListing!)}`);
      console.log(`  ratio per round vs the same header on GET /templates: ${roundRatios(keyed!, publicWithHeader!)}`);
    }

    // 4 and 5: the database routes against the bare node:http + pg reference (bench/reference-db-server.ts)
    // on the same database, interleaved rounds. The reference reaches PostgreSQL only; on the
    // embedded engine the service's own figures are printed.
    if (wanted('4', '5')) {
      const dbReferences = database
        ? await Promise.all([startDatabaseReference(database.url), startDatabaseReference(database.url, { unnamed: true })])
        : [];
      try {
        if (wanted('4')) {
          for (let i = 0; i < 3; i++) {
            await json(
              await fetch(`${service.url}/projects`, {
                method: 'POST',
                headers: { ...owner.auth, 'content-type': 'application/json' },
                body: JSON.stringify({ name: `Bench ${i}`, templateId: 'mailer-box' }),
              }),
            );
          }
          const listing = (url: string): Workload => ({ options: { url: `${url}/projects`, connections: CONNECTIONS, headers: owner.auth } });
          const [svc, prepared, unnamed] = await interleave([
            { ...listing(service.url), pid: service.pid },
            ...dbReferences.map((reference) => ({ ...listing(reference.url), pid: reference.pid })),
          ]);
          recordAgainstReference('4', 'GET /projects (3 projects) with a JWT', 'req/s', 1, svc!, prepared, unnamed);
        }
        if (wanted('5')) {
          const accounts = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => register(service, i + 1)));
          const cycling = (target: { url: string; pid: number }): Workload => ({
            options: cycleOptions(target.url, accounts),
            pid: target.pid,
            prepare: () => deleteLeftovers(service, accounts),
          });
          const [svc, prepared, unnamed] = await interleave([cycling(service), ...dbReferences.map(cycling)]);
          recordAgainstReference('5', 'create → update → delete a project, 50 accounts', 'cycles/s', 3, svc!, prepared, unnamed);
        }
      } finally {
        for (const reference of dbReferences) reference.stop();
      }
    }

    // 5v. What the version history costs. The same two workloads, the create → update → delete
    // cycle and a PUT that changes the project every time, run in turn, round after round, against
    // this build and against a build of the commit before versioning (bench/baseline.ts), each on
    // its own fresh database. Ratios are "after / before" per round, then the median.
    if (wanted('5v')) {
      const baseline = buildBaseline();
      const baselineDatabase = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined;
      const before = await startService({ entry: baseline.entry, databaseUrl: baselineDatabase?.url });
      try {
        if (baselineDatabase) await settle(baselineDatabase.url);
        const setUp = async (target: RunningService, offset: number) => {
          const accounts = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => register(target, offset + i)));
          return { accounts, autosave: await autosaveOptions(target, accounts) };
        };
        const old = await setUp(before, 1000);
        const now = await setUp(service, 2000);
        const [cycleBefore, cycleAfter, putBefore, putAfter] = await interleave([
          { options: cycleOptions(before.url, old.accounts), pid: before.pid, prepare: () => deleteLeftovers(before, old.accounts) },
          { options: cycleOptions(service.url, now.accounts), pid: service.pid, prepare: () => deleteLeftovers(service, now.accounts) },
          { options: old.autosave, pid: before.pid },
          { options: now.autosave, pid: service.pid },
        ]);
        const putRatio = medianRatio(putAfter!, putBefore!);
        record({
          id: '5v',
          workload: `version history: this build vs ${baseline.ref} (before versioning), same rounds`,
          figures: {
            'cycles/s before': medianOf(cycleBefore!, 'reqPerSec') / 3,
            'cycles/s after': medianOf(cycleAfter!, 'reqPerSec') / 3,
            'cycle ratio': medianRatio(cycleAfter!, cycleBefore!),
            'PUT req/s before': medianOf(putBefore!, 'reqPerSec'),
            'PUT req/s after': medianOf(putAfter!, 'reqPerSec'),
            'PUT p99 ms before': medianOf(putBefore!, 'p99Ms'),
            'PUT p99 ms after': medianOf(putAfter!, 'p99Ms'),
            'PUT server CPU µs before': medianOf(putBefore!, 'cpuMicrosPerRequest'),
            'PUT server CPU µs after': medianOf(putAfter!, 'cpuMicrosPerRequest'),
            'PUT ratio': putRatio,
          },
          target: 'PUT ratio >= 0.85 (within 15 %)',
          met: putRatio >= 0.85,
        });
        console.log(`  cycle ratio per round: ${roundRatios(cycleAfter!, cycleBefore!)}`);
        console.log(`  PUT ratio per round: ${roundRatios(putAfter!, putBefore!)}`);
      } finally {
        await before.stop();
        await baselineDatabase?.drop();
        baseline.remove();
      }
    }

    // 6 + 7. Logins at the configured cost, and /health latency meanwhile.
    if (wanted('6', '7')) {
      const loginBody = JSON.stringify({ email: owner.email, password: owner.password });
      // The /health probe (the same one as #12) starts when the logins' 1 s warm-up ends.
      const [logins, health] = await Promise.all([
        load({ url: `${service.url}/auth/login`, method: 'POST', connections: 20, headers: { 'content-type': 'application/json' }, body: loginBody }, { warmup: 1 }),
        new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => healthProbe(service.url, DURATION)),
      ]);
      record({
        id: '6',
        workload: `POST /auth/login (bcrypt cost ${process.env.BCRYPT_COST ?? 12}, 20 at once)`,
        figures: { 'logins/s': logins.requests.average, 'p50 ms': logins.latency.p50 },
      });
      record({
        id: '7',
        workload: 'GET /health p99 while #6 runs',
        figures: { 'p99 ms': health.p99, 'p50 ms': health.p50, 'max ms': health.max, probes: health.probes },
        target: 'p99 < 20 ms',
        met: health.p99 < 20,
      });
    }

    // 8. 25 MiB upload: time and the server's peak resident-memory growth. The upload streams to
    // disk; libvips reads it back for its metadata from the file itself.
    if (wanted('8')) {
      const before = rssBytes(service.pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(service.pid))), 5);
      const big = await upload(service, owner.token, 25 * 1024 * 1024, () => (peak = Math.max(peak, rssBytes(service.pid))));
      clearInterval(sampler);
      const growth = (peak - before) / (1024 * 1024);
      record({
        id: '8',
        workload: '25 MiB upload',
        figures: { seconds: big.seconds, 'RSS growth MiB': growth, status: big.status },
        target: 'growth < 32 MiB',
        met: growth < 32 && big.status === 201,
      });
    }

    // 10 + 11. Large real images: upload time (stream + read back + thumbnail), the thumbnail's own
    // time (the server's analysis function run here on the same bytes), peak RSS growth of the server.
    // 12. /health p99 while such uploads run, two at a time.
    if (wanted('10', '11', '12')) {
      const images = await largeImages();
      const { analyseImage } = (await import(path.join(ROOT, 'dist/lib/image-analysis.js'))) as typeof import('../src/lib/image-analysis.js');
      for (const [index, image] of images.entries()) {
        const id = String(10 + index);
        if (!wanted(id)) continue;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const before = rssBytes(service.pid);
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(service.pid))), 5);
        const sent = await uploadImage(service, owner.token, image.data, image.type, image.filename);
        clearInterval(sampler);
        const started = performance.now();
        await analyseImage(image.data, image.type);
        const thumbnailSeconds = (performance.now() - started) / 1000;
        const growth = (peak - before) / (1024 * 1024);
        record({
          id,
          workload: `upload a ${image.label} (${round(image.data.length / 1e6)} MB)`,
          figures: { 'upload s': sent.seconds, 'thumbnail s': thumbnailSeconds, 'RSS growth MiB': growth, status: sent.status },
          target: 'growth < 150 MiB',
          met: growth < 150 && sent.status === 201,
        });
      }
      if (wanted('12')) {
        // The uploads come from child processes: building 25 MB bodies here would delay the
        // /health client itself. The probes are child processes too (bench/health-probe.ts). The
        // idle figure, taken just before, shows the host's own noise; bare node:http's /health,
        // probed in the same windows beside the service, is the floor this host allows whatever
        // the service does.
        const probeBoth = () => Promise.all([healthProbe(service.url, DURATION), healthProbe(reference.url, DURATION)]);
        const [idle, bareIdle] = await probeBoth();
        const lanes = [0, 1].map((lane) => uploadLane(service, owner.token, images[lane % images.length]!));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const [health, bare] = await probeBoth();
        const done = (await Promise.all(lanes.map((lane) => lane.stop()))).reduce((sum, count) => sum + count, 0);
        record({
          id: '12',
          workload: 'GET /health p99 while large images upload, two at a time',
          figures: {
            'p99 ms': health.p99,
            'p50 ms': health.p50,
            'max ms': health.max,
            probes: health.probes,
            'idle p99 ms': idle.p99,
            'bare node:http p99 ms': bare.p99,
            'bare idle p99 ms': bareIdle.p99,
            'uploads done': done,
          },
          target: 'p99 < 20 ms',
          met: health.p99 < 20,
        });
      }
    }

    // 8b. Serving a 200 KB image.
    if (wanted('8b')) {
      const small = await upload(service, owner.token, 200 * 1024);
      const asset = (JSON.parse(small.body) as { asset: { name: string } }).asset;
      const files = await load({ url: `${service.url}/files/${asset.name}`, connections: CONNECTIONS });
      record({ id: '8b', workload: 'GET /files/:name (200 KB image)', figures: { 'req/s': files.requests.average, 'p99 ms': files.latency.p99, 'MB/s': files.throughput.average / 1e6 } });
    }
  } finally {
    reference.stop();
    loggingReference.stop();
    fastifyFloor.stop();
    fastifyLogging.stop();
    await service.stop();
  }

  // 15. Object storage next to local disk: the same uploads and /files reads against an S3 bucket
  // on the local Ceph radosgw (scripts/start-s3.sh; S3_TEST_ENDPOINT to use another gateway).
  if (wanted('15')) await compareStorage(database?.url);

  // 9. Start-up to the first 200 on /health (the database already migrated).
  if (wanted('9')) {
    const embeddedDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-start-'));
    const embeddedCold = await measureStartup({ dataDir: embeddedDir });
    const embeddedWarm = await measureStartup({ dataDir: embeddedDir });
    const startup: Record<string, number> = { 'embedded ms': embeddedWarm, 'embedded first boot ms': embeddedCold };
    if (database) startup['postgres ms'] = await measureStartup({ databaseUrl: database.url });
    record({
      id: '9',
      workload: 'start-up to first 200 on /health',
      figures: startup,
      target: '< 1500 ms',
      met: Object.entries(startup).filter(([key]) => !key.includes('first boot')).every(([, ms]) => ms < 1500),
    });
  }

  // 13. Print PDF and preview of a mailer-box with five 6000 × 4000 JPEG placements (in process).
  if (wanted('13')) {
    const figures = await benchPrint();
    record({
      id: '13',
      workload: 'print PDF + preview, mailer-box, five 6000 × 4000 JPEGs',
      figures,
      target: `print < ${PRINT_TARGET_MS} ms and < ${PRINT_TARGET_RSS_MB} MB RSS growth, preview < ${PREVIEW_TARGET_MS} ms`,
      met:
        figures['print ms']! < PRINT_TARGET_MS &&
        figures['print peak RSS growth MB']! < PRINT_TARGET_RSS_MB &&
        figures['preview 1024 px ms']! < PREVIEW_TARGET_MS,
    });
  }

  // 13p. The same mailer as PDF/X-4 in CMYK (FOGRA39) and RGB, with the files' sizes (in process).
  if (wanted('13p')) {
    const figures = await benchPressPrint();
    record({
      id: '13p',
      workload: 'PDF/X-4 print, mailer-box, five 6000 × 4000 JPEGs: CMYK (FOGRA39) and RGB',
      figures,
      target: `cmyk < ${PRESS_CMYK_TARGET_MS} ms and < ${PRINT_TARGET_RSS_MB} MB RSS growth, rgb < ${PRESS_RGB_TARGET_MS} ms`,
      met:
        figures['cmyk print ms']! < PRESS_CMYK_TARGET_MS &&
        figures['cmyk peak RSS growth MB']! < PRINT_TARGET_RSS_MB &&
        figures['rgb print ms']! < PRESS_RGB_TARGET_MS,
    });
  }

  // Finishes: the print of a design with foil, spot UV, emboss and a White underlay beside the plain one.
  if (wanted('finishes')) {
    const { plainMs, finishedMs, ratio } = await benchFinishes();
    record({
      id: 'finishes',
      workload: 'CMYK print, mailer-box: foil + spot UV + emboss + White underlay vs the same design plain',
      figures: { 'plain ms': plainMs, 'finished ms': finishedMs, ratio },
      target: `ratio ≤ ${FINISHES_TARGET_RATIO}`,
      met: ratio <= FINISHES_TARGET_RATIO,
    });
  }

  // 13c. Print PDF and preview of each container's layout, two 6000 × 4000 JPEGs (in process).
  if (wanted('13')) for (const row of await benchContainerPrint()) record(row);

  // 14. 3D models per template, in process: without and with a 2048 px print texture, and sizes.
  if (wanted('14')) for (const row of await benchModels()) record(row);
  if (wanted('36')) for (const row of benchDieFormats()) record(row);

  // Exports as jobs: 200 print PDFs over 10 connections, two workers on Redis (needs PostgreSQL).
  if (wanted('exports')) {
    if (!process.env.DATABASE_URL) {
      console.log('#exports skipped: the workers need a server database (set DATABASE_URL).');
    } else {
      const figures = await benchExports(process.env.DATABASE_URL);
      record({
        id: 'exports',
        workload: `${EXPORTS_TOTAL} print-PDF exports over ${EXPORT_CONNECTIONS} connections, two workers`,
        figures,
        target: `POST p99 < ${POST_P99_TARGET_MS} ms, /health p99 < ${HEALTH_P99_TARGET_MS} ms while rendering`,
        met: figures['POST p99 ms']! < POST_P99_TARGET_MS && figures['/health p99 ms while rendering']! < HEALTH_P99_TARGET_MS && figures.failed === 0,
      });
    }
  }

  // 16. The viewer's time to first frame in chromium (software WebGL), mailer and bottle.
  if (wanted('16')) for (const row of await benchViewer()) record(row);

  await database?.drop();

  const resultsDir = path.join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `bench-${engine}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ engine, cpus: cpus().length, durationSeconds: DURATION, rows }, null, 2));

  console.log('\n| # | Workload | Figures | Target |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    const figures = Object.entries(row.figures).map(([key, value]) => `${key} ${round(value)}`).join(', ');
    console.log(`| ${row.id} | ${row.workload} | ${figures} | ${row.target ? `${row.target}: ${row.met ? 'met' : 'missed'}` : ''} |`);
  }
  console.log(`\nWritten to ${path.relative(ROOT, file)}`);
}

/** Upload seconds (5 MiB, median of 3) and GET /files req/s (200 KB) on local disk and on S3. */
async function compareStorage(databaseUrl: string | undefined) {
  // The SDK's notice that Node 20 loses support in 2027, printed by this process's own client too.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const bucket = await createTestBucket('pf-bench');
  const services = {
    'local disk': await startService({ databaseUrl, dataDir: mkdtempSync(path.join(tmpdir(), 'pf-bench-disk-')) }),
    S3: await startService({
      databaseUrl,
      dataDir: mkdtempSync(path.join(tmpdir(), 'pf-bench-s3-')),
      env: { ...s3Env(bucket.name), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    }),
  };
  try {
    for (const [label, service] of Object.entries(services)) {
      const owner = await register(service, 10);
      const seconds: number[] = [];
      for (let i = 0; i < 3; i++) {
        const result = await upload(service, owner.token, 5 * 1024 * 1024);
        if (result.status !== 201) throw new Error(`${label} upload answered ${result.status}: ${result.body}`);
        seconds.push(result.seconds);
      }
      const small = await upload(service, owner.token, 200 * 1024);
      const asset = (JSON.parse(small.body) as { asset: { name: string } }).asset;
      const files = await load({ url: `${service.url}/files/${asset.name}`, connections: 20 }, { duration: Math.min(DURATION, 5) });
      record({
        id: '15',
        workload: `storage: ${label}`,
        figures: {
          '5 MiB upload s': median(seconds),
          'upload MB/s': (5 * 1024 * 1024) / median(seconds) / 1e6,
          'GET /files req/s': files.requests.average,
          'GET /files p99 ms': files.latency.p99,
          'GET /files MB/s': files.throughput.average / 1e6,
        },
      });
    }
  } finally {
    await Promise.all(Object.values(services).map((service) => service.stop()));
    await bucket.remove();
  }
}

await main();
