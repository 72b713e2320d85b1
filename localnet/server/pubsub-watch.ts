/**
 * accountSubscribe and logsSubscribe of the localnet PubSub: which connections watch what, and the
 * notifications a real RPC node sends for them (`accountNotification`, `logsNotification`).
 *
 * Account changes are found by diffing: the ledger reports every account it is about to write (transactions,
 * the system and token programs, operator `/admin` writes, rollbacks), and after the current tick the watched
 * ones are compared with the state last notified, so a write that was rolled back or changed nothing sends
 * nothing, as on a real node.
 */
import { PublicKey, SystemProgram } from "@solana/web3.js";
import { accountKeysOf, type Ledger, type TransactionRecord } from "../ledger/index.js";
import { sameAccount } from "../ledger/svm-accounts.js";
import type { AccountState } from "../programs/types.js";
import { invalidParams } from "./json.js";
import type { AccountEncodingOptions } from "./rpc-shapes.js";
import { accountJson } from "./rpc-shapes.js";

/** Sends one notification to the subscription's connection. */
export type Notify = (method: string, result: unknown) => void;

interface AccountSub {
  key: string;
  encoding: AccountEncodingOptions;
  notify: Notify;
}

interface LogsSub {
  /** null = every transaction ("all" / "allWithVotes"). */
  mentions: string | null;
  notify: Notify;
}

/** A deleted account, as a real node reports it to its account subscribers. */
const DELETED: AccountState = {
  lamports: 0n,
  data: new Uint8Array(0),
  owner: SystemProgram.programId,
  executable: false,
};

/** The encoding accountSubscribe was asked for (base58 when absent, as the RPC's default "binary"). */
function encodingOption(cfg: unknown): AccountEncodingOptions {
  const c = (cfg ?? {}) as { encoding?: unknown; dataSlice?: unknown };
  const encoding = typeof c.encoding === "string" ? c.encoding : "base58";
  if (!["base58", "base64", "base64+zstd", "jsonParsed"].includes(encoding)) {
    throw invalidParams(`Invalid params: unknown variant \`${encoding}\``);
  }
  const out: AccountEncodingOptions = { encoding: encoding === "base64+zstd" ? "base64" : encoding };
  const slice = c.dataSlice as { offset?: unknown; length?: unknown } | undefined;
  if (slice !== undefined && typeof slice.offset === "number" && typeof slice.length === "number") {
    out.dataSlice = { offset: slice.offset, length: slice.length };
  }
  return out;
}

/** The mentions filter of logsSubscribe: null for every transaction. */
function logsFilter(filter: unknown): string | null {
  if (filter === "all" || filter === "allWithVotes") return null;
  const m = (filter as { mentions?: unknown } | null)?.mentions;
  if (!Array.isArray(m)) throw invalidParams('Invalid params: expected "all" or {"mentions": [pubkey]}');
  if (m.length !== 1) throw invalidParams("Invalid Request: Only 1 address supported");
  return pubkeyString(m[0]);
}

function pubkeyString(v: unknown): string {
  if (typeof v !== "string") throw invalidParams("Invalid Request: Invalid pubkey provided");
  try {
    return new PublicKey(v).toBase58();
  } catch {
    throw invalidParams("Invalid Request: Invalid pubkey provided");
  }
}

/** The account and logs subscriptions of one localnet. */
export class AccountLogsWatch {
  private readonly accounts = new Map<number, AccountSub>();
  /** Watched account (base58) → its state as last notified (undefined = never read). */
  private readonly lastSeen = new Map<string, { subs: Set<number>; state: AccountState | null }>();
  private readonly logs = new Map<number, LogsSub>();
  private readonly dirty = new Set<string>();
  private flushScheduled = false;
  /** While true, touched accounts stay dirty and are notified once it is turned off. */
  private holding = false;

  constructor(private readonly ledger: Ledger) {
    ledger.onAccountTouched((k) => this.touched(k));
    ledger.onTransaction((r) => this.landed(r));
  }

