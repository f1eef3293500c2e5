// The only module that reads process.env: parses and validates it into a typed, frozen Config.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { Type, type Static } from '@sinclair/typebox';
import { envSchema } from 'env-schema';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = Type.Object({
  NODE_ENV: Type.String({ default: 'development' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  // No default here: 127.0.0.1 in development, 0.0.0.0 in production (see loadConfig).
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DATABASE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60000, default: 3000 }),
  DATABASE_STARTUP_RETRY_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 30000 }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  UPLOAD_DIR: Type.String({ minLength: 1, default: './uploads' }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  API_KEY_SECRET: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  BCRYPT_COST: Type.Integer({ minimum: 4, maximum: 15, default: 12 }),
  LOG_LEVEL: Type.Union(LOG_LEVELS.map((level) => Type.Literal(level)), { default: 'info' }),
  TRUST_PROXY: Type.String({ pattern: '^(true|false|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$', default: 'false' }),
  RATE_LIMIT_AUTH_PER_MIN: Type.Integer({ minimum: 0, default: 30 }),
  RATE_LIMIT_V1_PER_MIN: Type.Integer({ minimum: 0, default: 1200 }),
  RATE_LIMIT_ACCOUNT_PER_MIN: Type.Integer({ minimum: 0, default: 10 }),
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, maximum: 120000, default: 10000 }),
  S3_BUCKET: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' })),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  S3_FORCE_PATH_STYLE: Type.Boolean({ default: false }),
  S3_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120000, default: 10000 }),
  S3_STARTUP_RETRY_MS: Type.Integer({ minimum: 0, maximum: 600000, default: 30000 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  REDIS_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 5000, default: 80 }),
  RATE_LIMIT_NAMESPACE: Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', default: 'packaging-api' }),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, pattern: '^[\\x21-\\x7e]+$' })),
  MOCKUP_ENABLED: Type.Boolean({ default: false }),
  MOCKUP_PAGES: Type.Integer({ minimum: 1, maximum: 8, default: 2 }),
  MOCKUP_QUEUE: Type.Integer({ minimum: 0, maximum: 100, default: 4 }),
  MOCKUP_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600000, default: 60000 }),
  CHROMIUM_PATH: Type.String({ minLength: 1, default: '/usr/bin/chromium' }),
  RENDER_ANALYSIS_CHILDREN: Type.Integer({ minimum: 1, maximum: 16, default: 2 }),
  RENDER_PRINT_CHILDREN: Type.Integer({ minimum: 1, maximum: 16, default: 2 }),
  RENDER_QUEUE: Type.Integer({ minimum: 0, maximum: 200, default: 32 }),
  RENDER_ACCOUNT_QUEUE: Type.Integer({ minimum: 1, maximum: 200, default: 16 }),
  RENDER_ANALYSIS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 20000 }),
  RENDER_PRINT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 60000 }),
  RENDER_PREVIEW_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 20000 }),
  RENDER_LAYOUT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 20000 }),
  RENDER_TEXTURE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 30000 }),
  RENDER_PREFLIGHT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 20000 }),
  RENDER_CHILD_MEMORY_MB: Type.Integer({ minimum: 128, maximum: 65536, default: 1536 }),
  RENDER_CHILD_HEAP_MB: Type.Integer({ minimum: 64, maximum: 16384, default: 512 }),
  RENDER_CHILD_IDLE_MS: Type.Integer({ minimum: 1000, maximum: 3600000, default: 60000 }),
  // No default here: a directory under the OS temp dir (see loadConfig).
  PRINT_IMAGE_CACHE_DIR: Type.Optional(Type.String({ minLength: 1 })),
  PRINT_IMAGE_CACHE_MB: Type.Integer({ minimum: 0, maximum: 1048576, default: 1024 }),
  EXPORT_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  EXPORT_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 10, default: 3 }),
  EXPORT_LEASE_MS: Type.Integer({ minimum: 1000, maximum: 3600000, default: 60000 }),
  EXPORT_DEADLINE_MS: Type.Integer({ minimum: 1000, maximum: 86400000, default: 600000 }),
  WORKER_METRICS_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 0 }),
  EXPORT_QUEUE_PREFIX: Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', default: 'packaging-api-jobs' }),
  WEBHOOK_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  WEBHOOK_RETRY_DELAYS_MS: Type.String({ pattern: '^[0-9]{1,9}(,[0-9]{1,9}){0,19}$', default: '8000,60000,360000,2160000' }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60000, default: 10000 }),
  WEBHOOK_POLL_MS: Type.Integer({ minimum: 10, maximum: 60000, default: 1000 }),
});
type Env = Static<typeof EnvSchema>;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize: number; timeoutMs: number }
  /** dataDir is a directory, or `memory://` for a throw-away in-memory database. */
  | {
      kind: 'embedded';
      dataDir: string;
      /** A data-directory dump (tar, from PGlite's dumpDataDir) a new database starts from: the tests' migrated template. */
      initialDump?: string;
    };

