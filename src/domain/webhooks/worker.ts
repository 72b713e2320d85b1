/**
 * Webhook delivery: the fan-out turns each endpoint's new events into delivery rows (idempotent: one row per
 * endpoint and event), and the sender leases due rows in the database (like reconciliation), so several
 * processes never send one delivery at the same time and a killed process's rows are taken over when its
 * lease ends. Every attempt carries the same `webhook-id` and body, signed per Standard Webhooks (deliver.ts).
 */
import type { Store, WebhookRecord } from "../../store/index.js";
import { isoNoZone } from "../../store/index.js";
import { eventView } from "../events/query.js";
import { attemptDelivery, type AttemptDeps } from "./deliver.js";
import { nextAttemptAt, RETRY_DELAYS_MS } from "./schedule.js";
import { timeOrderedUuid } from "../../core/time-ordered-id.js";
import { utcTimestamp } from "../../core/timestamps.js";

/** The collaborators of the worker. */
export interface WebhookWorkerDeps extends AttemptDeps {
  /** This process's name in the lease column (new per start). */
  owner: string;
  /** Retry waits (tests shorten them). */
  delays?: readonly number[];
  /** Per-attempt timeout (default 10 s). */
  timeoutMs?: number;
  /** How long a claimed delivery's lease outlives its attempt's timeout (default 20 s). */
  leaseMarginMs?: number;
}

const FANOUT_BATCH = 500;
const SEND_BATCH = 64;

function matches(w: WebhookRecord, wallets: string[]): boolean {
  return w.wallets === null || wallets.some((x) => w.wallets!.includes(x));
}

/**
 * Turns every enabled endpoint's new events into pending deliveries; returns how many were queued. `enabled`:
 * the endpoints already listed by the caller in this pass (read here when absent).
 */
export async function fanOutOnce(deps: WebhookWorkerDeps, enabled?: WebhookRecord[]): Promise<number> {
  let queued = 0;
  const now = deps.clock();
  for (const w of enabled ?? (await deps.store.listEnabledWebhooks())) {
    let cursor = w.cursor;
    for (;;) {
      const last = (await deps.store.eventBounds(w.apiKeyId)).last;
      const rows = await deps.store.listEvents({
        apiKeyId: w.apiKeyId,
        after: cursor,
        limit: FANOUT_BATCH,
        ...(w.types[0] !== "*" ? { types: w.types } : {}),
      });
      const wanted = rows.filter((e) => matches(w, e.wallets));
      await deps.store.insertDeliveries(
        wanted.map((e) => ({
          // Time-ordered: a delivery row appends to the id index (issue 18).
          id: `dlv_${timeOrderedUuid()}`,
          webhookId: w.id,
          messageId: String(e.id),
          type: e.type,
          payload: JSON.stringify({ type: e.type, timestamp: utcTimestamp(e.createdAt), data: eventView(e) }),
          nextAttemptMs: now.getTime(),
        })),
        isoNoZone(now),
      );
      const next =
        rows.length === FANOUT_BATCH
          ? rows[rows.length - 1]!.id
          : Math.max(cursor, last, rows.at(-1)?.id ?? 0);
      if (next === cursor) break;
      // Another process advanced it meanwhile: its rows and ours are the same (unique per event); stop here.
      if (!(await deps.store.advanceWebhookCursor(w.id, cursor, next))) break;
      queued += wanted.length;
      cursor = next;
      if (rows.length < FANOUT_BATCH) break;
    }
  }
  return queued;
}

/** What one send pass did. */
export interface SendReport {
  attempted: number;
  delivered: number;
  failed: number;
}

/**
 * Leases the due deliveries and attempts each once. `enabled`: the endpoints already listed by the caller in
 * this pass (read here when absent); with none enabled nothing could be attempted, so nothing is leased.
 */
export async function sendDueOnce(deps: WebhookWorkerDeps, enabled?: WebhookRecord[]): Promise<SendReport> {
  const report: SendReport = { attempted: 0, delivered: 0, failed: 0 };
  if (enabled !== undefined && enabled.length === 0) return report;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const nowMs = deps.clock().getTime();
  // The lease outlives one attempt (timeout) with room to write the outcome.
  const lease = nowMs + timeoutMs + (deps.leaseMarginMs ?? 20_000);
  const due = await deps.store.claimDueDeliveries(deps.owner, nowMs, lease, SEND_BATCH);
  if (due.length === 0) return report;
  const webhooks = new Map((enabled ?? (await deps.store.listEnabledWebhooks())).map((w) => [w.id, w]));
  await Promise.all(
    due.map(async (d) => {
      const w = webhooks.get(d.webhookId);
      if (w === undefined) return;
      report.attempted += 1;
      const outcome = await attemptDelivery(deps, w, d, timeoutMs);
      const attempts = d.attempts + 1;
      const finishedAt = deps.clock();
      if (outcome.ok) report.delivered += 1;
      else report.failed += 1;
      const retryAt =
        outcome.ok || outcome.gone
          ? null
          : nextAttemptAt(finishedAt.getTime(), attempts, deps.delays ?? RETRY_DELAYS_MS);
      await deps.store.finishDelivery(
        d.id,
        deps.owner,
        {
          status: outcome.ok ? "delivered" : retryAt === null ? "failed" : "pending",
          attempts,
          nextAttemptMs: retryAt ?? finishedAt.getTime(),
          lastStatusCode: outcome.statusCode,
          lastError: outcome.error,
        },
        isoNoZone(finishedAt),
      );
      if (outcome.gone) await deps.store.disableWebhook(w.id, "the endpoint answered 410 Gone");
    }),
  );
  return report;
}

/** Runs fan-out and sending every `intervalMs` and on every event wake-up; returns the stop function. */
export function startWebhookWorker(
  deps: WebhookWorkerDeps & {
    store: Pick<Store, "onEventWake">;
    intervalMs?: number;
    onError?: (e: unknown) => void;
  },
): () => Promise<void> {
  let stopped = false;
  let again = false;
  let current: Promise<void> | undefined;
  const loop = async (): Promise<void> => {
    do {
      again = false;
      try {
        // One listing per pass: a pass runs on every event (each trade), and on a service without webhooks
        // it is then that one query and nothing else.
        // Further batches of the same pass list again (an endpoint may have been disabled by a 410 meanwhile).
        const enabled = await deps.store.listEnabledWebhooks();
        await fanOutOnce(deps, enabled);
        let full = !stopped && (await sendDueOnce(deps, enabled)).attempted === SEND_BATCH;
        while (full && !stopped) full = (await sendDueOnce(deps)).attempted === SEND_BATCH;
      } catch (e) {
        deps.onError?.(e);
      }
    } while (again && !stopped);
  };
  // One pass at a time; a wake-up during a pass asks for one more.
  const kick = (): void => {
    if (stopped) return;
    if (current !== undefined) {
      again = true;
      return;
    }
    current = loop().finally(() => (current = undefined));
  };
  const off = deps.store.onEventWake(() => kick());
  const timer = setInterval(kick, deps.intervalMs ?? 1_000);
  timer.unref();
  kick();
  return async () => {
    stopped = true;
    off();
    clearInterval(timer);
    await current;
  };
}
