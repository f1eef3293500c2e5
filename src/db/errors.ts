// Recognises "the database cannot be reached" across pg, PGlite and Prisma's wrappers, so the
// error handler can answer 503 instead of 500.
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'P1001', // Can't reach database server
  'P1002', // Database server timed out
  'P1008', // Operations timed out
  'P1017', // Server has closed the connection
  'P2024', // Timed out fetching a connection from the pool
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '08001', // sqlclient_unable_to_establish_sqlconnection
]);

const UNREACHABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /connection timeout/i,
  /^timeout expired$/, // pg.Client's connectionTimeoutMillis (the migrator's own connection)
  /Can't reach database server/i,
  /Client has encountered a connection error/i,
  /server (has )?closed the connection/i,
  /Connection refused/i,
  /^PGlite is clos(ed|ing)$/, // the embedded engine after Database.close()
];

// Driver-adapter error kinds (Prisma's DriverAdapterError.cause.kind) that mean the same.
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  name?: unknown;
  cause?: unknown;
  /** Prisma keeps the adapter's error here (e.g. P2010 "Raw query failed" from a transaction). */
  meta?: { driverAdapterError?: unknown };
}

function matches(candidate: ErrorLike): boolean {
  if (typeof candidate.code === 'string' && UNREACHABLE_CODES.has(candidate.code)) return true;
  if (typeof candidate.kind === 'string' && UNREACHABLE_KINDS.has(candidate.kind)) return true;
  if (candidate.name === 'PrismaClientInitializationError') return true;
  const message = candidate.message;
  return typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/** Looks through the error, its causes and Prisma's wrapped adapter errors (a bounded walk). */
export function isDatabaseUnreachable(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let visited = 0; pending.length > 0 && visited < 12; visited++) {
    const current = pending.shift();
    if (!current || typeof current !== 'object') continue;
    const candidate = current as ErrorLike;
    if (matches(candidate)) return true;
    pending.push(candidate.cause, candidate.meta?.driverAdapterError);
  }
  return false;
}
