/**
 * The service's Prometheus metrics on a registry of their own (one per app, never prom-client's global one).
 * Labels are closed sets — route patterns, methods, status codes, execution kinds and statuses — so no
 * secret, API key or wallet address can reach a label.
 */
import { collectDefaultMetrics, Registry } from "prom-client";
import { metricsOn } from "./registered.js";
import type { ExecutionKind, ExecutionStatus } from "../store/index.js";

export interface Metrics {
  readonly registry: Registry;
  /** One finished HTTP request: `route` is the matched pattern (e.g. `/v1/wallets/:public_key`), never a URL. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  /** One execution outcome as stored (confirmed / submitted / timeout / failed, or pending when unknown). */
  countExecution(kind: ExecutionKind, status: ExecutionStatus): void;
  /** One relay accepted a transaction after `seconds` (relay = configured preset name, a closed set). */
  observeRelayAccept(relay: string, seconds: number): void;
  /** One relay send failed; reason is a closed set (http_429, http_4xx, http_5xx, rpc_error, timeout, transport). */
  countRelayError(relay: string, reason: string): void;
  /** One request with an unknown x-api-key (no label: the key and the IP stay out of the metrics). */
  countAuthFailure(): void;
}

export interface MetricsOptions {
  /** prom-client's process metrics (CPU, memory, event loop lag, GC…). Default true. */
  processMetrics?: boolean;
}

// Execution requests wait for confirmation (seconds); the buckets reach past the default 30 s confirm timeout.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

// A relay answers in milliseconds to a few hundred; past the relay timeout (default 5 s) the send has failed.
const RELAY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Creates a fresh registry with the process, HTTP and execution metrics. */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const { counter, histogram } = metricsOn(registry);
  const requests = histogram(
    "lasertrade_http_request_duration_seconds",
    "HTTP request duration by method, route pattern and status code.",
    ["method", "route", "status_code"],
    DURATION_BUCKETS,
  );
  const executions = counter(
    "lasertrade_executions_total",
    "Execution outcomes recorded, by kind and outcome (confirmed, submitted, timeout, failed, pending).",
    ["kind", "outcome"],
  );
  const relayAccept = histogram(
    "lasertrade_relay_accept_seconds",
    "Time from sending signed bytes to a relay's acceptance, by relay (RELAY preset name).",
    ["relay"],
    RELAY_BUCKETS,
  );
  const relayErrors = counter(
    "lasertrade_relay_errors_total",
    "Relay sends that failed, by relay and reason (http_429, http_4xx, http_5xx, rpc_error, timeout, transport).",
    ["relay", "reason"],
  );
  const authFailures = counter(
    "lasertrade_auth_failures_total",
    "Requests that presented an x-api-key no usable key matches (unknown, revoked or expired).",
  );
  return {
    registry,
    countAuthFailure() {
      authFailures.inc();
    },
    observeRelayAccept(relay, seconds) {
      relayAccept.observe({ relay }, seconds);
    },
    countRelayError(relay, reason) {
      relayErrors.inc({ relay, reason });
    },
    observeRequest(method, route, statusCode, seconds) {
      requests.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    countExecution(kind, status) {
      executions.inc({ kind, outcome: status });
    },
  };
}
