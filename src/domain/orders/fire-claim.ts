/**
 * The engine's side of a fire's claim (fire.ts RecordClaim): the claim its execution record commits with, what
 * an unexpected error leaves of a fire, what a refused or failed fire writes on its order, and how a standing
 * order's (snipe, copy) fire record is settled. Pure but for the store reads of the error and reconcile paths.
 */
import type { OrderRecord, Store } from "../../store/index.js";
import type { BookOrder } from "./book.js";
import { orderAttemptKey, type FireOutcome, type RecordClaim } from "./fire.js";
import { FIRE_REASONS } from "./texts.js";

/**
 * The claim of `o` (open at its version → triggered by `trigger`, leased to `deps.owner` from the commit on), on
 * the condition that what the fire decided on (`live`: its keys and wallet) still holds at that commit.
 */
export function recordClaim(
  o: BookOrder,
  trigger: string,
  deps: { owner: string; clock: () => Date; leaseMs: number },
  onClaimed: (order: OrderRecord) => void,
): RecordClaim {
  return {
    transition: (live) => ({
      id: o.id,
      from: "open",
      version: o.version,
      to: "triggered",
      claim: { owner: deps.owner, leaseUntilMs: deps.clock().getTime() + deps.leaseMs, live },
      triggeredBy: trigger,
    }),
    onClaimed,
  };
}

/**
 * A fire that threw (not a refusal, not the chain's answer): if its claimed attempt recorded an execution it may
 * have been sent, so the order follows that record; with none, or no claim, nothing was sent and it failed.
 */
export async function outcomeOfError(
  store: Pick<Store, "findExecutionIdByKey">,
  e: unknown,
  claimed: OrderRecord | undefined,
): Promise<FireOutcome> {
  if (claimed === undefined) return thrownFailure(e);
  return outcomeOfKeyedError(store, e, claimed.accountId, orderAttemptKey(claimed.id, claimed.attempt));
}

function thrownFailure(e: unknown): FireOutcome {
  const detail = e instanceof Error ? e.message : String(e);
  return { kind: "failed", detail, status: 500, executionId: null, extra: {} };
}

/**
 * A standing order's fire (snipe, copy) that threw: it follows the execution recorded under its Idempotency-Key
 * `key` if there is one (it may have been sent), else nothing was sent and it failed with the error's message.
 */
export async function outcomeOfKeyedError(
  store: Pick<Store, "findExecutionIdByKey">,
  e: unknown,
  accountId: number,
  key: string,
): Promise<FireOutcome> {
  const executionId = await store.findExecutionIdByKey(accountId, key).catch(() => undefined);
  return executionId !== undefined ? { kind: "pending", executionId } : thrownFailure(e);
}

const MAX_REASON_CHARS = 500;

/**
 * How a standing order's fire record stores `outcome`: the execution and its state when one was recorded, else
 * `refused:<rule>`, `failed:<reason>` (the rule the error names, else its detail) or `dropped:claim_lost`.
 */
export function fireRecordOf(outcome: FireOutcome): { executionId: string | null; outcome: string } {
  if (outcome.kind === "refused") return { executionId: null, outcome: `refused:${outcome.refusal.rule}` };
  if (outcome.kind === "lost") return { executionId: null, outcome: `dropped:${FIRE_REASONS.claimLost}` };
  if (outcome.kind !== "failed" || outcome.executionId !== null)
    return { executionId: outcome.executionId, outcome: outcome.kind };
  const rule = outcome.extra.rule;
  // Bounded: an upstream's detail (an RPC's own words) is stored on every fire that fails with it.
  const reason = (typeof rule === "string" ? rule : outcome.detail).slice(0, MAX_REASON_CHARS);
  return { executionId: null, outcome: `failed:${reason}` };
}

/**
 * How the reconciliation settles a standing order's claim left unsettled by its process: from the execution
 * recorded under its Idempotency-Key `key` (written before any send: never sent again), else
 * `dropped:process_ended` (nothing was recorded, so nothing was sent).
 */
export async function reconciledFire(
  store: Pick<Store, "findExecutionIdByKey" | "findExecution">,
  accountId: number,
  key: string,
): Promise<{ executionId: string | null; outcome: string }> {
  const executionId = (await store.findExecutionIdByKey(accountId, key)) ?? null;
  if (executionId === null) return { executionId, outcome: `dropped:${FIRE_REASONS.processEnded}` };
  const status = (await store.findExecution(accountId, executionId))?.status;
  const outcome =
    status === "confirmed" || status === "finalized"
      ? "filled"
      : status === "failed" || status === "expired"
        ? "failed"
        : "pending";
  return { executionId, outcome };
}

/** The order's error, the activity's status and rule of a refused or failed fire; null for any other outcome. */
export function failureOf(
  outcome: FireOutcome,
): { error: unknown; status: number; rule: string | null } | null {
  if (outcome.kind === "refused") return { error: outcome.refusal, status: 403, rule: outcome.refusal.rule };
  if (outcome.kind !== "failed") return null;
  return {
    error: { detail: outcome.detail, status: outcome.status, ...outcome.extra },
    status: outcome.status,
    rule: typeof outcome.extra.rule === "string" ? outcome.extra.rule : null,
  };
}
