/** The service process's background upkeep: reconciliation of open executions and expiry of idempotency keys. */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Chain } from "../chain/chain.js";
import type { Config } from "../config/config.js";
import { IDEMPOTENCY_TTL_MS } from "../domain/execution/idempotency.js";
import { eventsRetentionCutoff } from "../domain/events/retention.js";
import { startMaintenance } from "./maintenance-loop.js";
import { reconcileOnce } from "../domain/reconcile/reconcile.js";
import type { Store } from "../store/index.js";

/** How often keys are purged when reconciliation is off. */
const PURGE_ONLY_INTERVAL_MS = 3_600_000;

/** Starts the upkeep (first pass now); returns the stop function, which waits for a running pass. */
export function startServiceMaintenance(deps: {
  config: Pick<Config, "reconcileIntervalMs" | "reconcileGraceMs"> &
    Partial<Pick<Config, "eventsRetentionDays" | "reconcileFirstLookMs">>;
  store: Store;
  chain: Pick<Chain, "rpc">;
  logger: FastifyBaseLogger;
  clock?: () => Date;
}): () => Promise<void> {
  const { config, store, logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  // This process's name in the lease column; a new one per start, so a restarted process never trusts a
  // lease its previous life held.
  const owner = randomUUID();
  const onError = (task: string, e: unknown): void =>
    logger.warn({ task, err: { message: (e as Error).message } }, "maintenance task failed");
  // RECONCILE_INTERVAL_MS=0 turns reconciliation off, not the expiry of idempotency keys.
  const reconciling = config.reconcileIntervalMs > 0;
  const stopPurge = startMaintenance(
    [
      {
        name: "idempotency-purge",
        run: () => store.purgeIdempotencyKeys(clock().getTime() - IDEMPOTENCY_TTL_MS),
      },
      // Issue 20: events older than EVENTS_RETENTION_DAYS leave the outbox (a stream cursor older gets `gap`).
      {
        name: "events-purge",
        run: () => store.purgeEvents(eventsRetentionCutoff(clock(), config.eventsRetentionDays ?? 7)),
      },
    ],
    { intervalMs: reconciling ? config.reconcileIntervalMs : PURGE_ONLY_INTERVAL_MS, onError },
  );
  if (!reconciling) return stopPurge;
  // Issue 22: a sent execution gets its first look within seconds, so the pass runs that often; a pass with
  // nothing due is one indexed query. Unsettled records back off up to the interval (reconcile-rules.ts).
  const firstLookMs = Math.min(
    config.reconcileFirstLookMs ?? config.reconcileIntervalMs,
    config.reconcileIntervalMs,
  );
  const stopReconcile = startMaintenance(
    [
      {
        name: "reconcile",
        run: async () => {
          const report = await reconcileOnce({
            store,
            rpc: deps.chain.rpc,
            fills: deps.chain,
            owner,
            clock,
            graceMs: config.reconcileGraceMs,
            firstLookMs,
            maxLookSpacingMs: config.reconcileIntervalMs,
            // Long enough for one pass; a process that dies mid-pass frees its records after it.
            leaseMs: Math.max(2 * config.reconcileIntervalMs, 10_000),
          });
          if (report.examined > 0) logger.info({ reconcile: report }, "reconciled open executions");
        },
      },
    ],
    { intervalMs: firstLookMs, onError },
  );
  return async () => {
    await Promise.all([stopReconcile(), stopPurge()]);
  };
}