  /** accountSubscribe params → a subscription under `id`; throws RpcError on bad params. */
  subscribeAccount(id: number, params: unknown[], notify: Notify): void {
    const key = pubkeyString(params[0]);
    const encoding = encodingOption(params[1]);
    this.accounts.set(id, { key, encoding, notify });
    let watched = this.lastSeen.get(key);
    if (watched === undefined) {
      watched = { subs: new Set(), state: this.ledger.getAccount(new PublicKey(key)) };
      this.lastSeen.set(key, watched);
    }
    watched.subs.add(id);
  }

  /** logsSubscribe params → a subscription under `id`; throws RpcError on bad params. */
  subscribeLogs(id: number, params: unknown[], notify: Notify): void {
    this.logs.set(id, { mentions: logsFilter(params[0]), notify });
  }

  /** Drops an account subscription; false when `id` is not one. */
  unsubscribeAccount(id: number): boolean {
    const sub = this.accounts.get(id);
    if (sub === undefined) return false;
    this.accounts.delete(id);
    const watched = this.lastSeen.get(sub.key);
    watched?.subs.delete(id);
    if (watched !== undefined && watched.subs.size === 0) this.lastSeen.delete(sub.key);
    return true;
  }

  /** Drops a logs subscription; false when `id` is not one. */
  unsubscribeLogs(id: number): boolean {
    return this.logs.delete(id);
  }

  /** Number of live account and logs subscriptions. */
  size(): { accounts: number; logs: number } {
    return { accounts: this.accounts.size, logs: this.logs.size };
  }

  private touched(pubkey: PublicKey): void {
    if (this.lastSeen.size === 0) return;
    const key = pubkey.toBase58();
    if (!this.lastSeen.has(key)) return;
    this.dirty.add(key);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // The write happens right after the touch, within the same synchronous ledger call: diff afterwards.
    setImmediate(() => this.flush());
  }

  /** Holds back account notifications while on; turning it off notifies every held change now. */
  setHolding(on: boolean): void {
    this.holding = on;
    if (!on) this.flush();
  }

  /** Notifies the subscribers of every touched account whose state differs from what they last got. */
  flush(): void {
    this.flushScheduled = false;
    if (this.holding) return;
    const keys = [...this.dirty];
    this.dirty.clear();
    const slot = this.ledger.slot();
    for (const key of keys) {
      const watched = this.lastSeen.get(key);
      if (watched === undefined) continue;
      const now = this.ledger.getAccount(new PublicKey(key));
      if (sameAccount(now, watched.state)) continue;
      watched.state = now;
      for (const id of watched.subs) {
        const sub = this.accounts.get(id);
        if (sub === undefined) continue;
        sub.notify("accountNotification", { context: { slot }, value: this.accountValue(now, sub.encoding) });
      }
    }
  }

  private accountValue(acc: AccountState | null, encoding: AccountEncodingOptions): unknown {
    const state = acc ?? DELETED;
    try {
      return accountJson(state, encoding, (mint) => this.decimalsOf(mint));
    } catch {
      // base58 is refused above 128 bytes; a subscriber that did not ask for an encoding still gets the change.
      return accountJson(state, { ...encoding, encoding: "base64" });
    }
  }

  private decimalsOf(mint: PublicKey): number {
    const acc = this.ledger.getAccount(mint);
    return acc !== null && acc.data.length >= 45 ? acc.data[44]! : 0;
  }

  private landed(r: TransactionRecord): void {
    if (this.logs.size === 0) return;
    let keys: Set<string> | null = null;
    const value = { context: { slot: r.slot }, value: { signature: r.signature, err: r.err, logs: r.logs } };
    for (const sub of this.logs.values()) {
      if (sub.mentions !== null) {
        keys ??= accountKeysOf(r);
        if (!keys.has(sub.mentions)) continue;
      }
      sub.notify("logsNotification", value);
    }
  }
}
