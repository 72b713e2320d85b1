/** Settings of the orders (limit, take-profit, stop-loss, trailing stop, bracket). */
import { int } from "./parse.js";

/** The orders part of the configuration. */
export interface OrderSettings {
  /** MAX_OPEN_ORDERS_PER_KEY (default 1000): open or triggered orders one API key may hold (409 beyond). */
  readonly maxOpenPerKey: number;
  /** ORDERS_LEASE_MS (default 120000): how long a fired order's claim lasts before another process may settle it. */
  readonly leaseMs: number;
  /** ORDERS_SYNC_MS (default 1000): how often each process polls the store for other processes' order changes. */
  readonly syncMs: number;
}

/** Parses the order variables (each in docs/configuration.md). */
export function loadOrderSettings(env: NodeJS.ProcessEnv): OrderSettings {
  return Object.freeze({
    maxOpenPerKey: int(env, "MAX_OPEN_ORDERS_PER_KEY", 1000, 1, 1_000_000),
    leaseMs: int(env, "ORDERS_LEASE_MS", 120_000, 100, 3_600_000),
    syncMs: int(env, "ORDERS_SYNC_MS", 1000, 10, 60_000),
  });
}