/** The parsed environment; each field's meaning is documented where loadConfig sets it. */
export type Config = ReturnType<typeof loadConfig>;
export type RenderConfig = Config['render'];
export type ExportSettings = Config['exports'];
export type MockupTarget = NonNullable<Config['mockup']>;
export type S3Target = NonNullable<Config['s3']>;

export class ConfigError extends Error {}

/**
 * The environment with the variables of `.env` (Node's parser: KEY=value lines, # comments,
 * `export`, quotes) added underneath it, and the names taken from the file; the file is optional.
 * The real environment always wins: a variable set there is never replaced by the file's value.
 */
export function withDotenv(env: NodeJS.ProcessEnv, file = '.env'): { env: NodeJS.ProcessEnv; loaded: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { env, loaded: [] };
    throw error;
  }
  const fromFile = parseEnv(text);
  const loaded = Object.keys(fromFile).filter((key) => env[key] === undefined);
  return { env: { ...fromFile, ...env }, loaded };
}

/** Parses the environment; throws ConfigError with one line naming the variable at fault. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  let parsed: Env;
  try {
    parsed = envSchema<Env>({ schema: EnvSchema, data: cleaned, env: false, dotenv: false });
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${describeEnvError(error)}`);
  }
  const production = parsed.NODE_ENV === 'production';
  const dataDir = path.resolve(parsed.DATA_DIR);

  if (production) {
    // Every missing one at once: an operator fixes them in one go, not one per failed start.
    const missing = [
      parsed.JWT_SECRET ? undefined : 'JWT_SECRET (at least 32 characters)',
      parsed.API_KEY_SECRET ? undefined : 'API_KEY_SECRET (64 hexadecimal characters)',
    ].filter((setting): setting is string => setting !== undefined);
    if (missing.length > 0) {
      const verb = missing.length === 1 ? 'is' : 'are';
      throw new ConfigError(`Invalid configuration: ${missing.join(' and ')} ${verb} required in production.`);
    }
  }
  const jwtSecret = parsed.JWT_SECRET ?? readOrCreateSecret(dataDir, 'jwt-secret', 48).toString('base64url');
  const apiKeySecret = parsed.API_KEY_SECRET
    ? Buffer.from(parsed.API_KEY_SECRET, 'hex')
    : readOrCreateSecret(dataDir, 'api-key-secret', 32);

  const database: DatabaseTarget = parsed.DATABASE_URL
    ? { kind: 'postgres', url: parsed.DATABASE_URL, poolSize: parsed.DATABASE_POOL_SIZE, timeoutMs: parsed.DATABASE_TIMEOUT_MS }
    : { kind: 'embedded', dataDir: path.join(dataDir, 'pgdata') };

  return Object.freeze({
    production,
    port: parsed.PORT,
    // Development listens on the loopback only: a laptop's server is not for the café's network.
    host: parsed.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    database,
    /** How long start-up keeps retrying an unreachable database before giving up (0: no retry). */
    databaseStartupRetryMs: parsed.DATABASE_STARTUP_RETRY_MS,
    dataDir,
    uploadDir: path.resolve(parsed.UPLOAD_DIR),
    jwtSecret,
    /** 32 bytes: the AES-256-GCM key that seals developer keys at rest. */
    apiKeySecret,
    publicBaseUrl: parsed.PUBLIC_BASE_URL ? parsed.PUBLIC_BASE_URL.replace(/\/+$/, '') : null,
    bcryptCost: parsed.BCRYPT_COST,
    logLevel: parsed.LOG_LEVEL,
    /** false, true (trust every hop), or a comma-separated list of proxy addresses/CIDRs. */
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    /** Per minute; 0 turns a limit off. accountPerMinute: password changes and deletions, per account. */
    rateLimit: {
      authPerMinute: parsed.RATE_LIMIT_AUTH_PER_MIN,
      v1PerMinute: parsed.RATE_LIMIT_V1_PER_MIN,
      accountPerMinute: parsed.RATE_LIMIT_ACCOUNT_PER_MIN,
    },
    shutdownGraceMs: parsed.SHUTDOWN_GRACE_MS,
    /** Object storage for uploads and derived files; null: the local disk (uploadDir). */
    s3: parsed.S3_BUCKET
      ? {
          bucket: parsed.S3_BUCKET,
          /** Null: AWS's own endpoint for the region. */
          endpoint: parsed.S3_ENDPOINT ?? null,
          region: parsed.S3_REGION,
          forcePathStyle: parsed.S3_FORCE_PATH_STYLE,
          /** Per-request budget; past it the request answers 503. */
          timeoutMs: parsed.S3_TIMEOUT_MS,
        }
      : null,
    /** How long start-up keeps retrying an unreachable bucket before giving up (0: no retry). */
    s3StartupRetryMs: parsed.S3_STARTUP_RETRY_MS,
    /** Shared rate-limit budgets; null: counted per process. */
    redis: parsed.REDIS_URL
      ? { url: parsed.REDIS_URL, timeoutMs: parsed.REDIS_TIMEOUT_MS, namespace: parsed.RATE_LIMIT_NAMESPACE }
      : null,
    /** Bearer token that opens GET /metrics; null: the route answers 404. */
    metricsToken: parsed.METRICS_TOKEN ?? null,
    /** GET /projects/:id/mockup (PNG rendered by the viewer in headless chromium); null: not served (404). */
    mockup: parsed.MOCKUP_ENABLED
      ? {
          /** The chromium binary playwright-core launches. */
          chromiumPath: parsed.CHROMIUM_PATH,
          /** Browser pages rendering at once. */
          pages: parsed.MOCKUP_PAGES,
          /** Requests waiting for a page; beyond it the answer is 503 with Retry-After. */
          queue: parsed.MOCKUP_QUEUE,
          /** Budget of one render (page load, model, screenshot); past it the answer is 503. */
          timeoutMs: parsed.MOCKUP_TIMEOUT_MS,
        }
      : null,
    /** The child processes every render runs in (src/render/). */
    render: {
      /** Children analysing uploads (their own pool, so prints never hold up an upload). */
      analysisChildren: parsed.RENDER_ANALYSIS_CHILDREN,
      /** Children making print files, previews and 3D textures. */
      printChildren: parsed.RENDER_PRINT_CHILDREN,
      /**
       * Renders waiting for a child, per pool; beyond it the answer is 503 with Retry-After (an
       * account's only render always waits).
       */
      queue: parsed.RENDER_QUEUE,
      /** Renders of one account waiting for a child, per pool (it runs one at a time); beyond it 503. */
      accountQueue: parsed.RENDER_ACCOUNT_QUEUE,
      /** Deadlines from submission (waiting included); past one the child is killed. */
      timeoutsMs: {
        analysis: parsed.RENDER_ANALYSIS_TIMEOUT_MS,
        print: parsed.RENDER_PRINT_TIMEOUT_MS,
        preview: parsed.RENDER_PREVIEW_TIMEOUT_MS,
        layout: parsed.RENDER_LAYOUT_TIMEOUT_MS,
        texture: parsed.RENDER_TEXTURE_TIMEOUT_MS,
        preflight: parsed.RENDER_PREFLIGHT_TIMEOUT_MS,
      },
      /** Resident memory of one child at most; past it the child is killed. */
      childMemoryMb: parsed.RENDER_CHILD_MEMORY_MB,
      /** V8 heap of one child (--max-old-space-size). */
      childHeapMb: parsed.RENDER_CHILD_HEAP_MB,
      /** An idle child exits after this long. */
      childIdleMs: parsed.RENDER_CHILD_IDLE_MS,
    },
    /** Where print children keep converted images between prints (src/print/image-cache.ts); null: off. */
    printImageCache:
      parsed.PRINT_IMAGE_CACHE_MB > 0
        ? {
            dir: path.resolve(parsed.PRINT_IMAGE_CACHE_DIR ?? path.join(tmpdir(), 'packaging-print-images')),
            maxBytes: parsed.PRINT_IMAGE_CACHE_MB * 1024 * 1024,
          }
        : null,
    exports: {
      /** Exports rendered at once by one process (in-process runner or worker). */
      concurrency: parsed.EXPORT_CONCURRENCY,
      /** Render attempts before an export is failed (a stalled or crashed attempt counts). */
      attempts: parsed.EXPORT_ATTEMPTS,
      /** How long a running export stays claimed without a heartbeat (in-process lease, BullMQ lock). */
      leaseMs: parsed.EXPORT_LEASE_MS,
      /**
       * From creation, how long an export keeps waiting for a busy render pool (retried with backoff,
       * no attempt used); past it the export fails.
       */
      deadlineMs: parsed.EXPORT_DEADLINE_MS,
      /** Redis key prefix of the BullMQ queue. */
      queuePrefix: parsed.EXPORT_QUEUE_PREFIX,
      /** A worker's own GET /metrics port (0: none). */
      workerMetricsPort: parsed.WORKER_METRICS_PORT,
    },
    webhooks: {
      /** Deliver to loopback and private addresses, and over http in production (tests on one machine). */
      allowPrivate: parsed.WEBHOOK_ALLOW_PRIVATE,
      /** Delays before the 2nd, 3rd, … attempts; one attempt more than delays in all. */
      retryDelaysMs: parsed.WEBHOOK_RETRY_DELAYS_MS.split(',').map(Number),
      timeoutMs: parsed.WEBHOOK_TIMEOUT_MS,
      pollMs: parsed.WEBHOOK_POLL_MS,
    },
  });
}

function parseTrustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function describeEnvError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // env-schema reports "env/PORT must be <= 65535" or "env must have required property 'X'".
  return message.replace(/^env\//, '').replace(/^env must/, 'environment must').split('\n')[0] ?? message;
}

/**
 * Development secrets: generated once from a cryptographic source and kept in DATA_DIR with
 * owner-only permissions, so tokens and sealed keys survive a restart.
 */
function readOrCreateSecret(dataDir: string, name: string, bytes: number): Buffer {
  const file = path.join(dataDir, 'secrets', name);
  try {
    const existing = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
    if (existing.length === bytes) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(bytes);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, secret.toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs so both agree.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateSecret(dataDir, name, bytes);
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}
