// Answers for a few fixed, pre-encoded resources straight from the HTTP server's request event,
// ahead of Fastify's routing, hooks and per-request objects. Only a request that cannot be told
// from the route's own answer takes it: the exact method and path, no query string and no body,
// while the app is open and request logging is off. Everything else (and every request while a
// condition fails) goes to Fastify unchanged, so the route stays the one source of its behaviour.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

export interface FastAnswer {
  /** The request line's path, exactly (no query string, no trailing slash). */
  path: string;
  contentType: string;
  body: Buffer;
}

export interface FastPathContext {
  /** The request id every answer carries, as the app makes it (incoming one reused when sane). */
  requestId(request: IncomingMessage): string;
  /** Whether the fast path may answer now: false until the app is ready, while it closes, and while requests are logged. */
  active(): boolean;
  /** Counts the answer in the request metrics, as the route's own answer would be. */
  observe(answer: FastAnswer, seconds: number): void;
}

/** Wraps the app's request listener: the given GET answers first, everything else to `next`. */
export function withFastPath(next: RequestListener, answers: readonly FastAnswer[], context: FastPathContext): RequestListener {
  const byPath = new Map(
    answers.map((answer) => [answer.path, { answer, length: String(answer.body.length) }] as const),
  );
  return (request: IncomingMessage, response: ServerResponse) => {
    const entry = request.method === 'GET' ? byPath.get(request.url ?? '') : undefined;
    if (entry === undefined || hasBody(request) || !context.active()) return void next(request, response);
    const started = performance.now();
    response.writeHead(200, [
      'content-type', entry.answer.contentType,
      'content-length', entry.length,
      'x-request-id', context.requestId(request),
    ]);
    response.end(entry.answer.body);
    context.observe(entry.answer, (performance.now() - started) / 1000);
  };
}

const hasBody = (request: IncomingMessage) =>
  request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
