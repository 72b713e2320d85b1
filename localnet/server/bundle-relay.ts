/** The bundle relay (Jito block-engine JSON-RPC): sendBundle, statuses, tip accounts. */
import { createHash } from "node:crypto";
import bs58 from "bs58";
import type { VersionedTransaction } from "@solana/web3.js";
import type { Ledger } from "../ledger/index.js";
import { TransactionRejected } from "../ledger/index.js";
import { decodeTransactionString, staticTipLamports } from "../ledger/wire.js";
import type { AcceptedSends } from "./accepted-sends.js";
import type { Faults } from "./faults.js";
import { invalidParams } from "./json.js";
import type { RpcHandler } from "./rpc-methods.js";

/** Minimum bundle tip, lamports (Jito). */
export const MIN_BUNDLE_TIP_LAMPORTS = 1000n;
const MAX_BUNDLE_TRANSACTIONS = 5;
const INFLIGHT_LOOKBACK_MS = 5 * 60 * 1000;

/** bundle id = lowercase hex SHA-256 of the comma-joined base58 first signatures. */
export function bundleId(txs: { signatures: Uint8Array[] }[]): string {
  return createHash("sha256")
    .update(txs.map((t) => bs58.encode(t.signatures[0]!)).join(","), "utf8")
    .digest("hex");
}

type BundleStatus = "Invalid" | "Pending" | "Failed" | "Landed";

interface BundleEntry {
  id: string;
  status: BundleStatus;
  signatures: string[];
  landedSlot: bigint | null;
  wires: Uint8Array[];
  due: bigint | null;
  /** Slot from which an entry reported Invalid while "propagating" is Pending again. */
  invalidUntil: bigint | null;
  acceptedAt: number;
}

/** Accepted bundles and their landing. */
export class BundleRelay {
  private readonly bundles = new Map<string, BundleEntry>();
  private delayed: BundleEntry[] = [];

  constructor(
    private readonly ledger: Ledger,
    private readonly faults: Faults,
    private readonly tipAccounts: string[],
    private readonly now: () => number = Date.now,
    /** Sends answered on acceptance, executed before a bundle lands so arrival order holds. */
    private readonly accepted?: Pick<AcceptedSends, "flush">,
  ) {
    ledger.onSlot((slot) => this.landDue(slot));
  }

  /** Validates and accepts a bundle; returns its id. Throws RpcError like the block engine. */
  send(wires: Uint8Array[]): string {
    if (wires.length === 0) throw invalidParams("bundle must contain at least one transaction");
    if (wires.length > MAX_BUNDLE_TRANSACTIONS) throw invalidParams("bundle exceeds max transaction length");
    // Decoded and verified once per wire: the ledger's pre-check and execution below reuse both.
    const decoded = wires.map((w, i) => {
      try {
        return this.ledger.decodeClientTransaction(w);
      } catch {
        throw invalidParams(`transaction #${i} could not be decoded`);
      }
    });
    const txs: VersionedTransaction[] = decoded.map((d) => d.tx);
    const sigs = decoded.map((d) => d.id);
    const dupOrUnsigned =
      "bundles must not contain any duplicate transactions and every transaction must be signed";
    if (new Set(sigs).size !== sigs.length) throw invalidParams(dupOrUnsigned);
    for (const w of wires) {
      try {
        this.ledger.verifyClientTransaction(w);
      } catch {
        throw invalidParams(dupOrUnsigned);
      }
    }
    const tipSet = new Set(this.tipAccounts);
    const locksTip = txs.some((t) => t.message.staticAccountKeys.some((k) => tipSet.has(k.toBase58())));
    if (!locksTip) throw invalidParams("bundle does not lock any of the tip PDAs");
    const tip = txs.reduce((sum, t) => sum + staticTipLamports(t, tipSet), 0n);
    if (tip < MIN_BUNDLE_TIP_LAMPORTS)
      throw invalidParams(`Bundle must tip at least ${MIN_BUNDLE_TIP_LAMPORTS} lamports`);
    for (const w of wires) {
      try {
        this.ledger.precheckTransaction(w);
      } catch (e) {
        if (!(e instanceof TransactionRejected)) throw e;
        if (e.err === "AlreadyProcessed")
          throw invalidParams("bundle contains an already processed transaction");
        if (e.err === "BlockhashNotFound") throw invalidParams("bundle contains an expired blockhash");
        throw invalidParams(`bundle contains an invalid transaction: ${e.message}`);
      }
    }
    const id = bundleId(txs);
    const entry: BundleEntry = {
      id,
      status: "Pending",
      signatures: sigs,
      landedSlot: null,
      wires,
      due: null,
      invalidUntil: null,
      acceptedAt: this.now(),
    };
    this.bundles.set(id, entry);
    const invalidSlots = this.faults.bundleInvalidSlots();
    const delay = Math.max(invalidSlots, this.faults.landAfterSlots());
    if (this.faults.bundleInvalid()) entry.status = "Invalid";
    else if (this.faults.bundleFailed()) entry.status = "Failed";
    else if (this.faults.neverLand()) entry.status = "Pending";
    else if (delay > 0) {
      const slot = this.ledger.slot();
      if (invalidSlots > 0) {
        entry.status = "Invalid";
        entry.invalidUntil = slot + BigInt(invalidSlots);
      }
      entry.due = slot + BigInt(delay);
      this.delayed.push(entry);
    } else this.land(entry);
    return id;
  }

