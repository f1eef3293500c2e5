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
  /Can't reach database server/i,
  /Client has encountered a connection error/i,
  /server closed the connection/i,
  /Connection refused/i,
];

export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (typeof current !== 'object') return false;
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown };
    if (typeof candidate.code === 'string' && UNREACHABLE_CODES.has(candidate.code)) return true;
    if (candidate.name === 'PrismaClientInitializationError') return true;
    if (typeof candidate.message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(candidate.message as string))) {
      return true;
    }
    current = candidate.cause;
  }
  return false;
}
