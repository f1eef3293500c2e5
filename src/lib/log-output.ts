// Where the process's log lines go: pretty-printed (pino-pretty) for a person at a terminal
// outside production, JSON lines otherwise (a file, a pipe, a log collector, production).
import type { DestinationStream } from 'pino';
import pretty from 'pino-pretty';

export function wantsPrettyLogs(stdout: { isTTY?: boolean }, production: boolean): boolean {
  return stdout.isTTY === true && !production;
}

/** A pino-pretty stream onto `destination`, or undefined for pino's JSON lines on stdout. */
export function logOutput(
  stdout: { isTTY?: boolean },
  production: boolean,
  destination: NodeJS.WritableStream = process.stdout,
): DestinationStream | undefined {
  if (!wantsPrettyLogs(stdout, production)) return undefined;
  return pretty({ destination, colorize: stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
}