  private land(entry: BundleEntry): void {
    entry.due = null;
    this.accepted?.flush();
    const out = this.ledger.processBundle(entry.wires);
    if (out.landed) {
      entry.status = "Landed";
      entry.landedSlot = out.slot;
    } else {
      entry.status = "Failed";
    }
  }

  private landDue(slot: bigint): void {
    if (this.delayed.length === 0) return;
    for (const e of this.delayed) {
      if (e.invalidUntil !== null && e.invalidUntil <= slot) {
        e.invalidUntil = null;
        e.status = "Pending";
      }
    }
    const due = this.delayed.filter((e) => e.due !== null && e.due <= slot);
    this.delayed = this.delayed.filter((e) => !due.includes(e));
    for (const e of due) if (e.status === "Pending") this.land(e);
  }

  /** getBundleStatuses value entries (null unless landed). */
  statuses(ids: string[]): unknown[] {
    return ids.map((id) => {
      const e = this.bundles.get(id);
      if (e === undefined || e.status !== "Landed" || e.landedSlot === null) return null;
      const st = this.ledger.signatureStatus(e.signatures[0]!);
      return {
        bundle_id: id,
        transactions: e.signatures,
        slot: e.landedSlot,
        confirmation_status: st?.confirmationStatus ?? "processed",
        err: { Ok: null },
      };
    });
  }

  /** getInflightBundleStatuses value entries (unknown or older than 5 minutes = Invalid). */
  inflight(ids: string[]): unknown[] {
    return ids.map((id) => {
      const e = this.bundles.get(id);
      const expired = e !== undefined && this.now() - e.acceptedAt > INFLIGHT_LOOKBACK_MS;
      if (e === undefined || expired) return { bundle_id: id, status: "Invalid", landed_slot: null };
      return { bundle_id: id, status: e.status, landed_slot: e.landedSlot };
    });
  }
}

function idsParam(p: unknown[]): string[] {
  const ids = p[0];
  if (!Array.isArray(ids) || !ids.every((i) => typeof i === "string")) {
    throw invalidParams("params[0] must be an array of bundle ids");
  }
  if (ids.length > MAX_BUNDLE_TRANSACTIONS) throw invalidParams("too many bundle ids; max 5");
  return ids as string[];
}

/** The bundle relay's method table. */
export function bundleMethods(
  ledger: Ledger,
  relay: BundleRelay,
  tipAccounts: string[],
): Map<string, RpcHandler> {
  const context = () => ({ slot: ledger.slot() });
  const m = new Map<string, RpcHandler>();
  m.set("sendBundle", (p) => {
    const txs = p[0];
    if (!Array.isArray(txs) || !txs.every((t) => typeof t === "string")) {
      throw invalidParams("params[0] must be an array of encoded transactions");
    }
    const encoding = (p[1] as { encoding?: string } | undefined)?.encoding;
    const wires = (txs as string[]).map((t, i) => {
      try {
        return decodeTransactionString(t, encoding);
      } catch {
        throw invalidParams(`transaction #${i} could not be decoded`);
      }
    });
    return relay.send(wires);
  });
  m.set("getBundleStatuses", (p) => ({ context: context(), value: relay.statuses(idsParam(p)) }));
  m.set("getInflightBundleStatuses", (p) => ({ context: context(), value: relay.inflight(idsParam(p)) }));
  m.set("getTipAccounts", () => tipAccounts);
  return m;
}
