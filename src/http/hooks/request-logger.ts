/**
 * Each request's logger, made only when the request writes a line (issue 18). Fastify gives every request a
 * pino child bound to its id; with the service's redaction paths (several `*.` wildcards), pino runs the
 * redaction over the child's bindings when it is made: about 4.6 KB of garbage and a few µs of CPU per
 * request, the largest single allocation of a trade, for a logger that at `LOG_LEVEL=warn` writes nothing on
 * a request that succeeds. Here the request gets a stand-in that makes the same child (same bindings, same
 * options) the first time a line at an enabled level is written or anything else is asked of it; every line
 * then comes from that child, so it carries the request id exactly as before.
 *
 * The stand-in is a class instance (three fields; the methods on its prototype): an object literal with an
 * accessor pair and six log closures added one by one cost about 4 µs per request, twice the pino child it
 * stands in for (issue 18, HTTP layer pass). Its methods use `this`, as pino's own do.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions, LevelWithSilent, Logger } from "pino";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/** A request's logger whose pino child is made on first use. */
class LazyLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  #child: Logger | undefined = undefined;

  constructor(parent: Logger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #made(): Logger {
    // No options: a route's own ones make the child at once (lazyRequestLogger).
    return (this.#child ??= this.#parent.child(this.#bindings, {}));
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#child === undefined && !this.#parent.isLevelEnabled(level)) return;
    // pino's log methods take (obj?, msg?, ...args); the arguments are handed over unchanged.
    (this.#made()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.#child ?? this.#parent).level;
  }
  set level(level: string) {
    this.#made().level = level;
  }
  silent(): void {}
  child(b: Bindings, o?: ChildLoggerOptions): Logger {
    return this.#made().child(b, o);
  }
  isLevelEnabled(level: LevelWithSilent | string): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }
  bindings(): Bindings {
    return this.#made().bindings();
  }
  fatal(...args: unknown[]): void {
    this.#write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.#write("error", args);
  }
  warn(...args: unknown[]): void {
    this.#write("warn", args);
  }
  info(...args: unknown[]): void {
    this.#write("info", args);
  }
  debug(...args: unknown[]): void {
    this.#write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.#write("trace", args);
  }
}

/**
 * Fastify's `childLoggerFactory` for a pino `parent`: a child made on first use (see the file comment).
 * With per-route options (a route's `logLevel` or serializers) the child is made at once, as Fastify does.
 */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (Object.keys(options).length > 0) return parent.child(bindings, options);
  // The service's logger is pino (createLogger), whose loggers answer isLevelEnabled.
  return new LazyLogger(parent as unknown as Logger, bindings) as unknown as FastifyBaseLogger;
}
