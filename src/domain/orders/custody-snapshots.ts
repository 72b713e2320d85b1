/**
 * The keys and wallets an order's fire decides on, kept from an earlier read (issue 31): the fire's two reads
 * (its key, for the custody checks; its wallet, to sign) were on the trigger's critical path, about 0.2 ms on
 * SQLite and a round trip each on PostgreSQL, for rows that seldom change. A fire decides on the kept rows and
 * its claim commits only while they still hold (store/orders/live-keys.ts: the keys' versions, counted up by the
 * database on every change a decision reads, and the wallet's row), so a decision on a kept row never sends more
 * than one on a fresh read would. A fire whose kept rows may have decided it wrongly (refused, or its claim lost
 * while a kept row had changed: `stale`) is run again on fresh reads (`view(true)`), which replace the kept rows.
 * The wallet kept is its sealed secret, as the store holds it: nothing is decrypted ahead of a signature.
 */
import { LruMap } from "../../core/lru.js";
import { keyVersionsOf } from "../keys/fire-custody.js";
import type { KeyRecord, Store, WalletRecord } from "../../store/index.js";

/** One fire's readers, and whether either answered from a kept row. */
export interface SnapshotView {
  readKey(accountId: number, keyId: number): Promise<KeyRecord | undefined>;
  readWallet(accountId: number, publicKey: string): Promise<WalletRecord | undefined>;
  /** True once a reader answered from a kept row rather than a read. */
  readonly served: boolean;
  /**
   * Whether a kept row this view answered has changed since (read now, and kept in its place): a claim lost on
   * unchanged rows was lost to another process, and deciding again would lose again.
   */
  stale(): Promise<boolean>;
}

/** Kept key and wallet rows, the least recently used dropped first. */
export class CustodySnapshots {
  private readonly keys: LruMap<string, KeyRecord>;
  private readonly wallets: LruMap<string, WalletRecord>;
  /** Reads under way, so that many orders of one key entering the book read it once. */
  private readonly reading = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: Pick<Store, "findKey" | "findWallet">,
    max = 4_096,
  ) {
    this.keys = new LruMap(max);
    this.wallets = new LruMap(max);
  }

  /** A fire's readers: from the kept rows unless `fresh` (then read, and the rows kept for the next fire). */
  view(fresh = false): SnapshotView {
    let servedKey: { accountId: number; key: KeyRecord } | undefined;
    let servedWallet: { accountId: number; wallet: WalletRecord } | undefined;
    return {
      get served() {
        return servedKey !== undefined || servedWallet !== undefined;
      },
      readKey: async (accountId, keyId) => {
        const kept = fresh ? undefined : this.keys.get(`${accountId}:${keyId}`);
        if (kept === undefined) return this.readKey(accountId, keyId);
        servedKey = { accountId, key: kept };
        return kept;
      },
      readWallet: async (accountId, publicKey) => {
        const kept = fresh ? undefined : this.wallets.get(`${accountId}:${publicKey}`);
        if (kept === undefined) return this.readWallet(accountId, publicKey);
        servedWallet = { accountId, wallet: kept };
        return kept;
      },
      stale: async () => {
        if (servedKey !== undefined) {
          const now = await this.readKey(servedKey.accountId, servedKey.key.id);
          if (now === undefined || keyVersionsOf(now) !== keyVersionsOf(servedKey.key)) return true;
        }
        if (servedWallet !== undefined) {
          const now = await this.readWallet(servedWallet.accountId, servedWallet.wallet.publicKey);
          if (now?.id !== servedWallet.wallet.id) return true;
        }
        return false;
      },
    };
  }

  /** Reads and keeps the rows an order of `owner` will fire with, unless kept already (off the trigger's path). */
  prefetch(owner: { accountId: number; keyId: number; wallet: string }, onError: (e: unknown) => void): void {
    const key = `${owner.accountId}:${owner.keyId}`;
    if (!this.keys.has(key)) this.once(`k${key}`, () => this.readKey(owner.accountId, owner.keyId), onError);
    const wallet = `${owner.accountId}:${owner.wallet}`;
    if (!this.wallets.has(wallet))
      this.once(`w${wallet}`, () => this.readWallet(owner.accountId, owner.wallet), onError);
  }

  /** Rows kept. */
  get size(): { keys: number; wallets: number } {
    return { keys: this.keys.size, wallets: this.wallets.size };
  }

  private async readKey(accountId: number, keyId: number): Promise<KeyRecord | undefined> {
    const k = await this.store.findKey(accountId, keyId);
    const id = `${accountId}:${keyId}`;
    // Only a key read whole (its chain and its root's version) is kept; any other is read again next time.
    if (k !== undefined && k.rootVersion >= 0) this.keys.set(id, Object.freeze(k));
    else this.keys.delete(id);
    return k;
  }

  private async readWallet(accountId: number, publicKey: string): Promise<WalletRecord | undefined> {
    const w = await this.store.findWallet(accountId, publicKey);
    const id = `${accountId}:${publicKey}`;
    if (w !== undefined) this.wallets.set(id, Object.freeze(w));
    else this.wallets.delete(id);
    return w;
  }

  private once(id: string, read: () => Promise<unknown>, onError: (e: unknown) => void): void {
    if (this.reading.has(id)) return;
    const p = read()
      .catch(onError)
      .finally(() => this.reading.delete(id));
    this.reading.set(id, p);
  }
}
