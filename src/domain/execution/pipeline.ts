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
 * `{ executionId, signature, confirmed, confirmationStatus, timings }`; errors come back as ApiErrors the
 * HTTP layer maps (400 simulation failed, 502 with the upstream detail and the signature). Several
 * transactions (claims, consolidate) call it once each. A bundle uses the lower-level parts: `signWith`
 * per leg, `recordPending` once with every leg's signature and wallet, then `submitBundleRecorded`.
 * Routes get the chain with `requireChain(deps.chain)` (503 when the app was built without one).
 */
import { randomUUID } from "node:crypto";
import type { Keypair, TransactionInstruction } from "@solana/web3.js";
import type { ChainCaches } from "../../chain/caches.js";
import type { Chain, ChainAssembleInput, ChainTransaction, OperationKind } from "../../chain/chain.js";
import type { SubmitBundleResult, SubmitResult } from "../../chain/submit.js";
import { SubmissionError } from "../../chain/submit.js";
import { TransactionTooLargeError } from "../../chain/tx-assembly.js";
import type { ExecutionKind, ExecutionPatch, ExecutionStatus, Store } from "../../store/index.js";
import type { SealedWallet } from "../../vault/index.js";
import type { Vault } from "../../vault/index.js";
import { ApiError, EXECUTION, SPEC } from "../../core/errors.js";

/** What one transaction of an execution is made of; the pipeline adds compute budget, tip and signatures. */
export interface BuiltTransaction {
  instructions: TransactionInstruction[];
  /** Signers besides the wallet (e.g. a create's new mint keypair). */
  extraSigners?: Keypair[];
  /** Which configured compute-unit limit applies. */
  computeKind: OperationKind;
  /** Default: the submission relay's tip. Bundle legs pass "none" or the bundle tip. */
  tip?: ChainAssembleInput["tip"];
  /** Default "v0" with the configured lookup tables. */
  version?: ChainAssembleInput["version"];
  /** Default: the cached priority fee. A caller that priced a reserve at a fee pins that fee here. */
  computeUnitPriceMicroLamports?: bigint;
  /** Accounts the transaction writes whose recent fees price it in auto mode (a trade's curve or pool). */
  feeAccounts?: ChainAssembleInput["feeAccounts"];
}

/** Builds the instructions once the payer's keypair is available (it is valid only during the call). */
export type TransactionBuilder = (payer: Keypair) => BuiltTransaction | Promise<BuiltTransaction>;

/** The narrow collaborators the pipeline uses. */
export interface ExecutionDeps {
  store: Pick<Store, "insertExecution" | "updateExecution">;
  chain: Pick<Chain, "assemble" | "submit" | "submitBundle">;
  vault: Pick<Vault, "withKeypair">;
  /** Monotonic milliseconds for timings; default performance.now. */
  now?: () => number;
  /** Told when an outcome could not be written (the record then stays pending with its signature). */
  onRecordError?: (e: unknown) => void;
}

/** Milliseconds per pipeline stage (integers). */
export interface ExecutionTimings {
  build: number;
  sender: number;
  confirmation: number;
  database: number;
}

/** Inputs of `runSingleExecution`. */
export interface SingleExecutionInput {
  deps: ExecutionDeps;
  apiKeyId: number;
  kind: ExecutionKind;
  /** The signing and paying wallet (already selected and checked against the key). */
  wallet: SealedWallet;
  /** Request summary stored with the record; must never hold a secret. */
  request: unknown;
  build: TransactionBuilder;
  simulate: boolean;
  confirm: boolean;
  /** The spec's 400 text for a failed simulation of this endpoint (e.g. SPEC.trade.simulationFailed). */
  simulationFailedDetail: string;
  /** Stored as the record's response, merged with signature and confirmation fields. */
  details?: Record<string, unknown>;
}

/** What a single execution observed. */
export interface SingleExecutionResult {
  executionId: string;
  signature: string;
  confirmed: boolean;
  /** Null when confirm was false (or nothing was observed before the wait ended). */
  confirmationStatus: SubmitResult["confirmationStatus"];
  timings: ExecutionTimings;
}

/** Inputs of `recordPending`. */
export interface PendingExecution {
  apiKeyId: number;
  kind: ExecutionKind;
  /** Primary signer: deleting this wallet deletes the record. */
  wallet: string;
  /** Every signing wallet (default: [wallet]). */
  wallets?: string[];
  signatures: string[];
  bundleId?: string | null;
  request: unknown;
  /** Block height after which none of the signatures can land (reconciliation marks the record expired). */
  lastValidBlockHeight: number;
  /** The compute-unit price the transaction(s) carry (the highest, for a bundle). */
  computeUnitPriceMicroLamports?: bigint;
}

