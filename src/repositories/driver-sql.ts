// The one way SQL is sent: through Prisma's driver adapter (the layer the Prisma client itself sends
// its SQL through, on the same pool or embedded engine), for statements that carry a condition the
// client cannot express (row locks, inserts under a cap, compare-and-set writes that record history)
// and on the hot paths (the guard's account read, the editor's project routes). There a client call
// costs several times the driver's CPU: measured on PostgreSQL on a 2-core machine, findFirst,
// findMany and $queryRaw 150–200 µs more per call, and the guard's findUnique 400 µs more per
// request. Results arrive as the adapter gives them: JSON columns as their text, timestamptz as ISO
// text, integers and doubles as numbers.
import type { ArgType, SqlDriverAdapter, SqlQueryable } from '@prisma/driver-adapter-utils';
import { isDatabaseUnreachable } from '../db/errors.js';

export type { SqlDriverAdapter, SqlQueryable };

const STRING: ArgType = { scalarType: 'string', arity: 'scalar' };
const INT: ArgType = { scalarType: 'int', arity: 'scalar' };
const FLOAT: ArgType = { scalarType: 'float', arity: 'scalar' };
const BOOLEAN: ArgType = { scalarType: 'boolean', arity: 'scalar' };
const JSON_TEXT: ArgType = { scalarType: 'json', arity: 'scalar' };
const UNKNOWN: ArgType = { scalarType: 'unknown', arity: 'scalar' };

/** A parameter of a statement: text, a number, a boolean, a time (sent as ISO text), null, or a JSON document as its text. */
export type SqlArg = string | number | boolean | Date | null | { json: string };

function argType(arg: SqlArg): ArgType {
  if (typeof arg === 'string' || arg instanceof Date) return STRING;
  if (typeof arg === 'number') return Number.isInteger(arg) ? INT : FLOAT;
  if (typeof arg === 'boolean') return BOOLEAN;
  return arg === null ? UNKNOWN : JSON_TEXT;
}

function argValue(arg: SqlArg): unknown {
  if (arg instanceof Date) return arg.toISOString();
  return arg !== null && typeof arg === 'object' ? arg.json : arg;
}

const query = (sql: string, args: readonly SqlArg[]) => ({ sql, args: args.map(argValue), argTypes: args.map(argType) });

/** The statement's rows as objects keyed by column name; the caller names the row's shape. */
export async function selectRows<Row>(db: SqlQueryable, sql: string, args: readonly SqlArg[]): Promise<Row[]> {
  const { columnNames, rows } = await db.queryRaw(query(sql, args));
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < columnNames.length; index++) row[columnNames[index]!] = values[index];
    return row as Row;
  });
}

/** The number of rows the statement changed. */
export function execute(db: SqlQueryable, sql: string, args: readonly SqlArg[]): Promise<number> {
  return db.executeRaw(query(sql, args));
}

/**
 * Runs fn in one transaction on one connection: committed when fn resolves, rolled back when it
 * throws. The adapter says whether it sends BEGIN/COMMIT itself (the embedded engine) or expects
 * the caller to (PostgreSQL's pool), exactly as the Prisma client handles it. After a failure of
 * the connection itself no ROLLBACK is sent (it would wait out the same timeout): the connection
 * is discarded and the server rolls back (db/database.ts).
 */
export async function inTransaction<T>(db: SqlDriverAdapter, fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
  const tx = await db.startTransaction();
  const sendsItself = tx.options.usePhantomQuery;
  let result: T;
  try {
    result = await fn(tx);
  } catch (error) {
    try {
      if (!sendsItself && !isDatabaseUnreachable(error)) await tx.executeRaw(query('ROLLBACK', []));
    } finally {
      await tx.rollback();
    }
    throw error;
  }
  try {
    if (!sendsItself) await tx.executeRaw(query('COMMIT', []));
  } catch (error) {
    await tx.rollback();
    throw error;
  }
  await tx.commit();
  return result;
}
