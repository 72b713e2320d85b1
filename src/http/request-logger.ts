/**
 * Each request's logger, made only when the request writes a line (issue 18). Fastify gives every request a
 * pino child bound to its id; with the service's redaction paths (several `*.` wildcards), pino runs the
 * redaction over the child's bindings when it is made: about 4.6 KB of garbage and a few µs of CPU per
 * request, the largest single allocation of a trade, for a logger that at `LOG_LEVEL=warn` writes nothing on
 * a request that succeeds. Here the request gets a stand-in that makes the same child (same bindings, same
 * options) the first time a line at an enabled level is written or anything else is asked of it; every line
 * then comes from that child, so it carries the request id exactly as before.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions, LevelWithSilent, Logger } from "pino";

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;

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
  const pinoParent = parent as unknown as Logger;
  let child: Logger | undefined;
  const made = (): Logger => (child ??= pinoParent.child(bindings, options));
  const logger = {
    get level(): string {
      return (child ?? pinoParent).level;
    },
    set level(level: string) {
      made().level = level;
    },
    silent: () => undefined,
    child: (b: Bindings, o?: ChildLoggerOptions) => made().child(b, o),
    isLevelEnabled: (level: LevelWithSilent | string) => (child ?? pinoParent).isLevelEnabled(level),
    bindings: () => made().bindings(),
  } as Record<string, unknown>;
  for (const level of LEVELS) {
    logger[level] = (...args: unknown[]): void => {
      if (child === undefined && !pinoParent.isLevelEnabled(level)) return;
      // pino's log methods take (obj?, msg?, ...args); the arguments are handed over unchanged.
      (made()[level] as (...a: unknown[]) => void)(...args);
    };
  }
  return logger as unknown as FastifyBaseLogger;
}
