/** Landed transactions (signature → record) and the confirmation model derived from the slot. */
import { VersionedTransaction } from "@solana/web3.js";
import type { TokenBalance } from "./token-balances.js";
import type { TransactionErrorJson } from "./tx-errors.js";

/** Slots after which a landed transaction counts as finalized (rooted). */
export const FINALIZED_AFTER_SLOTS = 32n;

/** Everything the RPC reports about a landed transaction. */
export interface TransactionRecord {
  signature: string;
  slot: bigint;
  blockTime: bigint;
  err: TransactionErrorJson | null;
  logs: string[];
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  unitsConsumed: bigint;
  /** The client's wire bytes. */
  wire: Uint8Array;
  version: "legacy" | 0;
  loadedAddresses: { writable: string[]; readonly: string[] };
  unitPriceMicroLamports: bigint;
  /** Accounts the transaction locked writable (static and loaded), for per-account prioritization fees. */
  writableAccounts?: string[];
}

/** A signature status as getSignatureStatuses returns it. */
export interface SignatureStatus {
  slot: bigint;
  confirmations: bigint | null;
  err: TransactionErrorJson | null;
  confirmationStatus: "processed" | "confirmed" | "finalized";
}

/** processed in its own slot, confirmed one slot later, finalized 32 slots later. */
export function statusOf(record: TransactionRecord, currentSlot: bigint): SignatureStatus {
  const age = currentSlot - record.slot;
  if (age >= FINALIZED_AFTER_SLOTS) {
    return { slot: record.slot, confirmations: null, err: record.err, confirmationStatus: "finalized" };
  }
  return {
    slot: record.slot,
    confirmations: age,
    err: record.err,
    confirmationStatus: age >= 1n ? "confirmed" : "processed",
  };
}

/** Every account key a landed transaction loaded (static keys and lookup-table keys). */
export function accountKeysOf(r: TransactionRecord): Set<string> {
  const keys = new Set<string>(r.loadedAddresses.writable);
  for (const k of r.loadedAddresses.readonly) keys.add(k);
  try {
    for (const k of VersionedTransaction.deserialize(r.wire).message.staticAccountKeys)
      keys.add(k.toBase58());
  } catch {
    // Internal records (e.g. built by the operator) always decode; a bad wire mentions nothing.
  }
  return keys;
}

/** Paging of getSignaturesForAddress. */
export interface SignaturePage {
  /** At most this many (newest first). */
  limit: number;
  /** Start after this signature (exclusive). */
  before?: string;
  /** Stop at this signature (exclusive). */
  until?: string;
}

/** The store of landed transactions. */
export class TransactionStore {
  private readonly records = new Map<string, TransactionRecord>();
  /** Signatures in landing order; the address index below covers `landed[0 .. indexed)`. */
  private readonly landed: string[] = [];
  private indexed = 0;
  /** address → signatures that mention it, oldest first (built on the first query, so landing pays nothing). */
  private readonly byAddress = new Map<string, string[]>();
  private readonly minPriceBySlot = new Map<bigint, bigint>();
  /** account → slot → lowest CU price of a landed transaction that locked it writable (last 150 slots kept). */
  private readonly minPriceByAccount = new Map<string, Map<bigint, bigint>>();

  /** Whether a signature already landed. */
  has(signature: string): boolean {
    return this.records.has(signature);
  }

  get(signature: string): TransactionRecord | undefined {
    return this.records.get(signature);
  }

  add(record: TransactionRecord): void {
    this.records.set(record.signature, record);
    this.landed.push(record.signature);
    const prev = this.minPriceBySlot.get(record.slot);
    if (prev === undefined || record.unitPriceMicroLamports < prev) {
      this.minPriceBySlot.set(record.slot, record.unitPriceMicroLamports);
    }
    for (const account of record.writableAccounts ?? []) {
      let bySlot = this.minPriceByAccount.get(account);
      if (bySlot === undefined) this.minPriceByAccount.set(account, (bySlot = new Map()));
      const p = bySlot.get(record.slot);
      if (p === undefined || record.unitPriceMicroLamports < p)
        bySlot.set(record.slot, record.unitPriceMicroLamports);
      for (const s of bySlot.keys()) if (s + 150n < record.slot) bySlot.delete(s);
    }
  }

  /**
   * Per-slot fee to lock every one of `accounts` writable in (fromSlot, toSlot]: the highest of their per-slot
   * minimum prices (a slot where none was locked counts 0), as getRecentPrioritizationFees with addresses.
   */
  accountPriorityFees(fromSlot: bigint, toSlot: bigint, accounts: readonly string[]): Map<bigint, bigint> {
    const out = new Map<bigint, bigint>();
    for (const a of accounts) {
      for (const [slot, fee] of this.minPriceByAccount.get(a) ?? []) {
        if (slot <= fromSlot || slot > toSlot) continue;
        if (fee > (out.get(slot) ?? 0n)) out.set(slot, fee);
      }
    }
    return out;
  }

  /** Forgets a record (a bundle that did not land). */
  remove(signature: string): void {
    this.records.delete(signature);
  }

  /**
   * Landed signatures that mention `address`, newest first (getSignaturesForAddress): after `before`, down to
   * but excluding `until`, at most `limit`. `visible` filters by commitment. Records removed since (a bundle
   * that did not land) are skipped.
   */
  signaturesFor(
    address: string,
    page: SignaturePage,
    visible: (r: TransactionRecord) => boolean,
  ): TransactionRecord[] {
    this.catchUp();
    const list = this.byAddress.get(address) ?? [];
    const out: TransactionRecord[] = [];
    let started = page.before === undefined;
    for (let i = list.length - 1; i >= 0 && out.length < page.limit; i--) {
      const sig = list[i]!;
      if (!started) {
        started = sig === page.before;
        continue;
      }
      if (sig === page.until) break;
      const r = this.records.get(sig);
      if (r !== undefined && visible(r)) out.push(r);
    }
    return out;
  }

  private catchUp(): void {
    for (; this.indexed < this.landed.length; this.indexed++) {
      const r = this.records.get(this.landed[this.indexed]!);
      if (r === undefined) continue;
      for (const k of accountKeysOf(r)) {
        let l = this.byAddress.get(k);
        if (l === undefined) this.byAddress.set(k, (l = []));
        l.push(r.signature);
      }
    }
  }

  /** Per-slot minimum CU price of landed transactions in (fromSlot, toSlot]. */
  priorityFees(fromSlot: bigint, toSlot: bigint): Map<bigint, bigint> {
    const out = new Map<bigint, bigint>();
    for (let s = fromSlot + 1n; s <= toSlot; s++) {
      const fee = this.minPriceBySlot.get(s);
      if (fee !== undefined) out.set(s, fee);
    }
    return out;
  }
}
