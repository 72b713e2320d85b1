/** Types of the in-process ledger's surface. */
import type { LiteSVM } from "litesvm";
import type { PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { AccountState, AdminLedger, EmulatedProgram } from "../programs/types.js";
import type { DecodedWire } from "./decoded-wires.js";
import type { TransactionErrorJson } from "./tx-errors.js";
import type { SignaturePage, SignatureStatus, TransactionRecord } from "./tx-store.js";

/** Options of createLedger. */
export interface LedgerOptions {
  /** Emulated programs dispatched by program id. */
  programs?: EmulatedProgram[];
  /** Slot length used for the clock's unix timestamp (the ledger itself never sleeps). Default 400. */
  slotMs?: number;
  /** First slot. Default 1. */
  startSlot?: bigint;
  /** Unix timestamp (s) of the first slot. Default now. */
  genesisUnixTimestamp?: bigint;
  /** Lamports of the operator wallet at genesis. Default 1,000,000 SOL. */
  operatorLamports?: bigint;
}

/** simulateTransaction options (as the RPC's). */
export interface SimulateOptions {
  sigVerify?: boolean;
  replaceRecentBlockhash?: boolean;
  /** Addresses whose post-simulation state to return. */
  accounts?: string[];
}

/** A simulation's outcome (err null = success). */
export interface SimulationResult {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  accounts: (AccountState | null)[] | null;
  replacementBlockhash: { blockhash: string; lastValidBlockHeight: bigint } | null;
}

/** A bundle's outcome: all landed, or none (failedIndex/err say which transaction failed and why). */
export type BundleOutcome =
  | { landed: true; slot: bigint; records: TransactionRecord[] }
  | { landed: false; failedIndex: number; err: TransactionErrorJson; message: string };

/** The in-process ledger. */
export interface Ledger extends AdminLedger {
  /** Verifies, executes and records a client transaction; throws TransactionRejected when it cannot land. */
  processTransaction(wire: Uint8Array): TransactionRecord;
  /** Checks signatures, blockhash and duplicates without executing; returns the decoded transaction. */
  precheckTransaction(wire: Uint8Array): VersionedTransaction;
  /** Decodes without any check (the decoding is kept for the wire's later pre-check and execution). */
  decodeClientTransaction(wire: Uint8Array): DecodedWire;
  /** Decodes and verifies the signatures, once per wire; throws TransactionRejected when they do not verify. */
  verifyClientTransaction(wire: Uint8Array): DecodedWire;
  /** Executes without committing anything. Throws TransactionRejected only for undecodable or badly signed input. */
  simulateTransaction(wire: Uint8Array, opts?: SimulateOptions): SimulationResult;
  /** Applies every transaction in order, or none (no fees either) when one fails or is rejected. */
  processBundle(wires: Uint8Array[]): BundleOutcome;
  /** Advances the clock by n slots. */
  advanceSlots(n: number): void;
  /** Registers a listener called after every slot advance. */
  onSlot(listener: (slot: bigint) => void): void;
  /** Registers a listener told of every account about to be written (the write may still be rolled back). */
  onAccountTouched(listener: (pubkey: PublicKey) => void): void;
  /** Registers a listener called for every transaction that lands (alone or in a landed bundle), failed ones included. */
  onTransaction(listener: (record: TransactionRecord) => void): void;
  slot(): bigint;
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint };
  isBlockhashValid(blockhash: string): boolean;
  getTransaction(signature: string): TransactionRecord | undefined;
  signatureStatus(signature: string): SignatureStatus | null;
  /** getSignaturesForAddress: landed signatures mentioning `address` at `minStatus` or above, newest first. */
  signaturesForAddress(
    address: string,
    page: SignaturePage,
    minStatus: "processed" | "confirmed" | "finalized",
  ): { record: TransactionRecord; status: SignatureStatus }[];
  /** Sends lamports from the localnet faucet by a real, recorded transfer; returns its signature. */
  airdrop(to: PublicKey, lamports: bigint): string;
  /** Per-slot minimum CU price over the last 150 slots. */
  recentPrioritizationFees(accounts?: readonly string[]): { slot: bigint; prioritizationFee: bigint }[];
  registerProgram(program: EmulatedProgram): void;
  /** Every account owned by `program`. */
  programAccounts(program: PublicKey): { pubkey: PublicKey; account: AccountState }[];
  /** The underlying LiteSVM (tests and genesis helpers only). */
  readonly svm: LiteSVM;
}
