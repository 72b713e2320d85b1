/** Landed transactions (signature → record) and the confirmation model derived from the slot. */
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

/** The store of landed transactions. */
export class TransactionStore {
  private readonly records = new Map<string, TransactionRecord>();
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
