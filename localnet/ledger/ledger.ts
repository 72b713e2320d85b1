/**
 * The localnet ledger: one LiteSVM instance (real System / Token / Token-2022 / ATA programs) plus
 * the slot clock, the blockhash queue, the emulated launch programs and an executor that applies a
 * client transaction wholly or not at all (a bundle: all of its transactions or none).
 */
import { randomBytes } from "node:crypto";
import { address } from "@solana/kit";
import { LiteSVM } from "litesvm";
import { Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import type { TransactionInstruction, VersionedTransaction } from "@solana/web3.js";
import type { AccountState, EmulatedProgram } from "../programs/types.js";
import { BlockhashQueue } from "./blockhash-queue.js";
import { ClientTransactions } from "./client-transactions.js";
import type { DecodedWire } from "./decoded-wires.js";
import { InstructionFailure, InstructionRunner, RentFailure, toResolved } from "./instruction-runner.js";
import type { Journal } from "./journal.js";
import { AccountJournal } from "./journal.js";
import type {
  BundleOutcome,
  Ledger,
  LedgerOptions,
  SimulateOptions,
  SimulationResult,
} from "./ledger-types.js";
import { SlotSysvars } from "./slot-sysvars.js";
import { readAccount, writeAccount } from "./svm-accounts.js";
import type { TransactionErrorJson } from "./tx-errors.js";
import { transactionErrorMessage } from "./tx-errors.js";
import type { SignaturePage, SignatureStatus, TransactionRecord } from "./tx-store.js";
import { TransactionStore, statusOf } from "./tx-store.js";

export type {
  BundleOutcome,
  Ledger,
  LedgerOptions,
  SimulateOptions,
  SimulationResult,
} from "./ledger-types.js";
export { EMULATED_INSTRUCTION_UNITS } from "./instruction-runner.js";

const SPONSOR_LAMPORTS = 1_000_000_000_000_000_000n;

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
  private readonly journal: AccountJournal;
  private readonly runner: InstructionRunner;
  private readonly slotListeners: ((slot: bigint) => void)[] = [];
  private readonly txListeners: ((record: TransactionRecord) => void)[] = [];
  private readonly slotMs: bigint;
  private readonly genesisUnix: bigint;
  private readonly startSlot: bigint;
  private readonly sysvars: SlotSysvars;
  private readonly transactions: ClientTransactions;

  constructor(opts: LedgerOptions) {
    this.svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false).withTransactionHistory(0n);
    this.journal = new AccountJournal(this.svm);
    this.runner = new InstructionRunner({
      svm: this.svm,
      sponsor: this.sponsor.publicKey,
      programs: this.programs,
      journal: this.journal,
      access: {
        getAccount: (k) => this.getAccount(k),
        setAccount: (k, a) => this.setAccount(k, a),
        rentExemptMinimum: (n) => this.rentExemptMinimum(n),
        clock: () => this.clock(),
      },
    });
    this.slotMs = BigInt(opts.slotMs ?? 400);
    this.startSlot = opts.startSlot ?? 1n;
    this.genesisUnix = opts.genesisUnixTimestamp ?? BigInt(Math.floor(Date.now() / 1000));
    this.queue = new BlockhashQueue(randomBytes(16).toString("hex"), this.startSlot);
    for (const p of opts.programs ?? []) this.registerProgram(p);
    this.sysvars = new SlotSysvars(
      this.svm,
      { clock: () => this.clock(), hashAt: (slot) => this.queue.hashAt(slot) },
      this.genesisUnix,
    );
    this.transactions = new ClientTransactions({
      queue: this.queue,
      store: this.store,
      journal: this.journal,
      runner: this.runner,
      sysvars: this.sysvars,
      getAccount: (k) => this.getAccount(k),
      setAccount: (k, a) => this.setAccount(k, a),
      clock: () => this.clock(),
      latestBlockhash: () => this.latestBlockhash(),
      landed: (records) => this.landed(records),
    });
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

  advanceSlots(n: number): void {
    // A new blockhash for LiteSVM's System program too: a nonce advanced in this slot can advance again later
    // (AdvanceNonceAccount refuses to store the same durable nonce twice).
    if (n > 0) this.svm.expireBlockhash();
    for (let i = 0; i < n; i++) {
      this.queue.advance();
      this.sysvars.markStale();
      for (const l of this.slotListeners) l(this.queue.slot);
    }
  }

  onSlot(listener: (slot: bigint) => void): void {
    this.slotListeners.push(listener);
  }

  onAccountTouched(listener: (pubkey: PublicKey) => void): void {
    this.journal.onTouch(listener);
  }

  onTransaction(listener: (record: TransactionRecord) => void): void {
    this.txListeners.push(listener);
  }

  private landed(records: TransactionRecord[]): void {
    for (const r of records) for (const l of this.txListeners) l(r);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    return { blockhash: this.queue.latest(), lastValidBlockHeight: this.queue.lastValidBlockHeight() };
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.queue.isValid(blockhash);
  }

  // ---- accounts (LedgerAccess / AdminLedger) ------------------------------------------------------

  programAccounts(program: PublicKey): { pubkey: PublicKey; account: AccountState }[] {
    return this.svm.getProgramAccounts(address(program.toBase58())).map((a) => ({
      pubkey: new PublicKey(a.address),
      account: {
        lamports: a.lamports,
        data: new Uint8Array(a.data),
        owner: new PublicKey(a.programAddress),
        executable: a.executable,
      },
    }));
  }

  getAccount(pubkey: PublicKey): AccountState | null {
    this.sysvars.sync();
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
    this.runner.invokeAt(ix, [], 2);
  }

  execute(ixs: TransactionInstruction[]): void {
    this.sysvars.sync();
    const journal = this.begin();
    const logs: string[] = [];
    try {
      ixs.forEach((ix, index) => {
        try {
          this.runner.run(toResolved(ix), logs, 1);
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

  submit(ixs: TransactionInstruction[]): { signature: string; logs: string[] } {
    const tx = new Transaction({ feePayer: this.operator.publicKey, ...this.latestBlockhashNumbers() });
    tx.add(...ixs).sign(this.operator);
    const record = this.processTransaction(tx.serialize());
    if (record.err !== null)
      throw new Error(
        `operator transaction failed: ${JSON.stringify(record.err)}\n${record.logs.join("\n")}`,
      );
    return { signature: record.signature, logs: record.logs };
  }

  private latestBlockhashNumbers(): { blockhash: string; lastValidBlockHeight: number } {
    const { blockhash, lastValidBlockHeight } = this.latestBlockhash();
    return { blockhash, lastValidBlockHeight: Number(lastValidBlockHeight) };
  }

  private touch(pubkey: PublicKey): void {
    this.journal.touch(pubkey);
  }

  private begin(): Journal {
    return this.journal.begin();
  }

  private commit(j: Journal): void {
    this.journal.commit(j);
  }

  private rollback(j: Journal): void {
    this.journal.rollback(j);
  }

  // ---- client transactions (client-transactions.ts) ------------------------------------------------

  precheckTransaction(wire: Uint8Array): VersionedTransaction {
    return this.transactions.precheckTransaction(wire);
  }

  decodeClientTransaction(wire: Uint8Array): DecodedWire {
    return this.transactions.decode(wire);
  }

  verifyClientTransaction(wire: Uint8Array): DecodedWire {
    return this.transactions.verify(wire);
  }

  processTransaction(wire: Uint8Array): TransactionRecord {
    return this.transactions.processTransaction(wire);
  }

  simulateTransaction(wire: Uint8Array, opts: SimulateOptions = {}): SimulationResult {
    return this.transactions.simulateTransaction(wire, opts);
  }

  processBundle(wires: Uint8Array[]): BundleOutcome {
    return this.transactions.processBundle(wires);
  }

  // ---- queries ------------------------------------------------------------------------------------

  getTransaction(signature: string): TransactionRecord | undefined {
    return this.store.get(signature);
  }

  /** getSignaturesForAddress: landed signatures mentioning `address`, newest first, with their status. */
  signaturesForAddress(
    address: string,
    page: SignaturePage,
    minStatus: "processed" | "confirmed" | "finalized",
  ): { record: TransactionRecord; status: SignatureStatus }[] {
    const rank = { processed: 0, confirmed: 1, finalized: 2 } as const;
    const statusAt = (r: TransactionRecord) => statusOf(r, this.queue.slot);
    return this.store
      .signaturesFor(address, page, (r) => rank[statusAt(r).confirmationStatus] >= rank[minStatus])
      .map((record) => ({ record, status: statusAt(record) }));
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

  /** The last 150 slots' fees; with `accounts`, the fee to lock all of them writable (getRecentPrioritizationFees). */
  recentPrioritizationFees(accounts?: readonly string[]): { slot: bigint; prioritizationFee: bigint }[] {
    const to = this.queue.slot;
    const from = to > 150n ? to - 150n : 0n;
    const fees =
      accounts !== undefined && accounts.length > 0
        ? this.store.accountPriorityFees(from, to, accounts)
        : this.store.priorityFees(from, to);
    const out: { slot: bigint; prioritizationFee: bigint }[] = [];
    for (let s = from + 1n; s <= to; s++) out.push({ slot: s, prioritizationFee: fees.get(s) ?? 0n });
    return out;
  }
}
