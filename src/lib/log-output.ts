// Where the process's log lines go: pretty-printed (pino-pretty) for a person at a terminal
// outside production, JSON lines otherwise (a file, a pipe, a log collector, production); and
// the credentials no line shows.
import { pino, type DestinationStream, type redactOptions } from 'pino';
import pretty from 'pino-pretty';

/**
 * pino's `redact`: credential headers of a logged request, response or header set, and password
 * and token fields of a line or of a logged body. Paths start with a field name, never a wildcard,
 * so a line without those fields is written as if there were no redaction.
 */
export const LOG_REDACTION: redactOptions = {
  paths: [
    ...['req.headers', 'res.headers', 'headers'].flatMap((headers) =>
      ['authorization', 'x-api-key', 'cookie', 'set-cookie'].map((name) => `${headers}["${name}"]`),
    ),
    ...['password', 'passwordHash', 'token'].flatMap((field) => [field, `body.${field}`]),
  ],
  censor: '[redacted]',
};

export function wantsPrettyLogs(stdout: { isTTY?: boolean }, production: boolean): boolean {
  return stdout.isTTY === true && !production;
}

/**
 * A pino-pretty stream onto `destination`, or pino's asynchronous destination on stdout (JSON
 * lines written in batches, the rest flushed when the process exits).
 */
export function logOutput(
  stdout: { isTTY?: boolean },
  production: boolean,
  destination: NodeJS.WritableStream = process.stdout,
): DestinationStream {
  if (!wantsPrettyLogs(stdout, production)) return pino.destination({ dest: 1, sync: false });
  return pretty({ destination, colorize: stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
}
