// Fields attached to a logger after it was made (the API key behind a /v1 request), added to a
// line only when a line is written. pino's setBindings or child() would serialize them on every
// request, including the many whose lines the level filters out. Wired as pino's `mixin`.

export type LogFields = Readonly<Record<string, string>>;

const LOG_CONTEXT = Symbol('logContext');

interface WithLogContext {
  [LOG_CONTEXT]?: LogFields;
}

/**
 * Adds fields to every later line of this logger and of the loggers derived from it (pino's
 * child loggers inherit from their parent object). A property rather than a WeakMap entry: on
 * a per-request logger a WeakMap entry costs about four times as much.
 */
export function setLogContext(logger: object, fields: LogFields): void {
  (logger as WithLogContext)[LOG_CONTEXT] = fields;
}

/** pino `mixin`: the writing logger's fields, as a fresh object since pino merges into it. */
export function logContextMixin(_mergeObject: object, _level: number, logger: object): Record<string, string> {
  const fields = (logger as WithLogContext)[LOG_CONTEXT];
  return fields ? { ...fields } : {};
}
