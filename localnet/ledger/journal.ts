/** Account pre-images recorded on first touch, stacked so a bundle can undo all of its transactions. */
import { PublicKey } from "@solana/web3.js";
import type { LiteSVM } from "litesvm";
import type { AccountState } from "../programs/types.js";
import { readAccount, sameAccount, writeAccount } from "./svm-accounts.js";

/** One level of undo: account (base58) → state before its first write at this level. */
export type Journal = Map<string, AccountState | null>;

/** The stack of open journals over one LiteSVM. */
export class AccountJournal {
  private readonly open: Journal[] = [];
  private readonly touchListeners: ((pubkey: PublicKey) => void)[] = [];

  constructor(private readonly svm: LiteSVM) {}

  /** Registers a listener told of every account about to be written (PubSub diffs these afterwards). */
  onTouch(listener: (pubkey: PublicKey) => void): void {
    this.touchListeners.push(listener);
  }

  /** Records the account's current state in every open journal that has not seen it yet. */
  touch(pubkey: PublicKey): void {
    for (const l of this.touchListeners) l(pubkey);
    if (this.open.length === 0) return;
    const key = pubkey.toBase58();
    let pre: AccountState | null | undefined;
    for (const j of this.open) {
      if (j.has(key)) continue;
      if (pre === undefined) pre = readAccount(this.svm, pubkey);
      j.set(key, pre);
    }
  }

  /** Opens a nested journal. */
  begin(): Journal {
    const j: Journal = new Map();
    this.open.push(j);
    return j;
  }

  /** Closes the innermost journal keeping its changes (outer journals still hold their pre-images). */
  commit(j: Journal): void {
    const top = this.open.pop();
    if (top !== j) throw new Error("journal stack out of order");
  }

  /** Closes the innermost journal restoring every account it recorded. */
  rollback(j: Journal): void {
    this.commit(j);
    for (const [key, pre] of j) {
      const pubkey = new PublicKey(key);
      if (!sameAccount(readAccount(this.svm, pubkey), pre)) writeAccount(this.svm, pubkey, pre);
    }
  }
}
