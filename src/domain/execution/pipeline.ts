/**
 * The execution pipeline every execution endpoint shares (architecture.md, "Execution pipeline").
 *
 * Usage. A single-transaction endpoint (trade, create, claim, consolidate per source, transfer, split)
 * selects its wallet, reads and validates, builds its instructions, then calls
 * `runSingleExecution({ deps, apiKeyId, kind, wallet, request, build, simulate, confirm,
 * simulationFailedDetail })`: `build(payer)` returns `{ instructions, extraSigners?, computeKind }` (the payer
 * is the wallet's keypair, decrypted only while `build` and the signing run; a create returns its mint
 * keypair in `extraSigners`). The pipeline signs (`chain.assemble`), inserts the execution record as
 * `pending` with its signature BEFORE anything is sent, submits (simulate → relay → confirm), updates the
 * record (confirmed / submitted / timeout / failed, with the program error and logs) and returns
 * `{ executionId, signature, confirmed, confirmationStatus, timings }`; errors come back as ApiErrors or
 * ChainErrors the HTTP layer answers (`answerOf`: 400 simulation failed, 502 with the upstream detail and the
 * signature). Several
 * transactions (claims, consolidate) call it once each. A bundle uses the lower-level parts: `signWith`
 * per leg, `recordPending` once with every leg's signature and wallet, then `submitBundleRecorded`.
 * Routes get the chain with `requireChain(deps.chain)` (503 when the app was built without one).
 */
import type { ChainTransaction } from "../../chain/chain.js";
import type { SubmitBundleResult, SubmitResult } from "../../chain/submit.js";
import type { ExecutionStatus } from "../../store/index.js";
import { extend } from "../../core/extend.js";
import { describeTransaction } from "./dry-run.js";
import { answerOf, failureOutcome } from "./failure.js";
import { readFill, readLegFills, type FillRequest } from "./fill.js";
import type { Fill } from "../../chain/fills.js";
import { recordOutcome, recordPending } from "./records.js";
import { signWith } from "./sign.js";
import type { ExecutionDeps, SingleExecutionInput, SingleExecutionResult } from "./types.js";

const defaultNow = (): number => performance.now();
// Without a reporter, a failed outcome write is dropped: the submission's own result or error matters more.
const ignore = (): void => undefined;
/** Whole milliseconds from `a` to `b` (never negative), as the timings report them. */
export const ms = (a: number, b: number): number => Math.max(0, Math.round(b - a));

/**
 * Names the execution record in an error's body (issue 22: every execution answer carries `execution_id`),
 * in place so a SubmissionError keeps its class for the callers that look at it.
 */
function withExecutionId(e: unknown, executionId: string): unknown {
  const answer = answerOf(e);
  if (answer !== undefined) Object.assign(answer.extra, { execution_id: executionId });
  return e;
}

/** Status of a submission that returned normally. */
function successStatus(confirm: boolean, result: { confirmed: boolean }): ExecutionStatus {
  if (!confirm) return "submitted";
  return result.confirmed ? "confirmed" : "timeout";
}

/**
 * Issue 30: the `submitted` status (and its `execution.submitted` event, written by the store's trigger) as soon
 * as the relay accepted the send, while confirmation runs. Only when confirming: without confirmation the
 * outcome written right after the send is `submitted` already. `settled()` waits for the write, so the final
 * status is always written after it.
 */
function submittedMark(
  deps: Pick<ExecutionDeps, "store" | "onRecordError">,
  executionId: string,
  confirm: boolean,
): { onSent?: () => void; settled: () => Promise<void> } {
  if (!confirm) return { settled: () => Promise.resolve() };
  let written: Promise<unknown> | undefined;
  return {
    onSent: () => {
      written = deps.store
        .updateExecution(executionId, { status: "submitted" })
        .catch(deps.onRecordError ?? ignore);
    },
    settled: async () => {
      await written;
    },
  };
}

/**
 * Runs `send` with the submitted mark (submittedMark) and, when it throws, records the failure on the record and
 * rethrows it carrying the execution id; the mark's write is always settled before the caller writes the outcome.
 */
async function sendMarked<F extends { confirm: boolean }, R>(
  deps: Pick<ExecutionDeps, "store" | "onRecordError">,
  executionId: string,
  flags: F,
  send: (flags: F & { onSent?: () => void }) => Promise<R>,
): Promise<R> {
  const mark = submittedMark(deps, executionId, flags.confirm);
  let result: R;
  try {
    result = await send(mark.onSent !== undefined ? { ...flags, onSent: mark.onSent } : flags);
  } catch (e) {
    await mark.settled();
    await recordOutcome(deps.store, executionId, failureOutcome(e)).catch(deps.onRecordError ?? ignore);
    throw withExecutionId(e, executionId);
  }
  await mark.settled();
  return result;
}

/**
 * Submits a recorded transaction (simulate? → relay → confirm?) and writes the outcome onto the record;
 * rethrows submission errors after recording them. Returns the submission and the database time it took.
 */
