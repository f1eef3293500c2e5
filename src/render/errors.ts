// How a render can end other than with its result, and the errors a child's task may throw,
// rebuilt on this side of the process boundary so callers can tell them apart.
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

/** Base of every way the pool ends a render itself; a 503 unless a caller says otherwise. */
export class RenderError extends HttpError {
  constructor(message: string, statusCode = 503) {
    super(statusCode, message);
    this.name = 'RenderError';
  }
}

/** The render did not finish by its deadline (waiting for a child included); its child was killed. */
export class RenderTimeoutError extends RenderError {
  override name = 'RenderTimeoutError';
}
/** Every child is busy and the queue is full. */
export class RenderBusyError extends RenderError {
  override name = 'RenderBusyError';
}
/** The caller's signal aborted (the client went away); its child was killed. */
export class RenderCancelledError extends RenderError {
  override name = 'RenderCancelledError';
}
/** The child outgrew its memory cap and was killed. */
export class RenderMemoryError extends RenderError {
  override name = 'RenderMemoryError';
}
/** The child died on its own (a crash, or the kernel's out-of-memory killer). */
export class RenderCrashedError extends RenderError {
  override name = 'RenderCrashedError';
}
/** The pool is closing: no new work, and what ran was killed at the end of the grace period. */
export class RenderClosedError extends RenderError {
  override name = 'RenderClosedError';
}

const KNOWN: Record<string, new (...args: never[]) => Error> = {
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
