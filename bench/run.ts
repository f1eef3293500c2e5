// npm run bench: measures the production build against the physical limit of this machine.
// PostgreSQL when DATABASE_URL is set (a fresh database, dropped afterwards), else the embedded engine.
// Prints one table and writes the figures to bench/results/.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createTestBucket, s3Env } from '../test/helpers/s3.js';
import { cpuMicros, createDatabase, freePort, json, median, ROOT, rssBytes, startService, type RunningService } from './support.js';

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
  if (result.errors > 0 || result.non2xx > 0) {
    console.warn(`  warning: ${result.errors} errors, ${result.non2xx} non-2xx responses on ${options.url}`);
  }
  return result;
}

interface Workload {
  options: Options;
  /** The serving process, to measure its CPU time per request. */
  pid?: number;
}
interface Sample {
  reqPerSec: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
}

/** Every workload once per round, ROUNDS rounds, rotating which goes first; samples[workload][round]. */
async function interleave(workloads: Workload[]): Promise<Sample[][]> {
  for (const { options } of workloads) await autocannon({ ...options, duration: WARMUP });
  const samples: Sample[][] = workloads.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < workloads.length; turn++) {
      const index = (round + turn) % workloads.length;
      const { options, pid } = workloads[index]!;
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

async function startReference(kind: 'node' | 'fastify'): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/reference-server.ts'), kind, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
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

/** A PNG-signed body of the given size, streamed as a multipart upload; returns seconds and the answer. */
function upload(service: RunningService, token: string, size: number, onProgress?: () => void) {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61', 'hex');
  const chunk = Buffer.alloc(64 * 1024, 7);
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

async function main() {
  console.log(`Benchmark on ${engine}, ${cpus().length} cores (${cpus()[0]?.model}), ${DURATION}s per workload after ${WARMUP}s warm-up, ${CONNECTIONS} connections`);
  const database = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-data-'));
  const service = await startService({ databaseUrl: database?.url, dataDir });
  // A fresh database keeps PostgreSQL busy for a moment (checkpoint, autovacuum of the new
  // catalog); let it settle so #1 measures the service, not the neighbour.
  if (database) await settle(database.url);
  const reference = await startReference('node');
  const fastifyFloor = await startReference('fastify');
  try {
    // 1. GET /templates against the reference.
    if (wanted('1')) {
      const [ref, bare, svc] = await interleave([
        { options: { url: `${reference.url}/templates`, connections: CONNECTIONS } },
        { options: { url: `${fastifyFloor.url}/templates`, connections: CONNECTIONS } },
        { options: { url: `${service.url}/templates`, connections: CONNECTIONS }, pid: service.pid },
      ]);
      const ratio1 = medianRatio(svc!, ref!);
      record({
        id: '1',
        workload: 'GET /templates vs bare node:http',
        figures: {
          'req/s': medianOf(svc!, 'reqPerSec'),
          'p99 ms': medianOf(svc!, 'p99Ms'),
          'node:http req/s': medianOf(ref!, 'reqPerSec'),
          'bare Fastify req/s': medianOf(bare!, 'reqPerSec'),
          ratio: ratio1,
          'bare Fastify ratio': medianRatio(bare!, ref!),
          'service / bare Fastify': medianRatio(svc!, bare!),
        },
        target: 'ratio >= 0.90',
        met: ratio1 >= 0.9,
      });
      console.log(`  ratio per round: ${roundRatios(svc!, ref!)}`);
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
      // The public route sent the same header too: what is left between the two is the key check.
      const [publicListing, keyed, publicWithHeader] = await interleave([
        { options: { url: `${service.url}/templates`, connections: CONNECTIONS }, pid: service.pid },
        { options: { url: `${service.url}/v1/templates`, connections: CONNECTIONS, headers: keyHeader }, pid: service.pid },
        { options: { url: `${service.url}/templates`, connections: CONNECTIONS, headers: keyHeader }, pid: service.pid },
      ]);
      const ratio3 = medianRatio(keyed!, publicListing!);
      record({
        id: '3',
        workload: 'GET /v1/templates with a key vs GET /templates, same rounds',
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

    // 4. GET /projects with 3 projects.
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
      const list = await load({ url: `${service.url}/projects`, connections: CONNECTIONS, headers: owner.auth });
      record({
        id: '4',
        workload: 'GET /projects (3 projects) with a JWT',
        figures: { 'req/s': list.requests.average, 'p99 ms': list.latency.p99 },
        target: 'p99 < 20 ms',
        met: list.latency.p99 < 20,
      });
    }

    // 5. create → update → delete, one free-plan account per connection.
    if (wanted('5')) {
      const accounts = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => register(service, i + 1)));
      let next = 0;
      const cycle = await load({
        url: service.url,
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
      });
      record({
        id: '5',
        workload: 'create → update → delete a project (per request)',
        figures: { 'cycles/s': cycle.requests.average / 3, 'p50 ms': cycle.latency.p50, 'p99 ms': cycle.latency.p99 },
        target: 'p99 < 20 ms',
        met: cycle.latency.p99 < 20,
      });
    }

    // 6 + 7. Logins at the configured cost, and /health latency meanwhile.
    if (wanted('6', '7')) {
      const loginBody = JSON.stringify({ email: owner.email, password: owner.password });
      const [logins, health] = await Promise.all([
        load({ url: `${service.url}/auth/login`, method: 'POST', connections: 20, headers: { 'content-type': 'application/json' }, body: loginBody }, { warmup: 1 }),
        load({ url: `${service.url}/health`, connections: 2, overallRate: 200 }, { warmup: 1 }),
      ]);
      record({
        id: '6',
        workload: `POST /auth/login (bcrypt cost ${process.env.BCRYPT_COST ?? 12}, 20 at once)`,
        figures: { 'logins/s': logins.requests.average, 'p50 ms': logins.latency.p50 },
      });
      record({
        id: '7',
        workload: 'GET /health p99 while #6 runs',
        figures: { 'p99 ms': health.latency.p99, 'max ms': health.latency.max },
        target: 'p99 < 20 ms',
        met: health.latency.p99 < 20,
      });
    }

    // 8. 25 MiB upload: time and the server's peak resident-memory growth.
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

    // 8b. Serving a 200 KB image.
    if (wanted('8b')) {
      const small = await upload(service, owner.token, 200 * 1024);
      const asset = (JSON.parse(small.body) as { asset: { name: string } }).asset;
      const files = await load({ url: `${service.url}/files/${asset.name}`, connections: CONNECTIONS });
      record({ id: '8b', workload: 'GET /files/:name (200 KB image)', figures: { 'req/s': files.requests.average, 'p99 ms': files.latency.p99, 'MB/s': files.throughput.average / 1e6 } });
    }
  } finally {
    reference.stop();
    fastifyFloor.stop();
    await service.stop();
  }

  // 10. Object storage next to local disk: the same uploads and /files reads against an S3 bucket
  // on the local Ceph radosgw (scripts/start-s3.sh; S3_TEST_ENDPOINT to use another gateway).
  if (wanted('10')) await compareStorage(database?.url);

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
        id: '10',
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
