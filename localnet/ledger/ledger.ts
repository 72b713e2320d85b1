/**
 * The localnet ledger: one LiteSVM instance (real System / Token / Token-2022 / ATA programs) plus
 * the slot clock, the blockhash queue, the emulated launch programs and an executor that applies a
 * client transaction wholly or not at all (a bundle: all of its transactions or none).
 */
import { randomBytes } from "node:crypto";
import { Clock, LiteSVM } from "litesvm";
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from "@solana/web3.js";
import type { VersionedTransaction } from "@solana/web3.js";
import type { AccountState, AdminLedger, EmulatedProgram, LedgerAccess } from "../programs/types.js";
import { ProgramFailure } from "../programs/types.js";
import { BlockhashQueue } from "./blockhash-queue.js";
import { readAccount, runInternal, sameAccount, writeAccount } from "./svm-accounts.js";
import { tokenBalances } from "./token-balances.js";
import type { TokenBalance } from "./token-balances.js";
import type { InstructionErrorJson, TransactionErrorJson } from "./tx-errors.js";
import {
  TransactionRejected,
  failedLogText,
  failureToInstructionError,
  instructionErrorToFailure,
  internalErrorToInstructionError,
  transactionErrorMessage,
} from "./tx-errors.js";
import type { SignatureStatus, TransactionRecord } from "./tx-store.js";
import { TransactionStore, statusOf } from "./tx-store.js";
import type { ResolvedInstruction, ResolvedMessage } from "./wire.js";
import {
  COMPUTE_BUDGET_PROGRAM_ID,
  ComputeBudgetError,
  Ed25519Verifier,
  decodeTransaction,
  lookupTableAddresses,
  parseComputeBudget,
  resolveMessage,
  transactionFee,
  transactionId,
  verifySignatures,
} from "./wire.js";

/** Nominal compute units an emulated program instruction consumes (reported, not enforced). */
export const EMULATED_INSTRUCTION_UNITS = 40_000n;
const COMPUTE_BUDGET_UNITS = 150n;
const SPONSOR_LAMPORTS = 1_000_000_000_000_000_000n;
const ADDRESS_LOOKUP_TABLE_PROGRAM_ID = "AddressLookupTab1e1111111111111111111111111";

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
  /** Executes without committing anything. Throws TransactionRejected only for undecodable or badly signed input. */
  simulateTransaction(wire: Uint8Array, opts?: SimulateOptions): SimulationResult;
  /** Applies every transaction in order, or none (no fees either) when one fails or is rejected. */
  processBundle(wires: Uint8Array[]): BundleOutcome;
  /** Advances the clock by n slots. */
  advanceSlots(n: number): void;
  /** Registers a listener called after every slot advance. */
  onSlot(listener: (slot: bigint) => void): void;
  slot(): bigint;
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint };
  isBlockhashValid(blockhash: string): boolean;
  getTransaction(signature: string): TransactionRecord | undefined;
  signatureStatus(signature: string): SignatureStatus | null;
  /** Sends lamports from the localnet faucet by a real, recorded transfer; returns its signature. */
  airdrop(to: PublicKey, lamports: bigint): string;
  /** Per-slot minimum CU price over the last 150 slots. */
  recentPrioritizationFees(): { slot: bigint; prioritizationFee: bigint }[];
  registerProgram(program: EmulatedProgram): void;
  /** The underlying LiteSVM (tests and genesis helpers only). */
  readonly svm: LiteSVM;
}

/** A failed instruction inside the executor. */
class InstructionFailure extends Error {
  constructor(readonly err: InstructionErrorJson) {
    super("instruction failed");
  }
}

/**
 * An instruction left an account below rent exemption: on mainnet a transaction-level
 * `InsufficientFundsForRent` naming the account, so it bypasses instruction-error handling.
 */
class RentFailure extends Error {
  constructor(readonly account: PublicKey) {
    super(`account ${account.toBase58()} would be left with insufficient funds for rent`);
  }
}

type Journal = Map<string, AccountState | null>;

/** The account index of LiteSVM's InsufficientFundsForRent error, or null for other errors. */
function rentAccountIndex(e: unknown): number | null {
  if (e !== null && typeof e === "object" && "accountIndex" in e && typeof e.accountIndex === "number") {
    return e.accountIndex;
  }
  return null;
}

/** Creates a ledger with genesis state: sysvars, built-in programs, a funded operator and faucet. */
export function createLedger(opts: LedgerOptions = {}): Ledger {
  return new LocalLedger(opts);
}

