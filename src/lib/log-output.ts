// Where the process's log lines go: pretty-printed (pino-pretty) for a person at a terminal
// outside production, JSON lines otherwise (a file, a pipe, a log collector, production).
import { pino, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';

export function wantsPrettyLogs(stdout: { isTTY?: boolean }, production: boolean): boolean {
  return stdout.isTTY === true && !production;
}

/**
 * pino's JSON lines on stdout, written asynchronously in batches like pino's default
 * destination, but batched as buffers. The default batches strings: each line is appended to the
 * batch waiting behind the write in flight, and the whole batch is measured again (flattened and
 * counted in bytes) for every line, so a line costs more the more lines wait with it; under load
 * that is tens of lines, and the access log's share of each request doubles. Here each line is
 * encoded once and the batch is a list. pino flushes the destination when the process exits.
 */
function stdoutJsonLines(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' });
  return {
    // In buffer mode sonic-boom's write takes buffers; its type declares only strings.
    write: (line: string) => void destination.write(Buffer.from(line, 'utf8') as unknown as string),
  };
}

/** A pino-pretty stream onto `destination`, or JSON lines on stdout. */
export function logOutput(
  stdout: { isTTY?: boolean },
  production: boolean,
  destination: NodeJS.WritableStream = process.stdout,
): DestinationStream {
  if (!wantsPrettyLogs(stdout, production)) return stdoutJsonLines();
  return pretty({ destination, colorize: stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
}
