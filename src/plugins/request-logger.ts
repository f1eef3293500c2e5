// Each request's logger (request.log, reply.log), given to Fastify as its childLoggerFactory.
// Fastify's default makes a pino child per request, serializing its bindings (the request id)
// up front, although most requests write nothing but their access line. Here the child is made
// the first time the request logs anything else (a refusal, an error, a route's own line); the
// access line of a request that logged nothing else is written through the app's logger with the
// request's bindings as its first fields: byte for byte the line the child would have written.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** pino's setBindings, which FastifyBaseLogger does not declare. */
type BindableLogger = FastifyBaseLogger & { setBindings?: (bindings: Bindings) => void };

export class RequestLogger implements FastifyBaseLogger {
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  #child: BindableLogger | undefined;
  #bindings: Bindings;

  constructor(
    private readonly parent: FastifyBaseLogger,
    bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    this.#bindings = bindings;
  }

  /** The pino child with this request's bindings, made on first use. */
  get logger(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.#bindings, this.options));
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  /** Adds fields to every later line of the request, as pino's setBindings does. */
  setBindings(bindings: Bindings): void {
    if (this.#child?.setBindings) this.#child.setBindings(bindings);
    else this.#bindings = { ...this.#bindings, ...bindings };
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  /**
   * One info line of plain fields, written without making the child when there is none yet and
   * the route sets neither its own level nor serializers (the options Fastify passes).
   */
  infoFields(fields: Record<string, unknown>, message: string): void {
    if (this.#child || this.options.level !== undefined || this.options.serializers !== undefined) this.logger.info(fields, message);
    else this.parent.info({ ...this.#bindings, ...fields }, message);
  }
}

for (const method of LOG_METHODS) {
  // pino's LogFn is a set of generic overloads: the arguments are handed on unchanged.
  RequestLogger.prototype[method] = function (this: RequestLogger, ...args: unknown[]) {
    const logger = this.logger;
    Reflect.apply(logger[method], logger, args);
  } as LogFn;
}
RequestLogger.prototype.silent = (() => undefined) as LogFn;

/** Fastify's childLoggerFactory: a RequestLogger over the app's logger. */
export function requestLogger(this: unknown, logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}
