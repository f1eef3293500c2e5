// Where the process's log lines go: pretty-printed (pino-pretty) for a person at a terminal
// outside production, JSON lines otherwise (a file, a pipe, a log collector, production).
import { pino, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';

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
