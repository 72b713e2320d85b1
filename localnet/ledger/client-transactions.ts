/**
 * Client transactions on the localnet ledger: the pre-checks (signatures, duplicates, blockhash), the fee,
 * running the instructions wholly or not at all, the record, simulation, and bundles (all or none).
 */
import { PublicKey } from "@solana/web3.js";
import type { VersionedTransaction } from "@solana/web3.js";
import type { AccountState } from "../programs/types.js";
import type { BlockhashQueue } from "./blockhash-queue.js";
import { InstructionFailure, RentFailure, type InstructionRunner } from "./instruction-runner.js";
import type { AccountJournal, Journal } from "./journal.js";
import type { BundleOutcome, SimulateOptions, SimulationResult } from "./ledger-types.js";
import type { SlotSysvars } from "./slot-sysvars.js";
import { tokenBalances } from "./token-balances.js";
import type { TokenBalance } from "./token-balances.js";
import type { TransactionErrorJson } from "./tx-errors.js";
import { TransactionRejected, transactionErrorMessage } from "./tx-errors.js";
import type { TransactionRecord, TransactionStore } from "./tx-store.js";
import type { ResolvedMessage } from "./wire.js";
import { DecodedWires, type DecodedWire } from "./decoded-wires.js";
import { durableNonceValid } from "./durable-nonce.js";
import {
  ComputeBudgetError,
  lookupTableAddresses,
  parseComputeBudget,
  resolveMessage,
  transactionFee,
  transactionId,
  verifySignatures,
} from "./wire.js";

const ADDRESS_LOOKUP_TABLE_PROGRAM_ID = "AddressLookupTab1e1111111111111111111111111";

/** What client transactions need of the ledger: its slot queue, record store, journal, runner, sysvars and accounts. */
export interface LedgerParts {
  readonly queue: BlockhashQueue;
  readonly store: TransactionStore;
  readonly journal: AccountJournal;
  readonly runner: InstructionRunner;
  readonly sysvars: SlotSysvars;
  getAccount(pubkey: PublicKey): AccountState | null;
  setAccount(pubkey: PublicKey, account: AccountState): void;
  clock(): { slot: bigint; unixTimestamp: bigint };
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint };
  /** Tells the ledger's transaction listeners about records that landed. */
  landed(records: TransactionRecord[]): void;
}

/** Processes, simulates and bundles client transactions against the ledger's parts. */
export class ClientTransactions {
  private readonly wires = new DecodedWires();
  private readonly queue: BlockhashQueue;
  private readonly store: TransactionStore;
  private readonly runner: InstructionRunner;
  private readonly sysvars: SlotSysvars;

  constructor(private readonly ledger: LedgerParts) {
    this.queue = ledger.queue;
    this.store = ledger.store;
    this.runner = ledger.runner;
    this.sysvars = ledger.sysvars;
  }

  private getAccount(pubkey: PublicKey): AccountState | null {
    return this.ledger.getAccount(pubkey);
  }

  private setAccount(pubkey: PublicKey, account: AccountState): void {
    this.ledger.setAccount(pubkey, account);
  }

  private clock(): { slot: bigint; unixTimestamp: bigint } {
    return this.ledger.clock();
  }

  private latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    return this.ledger.latestBlockhash();
  }

  private landed(records: TransactionRecord[]): void {
    this.ledger.landed(records);
  }

  private begin(): Journal {
    return this.ledger.journal.begin();
  }

  private commit(j: Journal): void {
    this.ledger.journal.commit(j);
  }

  private rollback(j: Journal): void {
    this.ledger.journal.rollback(j);
  }

  private loadTable(key: PublicKey): PublicKey[] | null {
    const acc = this.getAccount(key);
    if (acc === null || acc.owner.toBase58() !== ADDRESS_LOOKUP_TABLE_PROGRAM_ID) return null;
    return lookupTableAddresses(acc.data);
  }

  /** The decoding of `wire` (kept per wire object: see decoded-wires.ts). */
  decode(wire: Uint8Array): DecodedWire {
    return this.wires.decode(wire);
  }

  /** Verifies the signatures of `wire` once (a success is kept with its decoding); throws as verifySignatures. */
  verify(wire: Uint8Array): DecodedWire {
    const decoded = this.wires.decode(wire);
    if (!decoded.verified) {
      verifySignatures(decoded.tx, wire);
      decoded.verified = true;
    }
    return decoded;
  }

  /** A recent blockhash, or the durable nonce the transaction advances first (durable-nonce.ts). */
  private blockhashUsable(tx: VersionedTransaction): boolean {
    return this.queue.isValid(tx.message.recentBlockhash) || durableNonceValid(tx, (k) => this.getAccount(k));
  }

  precheckTransaction(wire: Uint8Array): VersionedTransaction {
    const decoded = this.verify(wire);
    const tx = decoded.tx;
    if (this.store.has(decoded.id)) {
      throw new TransactionRejected("AlreadyProcessed", "This transaction has already been processed");
    }
    if (!this.blockhashUsable(tx)) {
      throw new TransactionRejected("BlockhashNotFound", "Blockhash not found");
    }
    return tx;
  }

  processTransaction(wire: Uint8Array): TransactionRecord {
    const tx = this.precheckTransaction(wire);
    const record = this.executeClient(tx, wire);
    this.landed([record]);
    return record;
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
      writableAccounts: [
        ...tx.message.staticAccountKeys
          .filter((_, i) => tx.message.isAccountWritable(i))
          .map((k) => k.toBase58()),
        ...resolved.loadedWritable.map((k) => k.toBase58()),
      ],
    };
    this.store.add(record);
    // Landed: nothing decodes this wire again except a resend, which the store refuses.
    this.wires.forget(wire);
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
    this.sysvars.sync();
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
        unitsConsumed += this.runner.run(resolved.instructions[i]!, logs, 1);
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
    const decoded = opts.sigVerify === true ? this.verify(wire) : this.wires.decode(wire);
    const tx = decoded.tx;
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
    if (replacement === null && !this.blockhashUsable(tx)) return empty("BlockhashNotFound");
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
    this.landed(records);
    return { landed: true, slot: this.queue.slot, records };
  }

  private rollbackBundle(outer: Journal, records: TransactionRecord[]): void {
    this.rollback(outer);
    for (const r of records) this.store.remove(r.signature);
  }
}