class LocalLedger implements Ledger {
  readonly svm: LiteSVM;
  readonly operator = Keypair.generate();
  private readonly faucet = Keypair.generate();
  private readonly sponsor = Keypair.generate();
  private readonly programs = new Map<string, EmulatedProgram>();
  private readonly queue: BlockhashQueue;
  private readonly store = new TransactionStore();
  private readonly journals: Journal[] = [];
  private readonly verifier = new Ed25519Verifier();
  private readonly slotListeners: ((slot: bigint) => void)[] = [];
  private readonly slotMs: bigint;
  private readonly genesisUnix: bigint;
  private readonly startSlot: bigint;

  constructor(opts: LedgerOptions) {
    this.svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false).withTransactionHistory(0n);
    this.slotMs = BigInt(opts.slotMs ?? 400);
    this.startSlot = opts.startSlot ?? 1n;
    this.genesisUnix = opts.genesisUnixTimestamp ?? BigInt(Math.floor(Date.now() / 1000));
    this.queue = new BlockhashQueue(randomBytes(16).toString("hex"), this.startSlot);
    for (const p of opts.programs ?? []) this.registerProgram(p);
    this.syncClock();
    this.setSystemAccount(this.sponsor.publicKey, SPONSOR_LAMPORTS);
    this.setSystemAccount(this.faucet.publicKey, SPONSOR_LAMPORTS);
    this.setSystemAccount(this.operator.publicKey, opts.operatorLamports ?? 1_000_000_000_000_000n);
  }

  registerProgram(program: EmulatedProgram): void {
    this.programs.set(program.programId.toBase58(), program);
  }

  // ---- clock ---------------------------------------------------------------------------------

  slot(): bigint {
    return this.queue.slot;
  }

  clock(): { slot: bigint; unixTimestamp: bigint } {
    const slot = this.queue.slot;
    return { slot, unixTimestamp: this.genesisUnix + ((slot - this.startSlot) * this.slotMs) / 1000n };
  }

  private syncClock(): void {
    const { slot, unixTimestamp } = this.clock();
    this.svm.setClock(
      new Clock(slot, this.genesisUnix, slot / 432_000n, slot / 432_000n + 1n, unixTimestamp),
    );
  }

  advanceSlots(n: number): void {
    for (let i = 0; i < n; i++) {
      this.queue.advance();
      this.syncClock();
      for (const l of this.slotListeners) l(this.queue.slot);
    }
  }

  onSlot(listener: (slot: bigint) => void): void {
    this.slotListeners.push(listener);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    return { blockhash: this.queue.latest(), lastValidBlockHeight: this.queue.lastValidBlockHeight() };
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.queue.isValid(blockhash);
  }

  // ---- accounts (LedgerAccess / AdminLedger) ------------------------------------------------------

  getAccount(pubkey: PublicKey): AccountState | null {
    return readAccount(this.svm, pubkey);
  }

  setAccount(pubkey: PublicKey, account: AccountState): void {
    this.touch(pubkey);
    writeAccount(this.svm, pubkey, account);
  }

  rentExemptMinimum(dataLen: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLen));
  }

  fund(pubkey: PublicKey, lamports: bigint): void {
    const acc = this.getAccount(pubkey);
    if (acc === null) this.setSystemAccount(pubkey, lamports);
    else this.setAccount(pubkey, { ...acc, lamports: acc.lamports + lamports });
  }

  private setSystemAccount(pubkey: PublicKey, lamports: bigint): void {
    this.setAccount(pubkey, {
      lamports,
      data: new Uint8Array(0),
      owner: SystemProgram.programId,
      executable: false,
    });
  }

  invoke(ix: TransactionInstruction): void {
    this.invokeAt(ix, [], 2);
  }

  execute(ixs: TransactionInstruction[]): void {
    const journal = this.begin();
    const logs: string[] = [];
    try {
      ixs.forEach((ix, index) => {
        try {
          this.runInstruction(this.toResolved(ix), logs, 1);
        } catch (e) {
          if (e instanceof InstructionFailure) {
            const err: TransactionErrorJson = { InstructionError: [index, e.err] };
            throw new Error(`admin transaction failed: ${transactionErrorMessage(err)}\n${logs.join("\n")}`);
          }
          if (e instanceof RentFailure) throw new Error(`admin transaction failed: ${e.message}`);
          throw e;
        }
      });
      this.commit(journal);
    } catch (e) {
      this.rollback(journal);
      throw e;
    }
  }

  // ---- journal -----------------------------------------------------------------------------------

  private touch(pubkey: PublicKey): void {
    if (this.journals.length === 0) return;
    const key = pubkey.toBase58();
    let pre: AccountState | null | undefined;
    for (const j of this.journals) {
      if (j.has(key)) continue;
      if (pre === undefined) pre = readAccount(this.svm, pubkey);
      j.set(key, pre);
    }
  }

  private begin(): Journal {
    const j: Journal = new Map();
    this.journals.push(j);
    return j;
  }

  private commit(j: Journal): void {
    const top = this.journals.pop();
    if (top !== j) throw new Error("journal stack out of order");
  }

  private rollback(j: Journal): void {
    this.commit(j);
    for (const [key, pre] of j) {
      const pubkey = new PublicKey(key);
      if (!sameAccount(readAccount(this.svm, pubkey), pre)) writeAccount(this.svm, pubkey, pre);
    }
  }

  // ---- instruction execution --------------------------------------------------------------------

  private toResolved(ix: TransactionInstruction): ResolvedInstruction {
    return { programId: ix.programId, accounts: ix.keys, data: new Uint8Array(ix.data) };
  }

  private invokeAt(ix: TransactionInstruction, logs: string[], depth: number): void {
    try {
      this.runInstruction(this.toResolved(ix), logs, depth);
    } catch (e) {
      if (e instanceof InstructionFailure) {
        throw instructionErrorToFailure(e.err, `invoked ${ix.programId.toBase58()} failed`);
      }
      throw e;
    }
  }

  /** Runs one instruction, appending its log lines; returns compute units; throws InstructionFailure. */
  private runInstruction(ix: ResolvedInstruction, logs: string[], depth: number): bigint {
    const id = ix.programId.toBase58();
    if (id === COMPUTE_BUDGET_PROGRAM_ID) {
      logs.push(`Program ${id} invoke [${depth}]`, `Program ${id} success`);
      return COMPUTE_BUDGET_UNITS;
    }
    const program = this.programs.get(id);
    if (program !== undefined) return this.runEmulated(program, ix, logs, depth);
    for (const a of ix.accounts) this.touch(a.pubkey);
    const run = runInternal(
      this.svm,
      this.sponsor.publicKey,
      new TransactionInstruction({ programId: ix.programId, keys: ix.accounts, data: Buffer.from(ix.data) }),
    );
    for (const line of run.logs) {
      logs.push(line.replace(/ invoke \[(\d+)\]$/, (_m, d: string) => ` invoke [${Number(d) + depth - 1}]`));
    }
    if (!run.ok) {
      const rentIndex = rentAccountIndex(run.error);
      if (rentIndex !== null && run.accountKeys[rentIndex] !== undefined) {
        throw new RentFailure(run.accountKeys[rentIndex]);
      }
      const err = internalErrorToInstructionError(run.error);
      if (run.logs.length === 0) logs.push(`Program ${id} failed: ${failedLogText(err)}`);
      throw new InstructionFailure(err);
    }
    return run.unitsConsumed;
  }

  private runEmulated(
    program: EmulatedProgram,
    ix: ResolvedInstruction,
    logs: string[],
    depth: number,
  ): bigint {
    const id = ix.programId.toBase58();
    logs.push(`Program ${id} invoke [${depth}]`);
    const access: LedgerAccess = {
      getAccount: (k) => this.getAccount(k),
      setAccount: (k, a) => this.setAccount(k, a),
      invoke: (inner) => this.invokeAt(inner, logs, depth + 1),
      rentExemptMinimum: (n) => this.rentExemptMinimum(n),
      clock: () => this.clock(),
    };
    let err: InstructionErrorJson | null = null;
    try {
      program.execute({
        programId: ix.programId,
        accounts: ix.accounts,
        data: ix.data,
        ledger: access,
        log: (line) => logs.push(line),
      });
    } catch (e) {
      if (e instanceof RentFailure) {
        logs.push(
          `Program ${id} consumed ${EMULATED_INSTRUCTION_UNITS} of 1400000 compute units`,
          `Program ${id} success`,
        );
        throw e;
      }
      if (e instanceof ProgramFailure) {
        // The emulation logs its own error lines (AnchorError ...), as the real program does.
        err = failureToInstructionError(e.code);
      } else {
        // A bug in an emulation must fail the transaction, not the server.
        logs.push(`Program log: panicked: ${(e as Error).message}`);
        err = "ProgramFailedToComplete";
      }
    }
    logs.push(`Program ${id} consumed ${EMULATED_INSTRUCTION_UNITS} of 1400000 compute units`);
    if (err !== null) {
      logs.push(`Program ${id} failed: ${failedLogText(err)}`);
      throw new InstructionFailure(err);
    }
    logs.push(`Program ${id} success`);
    return EMULATED_INSTRUCTION_UNITS;
  }

  // ---- client transactions ------------------------------------------------------------------------

  private loadTable(key: PublicKey): PublicKey[] | null {
    const acc = this.getAccount(key);
    if (acc === null || acc.owner.toBase58() !== ADDRESS_LOOKUP_TABLE_PROGRAM_ID) return null;
    return lookupTableAddresses(acc.data);
  }

  precheckTransaction(wire: Uint8Array): VersionedTransaction {
    const tx = decodeTransaction(wire);
    verifySignatures(tx, this.verifier);
    const signature = transactionId(tx);
    if (this.store.has(signature)) {
      throw new TransactionRejected("AlreadyProcessed", "This transaction has already been processed");
    }
    if (!this.queue.isValid(tx.message.recentBlockhash)) {
      throw new TransactionRejected("BlockhashNotFound", "Blockhash not found");
    }
    return tx;
  }

  processTransaction(wire: Uint8Array): TransactionRecord {
    const tx = this.precheckTransaction(wire);
    return this.executeClient(tx, wire);
  }

  /** Charges the fee, runs the instructions, rolls back on failure (keeping the fee), records. */
  private executeClient(tx: VersionedTransaction, wire: Uint8Array): TransactionRecord {
    const resolved = resolveMessage(tx, (k) => this.loadTable(k));
    const run = this.run(tx, resolved);
    const record: TransactionRecord = {
      signature: transactionId(tx),
      slot: this.queue.slot,
      blockTime: this.clock().unixTimestamp,
      err: run.err,
      logs: run.logs,
      fee: run.fee,
      preBalances: run.preBalances,
      postBalances: run.postBalances,
      preTokenBalances: run.preTokenBalances,
      postTokenBalances: run.postTokenBalances,
      unitsConsumed: run.unitsConsumed,
      wire,
      version: tx.version === "legacy" ? "legacy" : 0,
      loadedAddresses: {
        writable: resolved.loadedWritable.map((k) => k.toBase58()),
        readonly: resolved.loadedReadonly.map((k) => k.toBase58()),
      },
      unitPriceMicroLamports: run.unitPrice,
    };
    this.store.add(record);
    return record;
  }

  /** Lamports and token balances of `keys`, reading each account once. */
  private balancesOf(keys: PublicKey[]): { lamports: bigint[]; tokens: TokenBalance[] } {
    const cache = new Map<string, AccountState | null>();
    const read = (k: PublicKey) => {
      const key = k.toBase58();
      let acc = cache.get(key);
      if (acc === undefined) {
        acc = this.getAccount(k);
        cache.set(key, acc);
      }
      return acc;
    };
    return { lamports: keys.map((k) => read(k)?.lamports ?? 0n), tokens: tokenBalances(keys, read) };
  }

  private run(tx: VersionedTransaction, resolved: ResolvedMessage) {
    const keys = resolved.accountKeys;
    const pre = this.balancesOf(keys);
    let budget;
    try {
      budget = parseComputeBudget(resolved.instructions);
    } catch (e) {
      if (e instanceof ComputeBudgetError)
        throw new TransactionRejected(e.err, transactionErrorMessage(e.err));
      throw e;
    }
    const fee = transactionFee(tx.message.header.numRequiredSignatures, budget);
    const payer = keys[0]!;
    const payerAcc = this.getAccount(payer);
    if (payerAcc === null) {
      throw new TransactionRejected("AccountNotFound", transactionErrorMessage("AccountNotFound"));
    }
    if (payerAcc.lamports < fee) {
      throw new TransactionRejected(
        "InsufficientFundsForFee",
        transactionErrorMessage("InsufficientFundsForFee"),
      );
    }
    this.setAccount(payer, { ...payerAcc, lamports: payerAcc.lamports - fee });
    const journal = this.begin();
    const logs: string[] = [];
    let unitsConsumed = 0n;
    let err: TransactionErrorJson | null = null;
    for (let i = 0; i < resolved.instructions.length; i++) {
      try {
        unitsConsumed += this.runInstruction(resolved.instructions[i]!, logs, 1);
      } catch (e) {
        if (e instanceof RentFailure) {
          const index = keys.findIndex((k) => k.equals(e.account));
          err = { InsufficientFundsForRent: { account_index: index } };
          break;
        }
        if (!(e instanceof InstructionFailure)) {
          this.rollback(journal);
          throw e;
        }
        err = { InstructionError: [i, e.err] };
        break;
      }
    }
    if (err === null) this.commit(journal);
    else this.rollback(journal);
    const post = this.balancesOf(keys);
    return {
      err,
      logs,
      fee,
      unitsConsumed,
      preBalances: pre.lamports,
      preTokenBalances: pre.tokens,
      postBalances: post.lamports,
      postTokenBalances: post.tokens,
      unitPrice: budget.unitPriceMicroLamports,
    };
  }

  simulateTransaction(wire: Uint8Array, opts: SimulateOptions = {}): SimulationResult {
    const tx = decodeTransaction(wire);
    if (opts.sigVerify === true) verifySignatures(tx, this.verifier);
    const replacement = opts.replaceRecentBlockhash === true ? this.latestBlockhash() : null;
    const empty = (err: TransactionErrorJson): SimulationResult => ({
      err,
      logs: [],
      unitsConsumed: 0n,
      fee: 0n,
      preBalances: [],
      postBalances: [],
      accounts: null,
      replacementBlockhash: replacement,
    });
    if (replacement === null && !this.queue.isValid(tx.message.recentBlockhash))
      return empty("BlockhashNotFound");
    const outer = this.begin();
    try {
      const resolved = resolveMessage(tx, (k) => this.loadTable(k));
      const run = this.run(tx, resolved);
      const accounts =
        opts.accounts === undefined || run.err !== null
          ? null
          : opts.accounts.map((a) => this.getAccount(new PublicKey(a)));
      return {
        err: run.err,
        logs: run.logs,
        unitsConsumed: run.unitsConsumed,
        fee: run.fee,
        preBalances: run.preBalances,
        postBalances: run.postBalances,
        accounts: opts.accounts === undefined ? null : (accounts ?? opts.accounts.map(() => null)),
        replacementBlockhash: replacement,
      };
    } catch (e) {
      if (e instanceof TransactionRejected) return empty(e.err);
      throw e;
    } finally {
      this.rollback(outer);
    }
  }

  processBundle(wires: Uint8Array[]): BundleOutcome {
    const outer = this.begin();
    const records: TransactionRecord[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < wires.length; i++) {
      let record: TransactionRecord;
      try {
        const tx = this.precheckTransaction(wires[i]!);
        const sig = transactionId(tx);
        if (seen.has(sig))
          throw new TransactionRejected("AlreadyProcessed", "duplicate transaction in bundle");
        seen.add(sig);
        record = this.executeClient(tx, wires[i]!);
      } catch (e) {
        if (!(e instanceof TransactionRejected)) {
          this.rollbackBundle(outer, records);
          throw e;
        }
        this.rollbackBundle(outer, records);
        return { landed: false, failedIndex: i, err: e.err, message: e.message };
      }
      records.push(record);
      if (record.err !== null) {
        this.rollbackBundle(outer, records);
        return {
          landed: false,
          failedIndex: i,
          err: record.err,
          message: transactionErrorMessage(record.err),
        };
      }
    }
    this.commit(outer);
    return { landed: true, slot: this.queue.slot, records };
  }

  private rollbackBundle(outer: Journal, records: TransactionRecord[]): void {
    this.rollback(outer);
    for (const r of records) this.store.remove(r.signature);
  }

  // ---- queries ------------------------------------------------------------------------------------

  getTransaction(signature: string): TransactionRecord | undefined {
    return this.store.get(signature);
  }

  signatureStatus(signature: string): SignatureStatus | null {
    const r = this.store.get(signature);
    return r === undefined ? null : statusOf(r, this.queue.slot);
  }

  airdrop(to: PublicKey, lamports: bigint): string {
    const tx = new Transaction({
      feePayer: this.faucet.publicKey,
      blockhash: this.queue.latest(),
      lastValidBlockHeight: Number(this.queue.lastValidBlockHeight()),
    }).add(SystemProgram.transfer({ fromPubkey: this.faucet.publicKey, toPubkey: to, lamports }));
    tx.sign(this.faucet);
    const record = this.processTransaction(tx.serialize());
    if (record.err !== null) throw new Error(`airdrop failed: ${transactionErrorMessage(record.err)}`);
    return record.signature;
  }

  recentPrioritizationFees(): { slot: bigint; prioritizationFee: bigint }[] {
    const to = this.queue.slot;
    const from = to > 150n ? to - 150n : 0n;
    const fees = this.store.priorityFees(from, to);
    const out: { slot: bigint; prioritizationFee: bigint }[] = [];
    for (let s = from + 1n; s <= to; s++) out.push({ slot: s, prioritizationFee: fees.get(s) ?? 0n });
    return out;
  }
}
