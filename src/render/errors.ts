// How a render can end other than with its result, and the errors a child's task may throw,
// rebuilt on this side of the process boundary so callers can tell them apart.
import { BlankTooLargeError } from '../dielines/layout.js';
import { HttpError } from '../errors.js';
import { ImageTooLargeError, ImageUnreadableError } from '../lib/image-analysis.js';
import { SvgTooCostlyError } from './svg-filters.js';
import type { SentError } from './transport.js';

export type KillReason = 'deadline' | 'cancelled' | 'memory' | 'shutdown';

export const RENDER_MESSAGES = {
  busy: 'Too many renders are running or waiting; retry in a few seconds.',
  closing: 'The service is shutting down; retry in a few seconds.',
  timeout: (what: string, ms: number) => `The ${what} took longer than its ${ms / 1000} s limit.`,
  memory: (what: string, mb: number) => `The ${what} needed more than the ${mb} MB of memory one render may use.`,
  crashed: (what: string) => `The ${what} stopped unexpectedly; retry in a few seconds.`,
  cancelled: 'The client went away; the render was stopped.',
} as const;

/**
 * How the pool ended a render itself: past its `deadline` (waiting for a child included), `busy`
 * (every child busy and the queue full), `cancelled` (the client went away), over the child's
 * `memory` cap, `crashed` (the child died on its own), or `closed` (the pool is shutting down).
 * Every one is a 503 (with Retry-After) unless a caller maps it otherwise.
 */
export type RenderEnd = 'deadline' | 'busy' | 'cancelled' | 'memory' | 'crashed' | 'closed';

export class RenderError extends HttpError {
  constructor(
    readonly reason: RenderEnd,
    message: string,
  ) {
    super(503, message);
    this.name = 'RenderError';
  }
}

const KNOWN: Record<string, new (...args: never[]) => Error> = {
  BlankTooLargeError,
  ImageTooLargeError,
  ImageUnreadableError,
  SvgTooCostlyError,
};

/** The child's error as the class it was thrown as; an unknown one stays a plain Error (a bug: 500). */
export function errorFromChild(sent: SentError): Error {
  const known = KNOWN[sent.name];
  if (known) return Object.assign(Object.create(known.prototype) as Error, { name: sent.name, message: sent.message });
  if (sent.statusCode !== undefined && sent.statusCode >= 400 && sent.statusCode < 500) return new HttpError(sent.statusCode, sent.message);
  return Object.assign(new Error(`${sent.name} in a render child: ${sent.message}`), { name: sent.name });
}