/** A submission outcome as stored. */
export interface ExecutionOutcome {
  status: ExecutionStatus;
  confirmationStatus: string | null;
  response?: unknown;
  error?: unknown;
  timings?: unknown;
  bundleId?: string | null;
}

const defaultNow = (): number => performance.now();
// Without a reporter, a failed outcome write is dropped: the submission's own result or error matters more.
const ignore = (): void => undefined;
/** Whole milliseconds from `a` to `b` (never negative), as the timings report them. */
export const ms = (a: number, b: number): number => Math.max(0, Math.round(b - a));

/**
 * The chain of an app, or 503: when the app was built without one (tests of non-chain routes), or while its
 * caches have not loaded yet (the RPC was unreachable at start-up and the process keeps retrying).
 */
export function requireChain<C>(chain: C | undefined): C {
  if (chain === undefined) throw new ApiError(503, EXECUTION.chainUnavailable);
  // Callers hold narrower slices of Chain; the readiness check applies when the slice carries the caches.
  const caches = (chain as { caches?: Partial<Pick<ChainCaches, "blockhash">> }).caches;
  if (caches?.blockhash !== undefined) {
    try {
      caches.blockhash();
    } catch {
      throw new ApiError(503, EXECUTION.chainNotReady);
    }
  }
  return chain;
}

/**
 * Decrypts the wallet's key for one call of `build` plus signing and returns the signed transaction;
 * the secret is zeroed before this resolves. A transaction over 1232 bytes is a 400.
 */
export async function signWith(
  deps: Pick<ExecutionDeps, "vault"> & { chain: Pick<Chain, "assemble"> },
  wallet: SealedWallet,
  build: TransactionBuilder,
): Promise<ChainTransaction> {
  return deps.vault.withKeypair(wallet, async (payer) => {
    const built = await build(payer);
    try {
      return deps.chain.assemble({
        kind: built.computeKind,
        payer,
        instructions: built.instructions,
        ...(built.extraSigners !== undefined ? { extraSigners: built.extraSigners } : {}),
        ...(built.tip !== undefined ? { tip: built.tip } : {}),
        ...(built.version !== undefined ? { version: built.version } : {}),
        ...(built.computeUnitPriceMicroLamports !== undefined
          ? { computeUnitPriceMicroLamports: built.computeUnitPriceMicroLamports }
          : {}),
        ...(built.feeAccounts !== undefined ? { feeAccounts: built.feeAccounts } : {}),
      });
    } catch (e) {
      if (e instanceof TransactionTooLargeError) {
        throw new ApiError(400, EXECUTION.transactionTooLargePrefix + e.message);
      }
      throw e;
    }
  });
}

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

/**
 * How a failed submission is stored: refused before sending, or landed with an error → failed; a bundle
 * that timed out → timeout; anything that may have been sent without a verdict stays submitted, with the
 * error, so the signature can be checked later.
 */
export function failureOutcome(e: unknown): ExecutionOutcome {
  if (e instanceof SubmissionError) {
    const confirmationStatus =
      typeof e.extra.confirmation_status === "string" ? e.extra.confirmation_status : null;
    const error = { status: e.status, detail: e.detail, ...e.extra };
    let status: ExecutionStatus;
    if (!e.maybeSent || e.landedWithError || e.detail === SPEC.bundle.failed) status = "failed";
    else if (e.detail === SPEC.bundle.timedOut) status = "timeout";
    else status = "submitted";
    const bundleId = typeof e.extra.bundle_id === "string" ? e.extra.bundle_id : undefined;
    return { status, confirmationStatus, error, ...(bundleId !== undefined ? { bundleId } : {}) };
  }
  if (e instanceof ApiError) {
    return {
      status: "failed",
      confirmationStatus: null,
      error: { status: e.status, detail: e.detail, ...e.extra },
    };
  }
  // An unexpected error may have come after the send: the outcome is unknown, so it stays pending.
  return {
    status: "pending",
    confirmationStatus: null,
    error: { detail: "internal error; outcome unknown" },
  };
}

