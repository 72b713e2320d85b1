/** Wires issue 23's hooks around the auth hook, in the order they must run. */
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";
import type { Metrics } from "../../observability/metrics.js";
import type { Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { authFailureCounter, authFailureGuard } from "./auth-failures.js";
import { installAuth } from "./auth.js";
import { installBudgets, refusalGuard } from "./budgets.js";
import { installBodyShapeGuard, installRequestGuards, installResponseGuards } from "./hardening.js";
import { memoryRequestCounter, storeRequestCounter, type RequestCounter } from "./request-counters.js";

export type { RequestCounter } from "./request-counters.js";

/** Server timeouts for Fastify's options: whole-request and socket-idle limits from the configuration. */
export function serverTimeouts(config: Config): {
  requestTimeout: number;
  connectionTimeout: number;
  http: { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number };
} {
  const { requestTimeoutMs, connectionTimeoutMs } = config.hardening;
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: connectionTimeoutMs,
    http: {
      // Node only enforces the request timeout given when the server is created (Fastify sets it afterwards).
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs === 0 ? 60_000 : Math.min(60_000, requestTimeoutMs),
      // Node checks request timeouts on this interval (default 30 s): a short timeout needs a shorter check.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(requestTimeoutMs / 2) || 1_000)),
    },
  };
}

/** PostgreSQL: the shared store counter; SQLite: this process's memory (one process per file is the norm). */
export function defaultRequestCounter(
  store: Pick<Store, "dialect" | "countRequest" | "countRequests">,
): RequestCounter {
  return store.dialect === "postgres" ? storeRequestCounter(store) : memoryRequestCounter();
}

/** Counts one unusable key from an IP; undefined within the allowance, else the seconds to wait (auth-failures.ts). */
export type AuthFailureCount = (ip: string, route: string | undefined) => Promise<number | undefined>;

/**
 * Installs host/metrics guards, auth (with the invalid-key throttle and the refusals budget), budgets and the
 * response guards. Returns the request counter (the activity log samples refusals with it) and the invalid-key
 * counter (the stream's auth message draws on it).
 */
export function installHardening(
  app: FastifyInstance,
  deps: {
    config: Config;
    store: Store;
    vault: Vault;
    clock: () => Date;
    requestCounter?: RequestCounter;
  },
  metrics: Metrics,
): { requestCounter: RequestCounter; countAuthFailure: AuthFailureCount } {
  const settings = deps.config.hardening;
  const counter = deps.requestCounter ?? defaultRequestCounter(deps.store);
  const nowMs = (): number => deps.clock().getTime();
  installRequestGuards(app, settings);
  const failures = {
    perMinute: settings.authFailuresPerMinute,
    counter,
    nowMs,
    countFailure: () => metrics.countAuthFailure(),
    log: () => app.log,
  };
  const countAuthFailure = authFailureCounter(failures);
  installAuth(app, {
    ...deps,
    onInvalidKey: authFailureGuard(failures, countAuthFailure),
    onRefusal: refusalGuard({ settings, counter, nowMs }),
  });
  installBudgets(app, { settings, counter, nowMs });
  installResponseGuards(app);
  installBodyShapeGuard(app);
  return { requestCounter: counter, countAuthFailure };
}