export async function submitRecorded(
  deps: Pick<ExecutionDeps, "store" | "chain" | "now" | "onRecordError" | "dryRun">,
  executionId: string,
  tx: ChainTransaction,
  flags: { simulate: boolean; confirm: boolean; simulationFailedDetail: string },
  details?: Record<string, unknown>,
  fillRequest?: FillRequest,
): Promise<{ result: SubmitResult; databaseMs: number; fill?: Fill | null }> {
  const now = deps.now ?? defaultNow;
  if (deps.dryRun !== undefined) {
    // Simulated whatever `flags.simulate` says: the simulation is what a dry run is for.
    const simulation = await deps.dryRun.simulate(tx.wire);
    deps.dryRun.transactions.push(describeTransaction(tx, null, details, simulation));
    const result = { signature: tx.signature, confirmed: false, confirmationStatus: null };
    return { result: { ...result, timingMs: { sender: 0, confirmation: 0 } }, databaseMs: 0 };
  }
  const result = await sendMarked(deps, executionId, flags, (f) => deps.chain.submit(tx, f));
  const fill =
    fillRequest !== undefined && result.confirmed
      ? await readFill(deps.chain, result.signature, fillRequest)
      : undefined;
  const t0 = now();
  // Once sent, the caller must get its signature even if the database hiccups: the record keeps "pending"
  // with the signature, which is enough to reconcile it later.
  await recordOutcome(deps.store, executionId, {
    status: successStatus(flags.confirm, result),
    confirmationStatus: result.confirmationStatus,
    // extend, not `{ ...details, ... }`: a literal opening with a spread is slow on Node 20 (core/extend.ts).
    response: extend(details, {
      signature: result.signature,
      confirmed: result.confirmed,
      confirmation_status: result.confirmationStatus,
      ...(fill !== undefined ? { fill } : {}),
    }),
    timings: result.timingMs,
  }).catch(deps.onRecordError ?? ignore);
  return { result, databaseMs: ms(t0, now()), ...(fill !== undefined ? { fill } : {}) };
}

/**
 * One transaction signed by one managed wallet: sign (key decrypted just in time) → record pending with the
 * signature → simulate? → send → confirm? → record the outcome. Errors are recorded, then rethrown.
 */
export async function runSingleExecution(input: SingleExecutionInput): Promise<SingleExecutionResult> {
  const { deps } = input;
  const now = deps.now ?? defaultNow;
  const t0 = now();
  const tx = await signWith(deps, input.wallet, input.build);
  const t1 = now();
  const executionId = await recordPending(
    deps.store,
    {
      apiKeyId: input.apiKeyId,
      kind: input.kind,
      wallet: input.wallet.publicKey,
      signatures: [tx.signature],
      request: input.request,
      lastValidBlockHeight: tx.lastValidBlockHeight,
      computeUnitPriceMicroLamports: tx.computeUnitPriceMicroLamports,
    },
    deps.dryRun,
    deps.spendGuard,
  );
  const t2 = now();
  const { result, databaseMs, fill } = await submitRecorded(
    deps,
    executionId,
    tx,
    {
      simulate: input.simulate,
      confirm: input.confirm,
      simulationFailedDetail: input.simulationFailedDetail,
    },
    input.details,
    input.fill,
  );
  return {
    ...(fill !== undefined ? { fill } : {}),
    executionId,
    signature: result.signature,
    confirmed: result.confirmed,
    confirmationStatus: result.confirmationStatus,
    timings: {
      build: ms(t0, t1),
      sender: result.timingMs.sender,
      confirmation: result.timingMs.confirmation,
      database: ms(t1, t2) + databaseMs,
    },
  };
}

/**
 * Sends a recorded bundle (the legs signed with `signWith`, recorded once with `recordPending` carrying every
 * signature) and stores its id and outcome; rethrows relay and confirmation errors after recording them.
 */
export async function submitBundleRecorded(
  deps: Pick<ExecutionDeps, "store" | "chain" | "onRecordError" | "dryRun">,
  executionId: string,
  txs: ChainTransaction[],
  flags: { confirm: boolean },
  details?: Record<string, unknown>,
  fillRequests?: readonly (FillRequest | null)[],
): Promise<SubmitBundleResult> {
  if (deps.dryRun !== undefined) {
    // Each leg alone: a leg that needs an earlier one (a buy of the mint the create leg makes) fails here
    // although the relay, which lands the legs in order, would accept it.
    for (const [leg, tx] of txs.entries()) {
      const simulation = await deps.dryRun.simulate(tx.wire);
      deps.dryRun.transactions.push(
        describeTransaction(tx, leg, leg === 0 ? details : undefined, simulation),
      );
    }
    return { bundleId: "", confirmed: false, confirmationStatus: null };
  }
  const result = await sendMarked(deps, executionId, flags, (f) => deps.chain.submitBundle(txs, f));
  const fills =
    result.confirmed && fillRequests !== undefined
      ? await readLegFills(
          deps.chain,
          txs.map((t) => t.signature),
          fillRequests,
        )
      : [];
  await recordOutcome(deps.store, executionId, {
    status: flags.confirm ? (result.confirmed ? "confirmed" : "timeout") : "submitted",
    confirmationStatus: result.confirmationStatus,
    bundleId: result.bundleId,
    response: extend(details, {
      bundle_id: result.bundleId,
      signatures: txs.map((t) => t.signature),
      confirmed: result.confirmed,
      confirmation_status: result.confirmationStatus,
      ...(fills.length > 0 ? { fills } : {}),
    }),
  }).catch(deps.onRecordError ?? ignore);
  return result;
}
