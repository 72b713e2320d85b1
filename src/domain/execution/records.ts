import { randomUUID } from "node:crypto";
import type { ExecutionPatch, Store } from "../../store/index.js";
import type { ExecutionOutcome, PendingExecution } from "./types.js";

/** Inserts the execution as pending with its signatures (call BEFORE sending); returns its id. */
export async function recordPending(
  store: Pick<Store, "insertExecution">,
  e: PendingExecution,
): Promise<string> {
  const id = randomUUID();
  await store.insertExecution({
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
  });
  return id;
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
