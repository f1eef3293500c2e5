// Reads and discards what is left of a request body before an early answer (401, 413, 415, 400
// on any route, JSON or multipart), so the connection stays usable and a proxy still sending the body never sees the
// connection close under it (nginx with proxy_request_buffering off reports that as 502 instead
// of the service's answer). Bounded in bytes and time: past either, the connection is closed.
import type { IncomingMessage } from 'node:http';

/** Bodies up to this size are read to the end (nginx admits 26 MiB). */
export const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
export const DRAIN_MAX_MS = 5_000;

/** A body was announced and has not been read to its end. */
export function hasUnreadBody(request: IncomingMessage): boolean {
  if (request.complete || request.readableEnded || request.destroyed) return false;
  return Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
}

/** Resolves true once the body has been read to its end, false when it had to give up (past maxMs). */
export function drainRequest(request: IncomingMessage, maxMs = DRAIN_MAX_MS): Promise<boolean> {
  if (!hasUnreadBody(request)) return Promise.resolve(true);
  // A chunked body (no Content-Length) is read up to the same bound as it arrives.
  const declared = Number(request.headers['content-length'] ?? 0);
  if (!(declared <= DRAIN_MAX_BYTES)) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const onClose = () => finish(request.complete);
    const timer = setTimeout(() => finish(false), maxMs);
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onError);
    request.once('close', onClose);
    // A body parser (multipart's) may still be reading it: it stops, the rest is discarded here.
    request.unpipe();
    request.resume();
  });
}
