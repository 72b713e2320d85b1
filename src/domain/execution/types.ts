/** The shapes the execution pipeline works with: what a transaction is built from, the collaborators, results. */
import { type Venue } from "../../core/venues.js";
import type { Keypair, TransactionInstruction } from "@solana/web3.js";
import type { Chain, ChainAssembleInput, OperationKind } from "../../chain/chain.js";
import type { ExecutionKind, ExecutionStatus, NewExecution, Store } from "../../store/index.js";
import type { SubmitResult } from "../../chain/submit.js";
import type { SealedWallet, Vault } from "../../vault/index.js";
import type { DryRun } from "./dry-run.js";
import type { Fill } from "../../chain/fills.js";
import type { FillRequest } from "./fill.js";
import type { SpendableTransaction, WorstCaseSpend } from "./worst-case-spend.js";

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
  chain: Pick<Chain, "assemble" | "submit" | "submitBundle"> & Partial<Pick<Chain, "rpc" | "relayTip">>;
  vault: Pick<Vault, "withKeypair">;
  /** Monotonic milliseconds for timings; default performance.now. */
  now?: () => number;
  /** Told when an outcome could not be written (the record then stays pending with its signature). */
  onRecordError?: (e: unknown) => void;
  /** Set on a dry run: the pipeline checks, simulates and describes instead of recording and sending. */
  dryRun?: DryRun;
  /** Issue 29: the request key's checks on what is about to be signed; absent outside a keyed request. */
  spendGuard?: SpendGuard;
}

/**
 * Issue 29 (findings 4 and 12): what the request's key decides between the build and the signature. The
 * pipeline calls `beforeSign` before it decrypts the wallet, `inspect` on each compiled transaction before
 * signing it, and `signed` with its signature (the record's spend reservation reads the figure from there).
 */
export interface SpendGuard {
  /** Throws when the key or its account was frozen, revoked or expired since the request was admitted. */
  beforeSign(): Promise<void>;
  /** The transaction's worst case, or a throw refusing it (per-execution cap); absent: the key has no cap. */
  inspect?: (tx: SpendableTransaction) => WorstCaseSpend;
  /** Binds a signed transaction's signature to the worst case `inspect` returned for it. */
  signed(signature: string, spend: WorstCaseSpend): void;
  /**
   * Issue 30: the policy step at record time, before the insert (throws a refusal: priority fee, unbounded
   * spend); the insert then reserves what it decided, atomically.
   */
  beforeRecord(e: NewExecution): Promise<void>;
  /** The refusal of an insert the store refused at a cap, or the error itself. */
  refusalOf(err: unknown): unknown;
  /** A dry run's record-time verdict on a would-be record, nothing reserved. */
  verdict(e: NewExecution): Promise<{ rule: string; detail: string } | null>;
}

/**
 * Issue 19: told the venue an execution trades on once it is routed, before anything is signed; throws to
 * refuse (the key's `venues` policy). Absent: nothing to check.
 */
export type VenueCheck = (venue: Venue) => void;

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
  /** Issue 22: once confirmed, read what moved for this wallet and mint (response and record `fill`). */
  fill?: FillRequest;
}

/** What a single execution observed. */
export interface SingleExecutionResult {
  executionId: string;
  signature: string;
  confirmed: boolean;
  /** Null when confirm was false (or nothing was observed before the wait ended). */
  confirmationStatus: SubmitResult["confirmationStatus"];
  timings: ExecutionTimings;
  /** What moved, when `fill` was asked and the transaction confirmed; null if it could not be read. */
  fill?: Fill | null;
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