/** Status of a submission that returned normally. */
function successStatus(confirm: boolean, result: { confirmed: boolean }): ExecutionStatus {
  if (!confirm) return "submitted";
  return result.confirmed ? "confirmed" : "timeout";
}

/**
 * Submits a recorded transaction (simulate? → relay → confirm?) and writes the outcome onto the record;
 * rethrows submission errors after recording them. Returns the submission and the database time it took.
 */
export async function submitRecorded(
  deps: Pick<ExecutionDeps, "store" | "chain" | "now" | "onRecordError">,
  executionId: string,
  tx: ChainTransaction,
  flags: { simulate: boolean; confirm: boolean; simulationFailedDetail: string },
  details?: Record<string, unknown>,
): Promise<{ result: SubmitResult; databaseMs: number }> {
  const now = deps.now ?? defaultNow;
  let result: SubmitResult;
  try {
    result = await deps.chain.submit(tx, flags);
  } catch (e) {
    await recordOutcome(deps.store, executionId, failureOutcome(e)).catch(deps.onRecordError ?? ignore);
    throw e;
  }
  const t0 = now();
  // Once sent, the caller must get its signature even if the database hiccups: the record keeps "pending"
  // with the signature, which is enough to reconcile it later.
  await recordOutcome(deps.store, executionId, {
    status: successStatus(flags.confirm, result),
    confirmationStatus: result.confirmationStatus,
    response: {
      ...details,
      signature: result.signature,
      confirmed: result.confirmed,
      confirmation_status: result.confirmationStatus,
    },
    timings: result.timingMs,
  }).catch(deps.onRecordError ?? ignore);
  return { result, databaseMs: ms(t0, now()) };
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
  const executionId = await recordPending(deps.store, {
    apiKeyId: input.apiKeyId,
    kind: input.kind,
    wallet: input.wallet.publicKey,
    signatures: [tx.signature],
    request: input.request,
    lastValidBlockHeight: tx.lastValidBlockHeight,
    computeUnitPriceMicroLamports: tx.computeUnitPriceMicroLamports,
  });
  const t2 = now();
  const { result, databaseMs } = await submitRecorded(
    deps,
    executionId,
    tx,
    {
      simulate: input.simulate,
      confirm: input.confirm,
      simulationFailedDetail: input.simulationFailedDetail,
    },
    input.details,
  );
  return {
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
  deps: Pick<ExecutionDeps, "store" | "chain" | "onRecordError">,
  executionId: string,
  txs: ChainTransaction[],
  flags: { confirm: boolean },
  details?: Record<string, unknown>,
): Promise<SubmitBundleResult> {
  let result: SubmitBundleResult;
  try {
    result = await deps.chain.submitBundle(txs, flags);
  } catch (e) {
    await recordOutcome(deps.store, executionId, failureOutcome(e)).catch(deps.onRecordError ?? ignore);
    throw e;
  }
  await recordOutcome(deps.store, executionId, {
    status: flags.confirm ? (result.confirmed ? "confirmed" : "timeout") : "submitted",
    confirmationStatus: result.confirmationStatus,
    bundleId: result.bundleId,
    response: {
      ...details,
      bundle_id: result.bundleId,
      signatures: txs.map((t) => t.signature),
      confirmed: result.confirmed,
      confirmation_status: result.confirmationStatus,
    },
  }).catch(deps.onRecordError ?? ignore);
  return result;
}

/** Told of each outcome `recordOutcome` wrote: the execution's kind and stored status, nothing else. */
export type OutcomeObserver = (kind: ExecutionKind, status: ExecutionStatus) => void;

/**
 * The store with every outcome write (an `updateExecution` carrying a status, which only `recordOutcome`
 * makes) reported to `observe` — the metrics hook. The store is the one collaborator every execution path
 * hands to this pipeline unchanged, so wrapping it once in the app reaches them all. An outcome whose write
 * failed is not reported (its kind is unknown here); an observer that throws is ignored.
 */
export function observeOutcomes<S extends Pick<Store, "updateExecution">>(
  store: S,
  observe: OutcomeObserver,
): S {
  // Object.create keeps every other method (own or inherited) of the wrapped store reachable unchanged.
  const wrapped = Object.create(store) as S;
  wrapped.updateExecution = async (id, patch) => {
    const record = await store.updateExecution(id, patch);
    if (record !== undefined && patch.status !== undefined) {
      try {
        observe(record.kind, record.status);
      } catch {
        // metrics must never fail an execution
      }
    }
    return record;
  };
  return wrapped;
}
