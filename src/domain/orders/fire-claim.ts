/**
 * The engine's side of a fire's claim (fire.ts RecordClaim): the claim its execution record commits with, what
 * an unexpected error leaves of a fire, and what a refused or failed fire writes on its order. Pure but for
 * the one store read of `outcomeOfError`.
 */
import type { OrderRecord, Store } from "../../store/index.js";
import type { BookOrder } from "./book.js";
import { orderAttemptKey, type FireOutcome, type RecordClaim } from "./fire.js";

/** The claim of `o` (open at its version → triggered by `trigger`, leased to `deps.owner` from the commit on). */
export function recordClaim(
  o: BookOrder,
  trigger: string,
  deps: { owner: string; clock: () => Date; leaseMs: number },
  onClaimed: (order: OrderRecord) => void,
): RecordClaim {
  return {
    transition: () => ({
      id: o.id,
      from: "open",
      version: o.version,
      to: "triggered",
      claim: { owner: deps.owner, leaseUntilMs: deps.clock().getTime() + deps.leaseMs },
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
  const failed = {
    kind: "failed",
    detail: (e as Error).message,
    status: 500,
    executionId: null,
    extra: {},
  } as const;
  if (claimed === undefined) return failed;
  const executionId = await store
    .findExecutionIdByKey(claimed.accountId, orderAttemptKey(claimed.id, claimed.attempt))
    .catch(() => undefined);
  return executionId !== undefined ? { kind: "pending", executionId } : failed;
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
