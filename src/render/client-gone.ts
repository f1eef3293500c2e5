// An AbortSignal that aborts when the client goes away before its answer was written: the
// response closes (the connection dropped) without having finished.
import type { ServerResponse } from 'node:http';

export function signalOnClientGone(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (response.closed && !response.writableFinished) controller.abort();
  else response.once('close', () => response.writableFinished || controller.abort());
  return controller.signal;
}
