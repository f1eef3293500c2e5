// The client factory: the only place that knows which engine is in use. Above it, code sees a
// PrismaClient, a ping and a single-connection SQL session for the migrator.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlDriverAdapter, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { DatabaseTarget } from '../config.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { lockDataDirectory } from './directory-lock.js';
import { isDatabaseUnreachable } from './errors.js';
import type { SqlSession } from './sql.js';

export type { PrismaClient };

export interface Database {
  prisma: PrismaClient;
  /**
   * The driver adapter Prisma sends its SQL through (same pool, same engine), connected once more
   * for the hot paths' hand-written statements: it skips the client's per-call query planning and
   * result mapping (src/repositories/driver-sql.ts).
   */
  sql: SqlDriverAdapter;
  /** Round trip to the database; rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Runs fn on one dedicated connection (what an advisory lock needs). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Pool occupancy for metrics (PostgreSQL only: the embedded engine is one connection). */
  poolStats?(): { total: number; idle: number; waiting: number };
}

export interface DatabaseEvents {
  /** Errors raised by idle connections, which would otherwise crash the process. */
  onBackgroundError?: (error: Error) => void;
}

/** Who opens an embedded data directory, as its lock names it to another process (directory-lock.ts). */
export interface DirectoryUser {
  /** The port a server will serve on; absent for a command. */
  port?: number;
  command?: string;
}

export async function openDatabase(target: DatabaseTarget, events: DatabaseEvents = {}, user: DirectoryUser = {}): Promise<Database> {
  return target.kind === 'postgres' ? openPostgres(target, events) : openEmbedded(target, user);
}

async function openPostgres(
  target: Extract<DatabaseTarget, { kind: 'postgres' }>,
  events: DatabaseEvents,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize,
    connectionTimeoutMillis: target.timeoutMs,
    query_timeout: target.timeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    // A transaction orphaned by a network partition would otherwise hold its row locks (the
    // project cap locks the owner's row) until the server notices the dead socket, possibly hours.
    idle_in_transaction_session_timeout: 30_000,
  });
  pool.on('error', (error) => events.onBackgroundError?.(error));
  const adapter = new PrismaPg(pool);
  const prisma = new PrismaClient({ adapter });
  // The hot statements are prepared once per connection and then only bound and executed: the
  // server skips parsing and planning them again on every request. The client's own statements
  // stay unnamed (their texts vary with their arguments: a named statement per text would grow
  // without bound on every connection).
  const hotPaths = new PrismaPg(pool, { statementNameGenerator: statementNames(MAX_NAMED_STATEMENTS) });
  const sql = discardingFailedConnections(await hotPaths.connect());

  return {
    prisma,
    sql,
    async ping() {
      await pool.query('SELECT 1');
    },
    async withSession(fn) {
      // Its own connection without the pool's query timeout: a migration may take a while.
      const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: target.timeoutMs });
      client.on('error', (error) => events.onBackgroundError?.(error));
      await client.connect();
      try {
        return await fn({
          query: async (sql, params) => (await client.query(sql, params as unknown[] | undefined)).rows,
          exec: async (script) => {
            await client.query(script);
          },
        });
      } finally {
        await client.end();
      }
    },
    close: once(async () => {
      await prisma.$disconnect();
      await sql.dispose();
      await pool.end();
    }),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** Named statements per connection at most: the hot paths have a few dozen texts. */
const MAX_NAMED_STATEMENTS = 500;

/**
 * A stable name for each statement text (pg prepares a named statement once per connection and
 * reuses it), for the first `limit` texts; later texts run unnamed, so a caller that builds many
 * texts cannot fill the server's memory with prepared statements.
 */
export function statementNames(limit: number): (query: SqlQuery) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < limit) {
      name = `pf_${names.size}`;
      names.set(sql, name);
    }
    return name ?? UNNAMED;
  };
}
/** pg's unnamed statement: parsed again on every use. */
const UNNAMED = '';

/**
 * The pg adapter, with one change to its transactions: one whose connection failed (a query timed
 * out, the link broke) ends by discarding that connection instead of returning it to the pool,
 * where its next user would wait behind the lost query or even run inside the transaction it never
 * closed; the server rolls back when the connection goes. The adapter keeps the transaction's pool
 * client in its `client` field; without one, its own rollback runs.
 */
function discardingFailedConnections(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const wrapped: SqlDriverAdapter = Object.create(adapter);
  wrapped.startTransaction = async (isolationLevel) => {
    const tx = await adapter.startTransaction(isolationLevel);
    let failure: Error | undefined;
    const watched = async <T>(run: Promise<T>): Promise<T> => {
      try {
        return await run;
      } catch (error) {
        if (isDatabaseUnreachable(error)) failure = error instanceof Error ? error : new Error(String(error));
        throw error;
      }
    };
    // A plain object that delegates: Object.create(tx) would make every transaction's adapter
    // object a prototype, which V8 handles on a slow path.
    const transaction: Transaction = {
      provider: tx.provider,
      adapterName: tx.adapterName,
      options: tx.options,
      queryRaw: (query: SqlQuery) => watched(tx.queryRaw(query)),
      executeRaw: (query: SqlQuery) => watched(tx.executeRaw(query)),
      commit: () => tx.commit(),
      rollback: async () => {
        const client = (tx as Transaction & { client?: pg.PoolClient }).client;
        if (failure && client && typeof client.release === 'function') client.release(failure);
        else await tx.rollback();
      },
    };
    return transaction;
  };
  return wrapped;
}

async function openEmbedded(
  { dataDir, initialDump }: Extract<DatabaseTarget, { kind: 'embedded' }>,
  user: DirectoryUser,
): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  // Before anything touches the directory: another process holding it means nothing is opened.
  const unlock = inMemory
    ? () => undefined
    : lockDataDirectory(dataDir, { port: user.port ?? null, command: user.command ?? process.argv.slice(1, 3).join(' ') });
  let pglite: PGlite;
  try {
    // A dump is only a starting point: a directory that holds a database keeps its own data.
    const isNew = inMemory || !existsSync(dataDir) || readdirSync(dataDir).length === 0;
    const startFrom = initialDump && isNew ? new Blob([await readFile(initialDump)]) : undefined;
    if (!inMemory) await mkdir(dataDir, { recursive: true });
    pglite = await PGlite.create(dataDir, startFrom ? { loadDataDir: startFrom } : {});
  } catch (error) {
    unlock();
    throw error;
  }
  const adapter = new PrismaPGlite(pglite);
  const prisma = new PrismaClient({ adapter });
  const sql = await adapter.connect();
  const session: SqlSession = {
    query: async <Row>(sql: string, params?: readonly unknown[]) =>
      (await pglite.query<Row>(sql, params ? [...params] : undefined)).rows,
    exec: async (script) => {
      await pglite.exec(script);
    },
  };
  // PGlite is a single connection: sessions take turns so two callers never interleave.
  let sessionQueue: Promise<unknown> = Promise.resolve();
  return {
    prisma,
    sql,
    async ping() {
      await pglite.query('SELECT 1');
    },
    withSession(fn) {
      const run = sessionQueue.then(() => fn(session));
      sessionQueue = run.catch(() => undefined);
      return run;
    },
    close: once(async () => {
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        unlock();
      }
    }),
  };
}

/** Closing twice is harmless: the second call waits for the first. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
