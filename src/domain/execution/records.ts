import { timeOrderedUuid } from "../../core/time-ordered-id.js";
import type { ExecutionPatch, NewExecution, Store } from "../../store/index.js";
import type { ExecutionOutcome, PendingExecution, SpendGuard } from "./types.js";
import { DRY_RUN_EXECUTION_ID, type DryRun } from "./dry-run.js";

/**
 * Inserts the execution as pending with its signatures (call BEFORE sending); returns its id. The request key's
 * record-time policy step runs first (`guard`, issue 30). On a dry run nothing is written: the key's policy gives
 * its verdict on the would-be record instead.
 */
export async function recordPending(
  store: Pick<Store, "insertExecution">,
  e: PendingExecution,
  dryRun?: DryRun,
  guard?: SpendGuard,
): Promise<string> {
  // Time-ordered: the record's id appends to the id indexes instead of landing on a random page (issue 18).
  const record = newExecution(timeOrderedUuid(), e);
  if (dryRun !== undefined) {
    dryRun.requests.push(e.request);
    dryRun.verdict ??= guard === undefined ? null : await guard.verdict(record);
    return DRY_RUN_EXECUTION_ID;
  }
  // Issue 30: the policy step, explicit, before the insert; the insert reserves what it decided, atomically.
  if (guard !== undefined) await guard.beforeRecord(record);
  try {
    await store.insertExecution(record);
  } catch (err) {
    throw guard === undefined ? err : guard.refusalOf(err);
  }
  return record.id;
}

function newExecution(id: string, e: PendingExecution): NewExecution {
  return {
    id,
    apiKeyId: e.apiKeyId,
    kind: e.kind,
    wallet: e.wallet,
    wallets: e.wallets ?? [e.wallet],
    signatures: e.signatures,
    bundleId: e.bundleId ?? null,
    status: "pending",
    confirmationStatus: null,
    request: e.request,
    response: null,
    error: null,
    timings: null,
    lastValidBlockHeight: e.lastValidBlockHeight,
    computeUnitPriceMicroLamports: e.computeUnitPriceMicroLamports ?? null,
  };
}

/** Writes the outcome of a submission onto its record. */
export async function recordOutcome(
  store: Pick<Store, "updateExecution">,
  id: string,
  outcome: ExecutionOutcome,
): Promise<void> {
  const patch: ExecutionPatch = {
    status: outcome.status,
    confirmationStatus: outcome.confirmationStatus,
  };
  if (outcome.response !== undefined) patch.response = outcome.response;
  if (outcome.error !== undefined) patch.error = outcome.error;
  if (outcome.timings !== undefined) patch.timings = outcome.timings;
  if (outcome.bundleId !== undefined) patch.bundleId = outcome.bundleId;
  await store.updateExecution(id, patch);
}
