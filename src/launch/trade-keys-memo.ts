/**
 * The account metas of built v3 curve and v2 pool trades, kept by what they derive from. A trade's list is 17
 * accounts, six of them program-address searches (each a PDA-memo lookup that encodes its seeds' bytes again);
 * they depend only on the recorded account layout of the instruction and on the trade's keys (mint, user, token
 * program; for a pool also its address and the pool's base mint and vaults), so a repeat trade of a wallet on a
 * mint, whichever of buy / sell it is, takes the list kept from the last one. The buyback recipient, picked at
 * random per trade, is not part of the key: its one position is written per trade (callers, via `withAccount`).
 * Keyed by it, a wallet and mint would take up to eight entries and a repeat would hit one time in eight.
 */
import type { AccountMeta, PublicKey } from "@solana/web3.js";
import { LruMap } from "../core/lru.js";

/**
 * Entries kept by the process-wide memo: one per (wallet, mint) and program, as the curve buy memo of
 * trade-instructions.ts. About 1.2 KB an entry (17 metas and a 97-character key, measured with the keys' own
 * instances left out; a pool's entry also keeps its three pool keys): 5-7 MB when full.
 */
export const TRADE_KEYS_CAPACITY = 4_096;

/** A bounded least-recently-used memo of account-meta lists. */
export interface TradeKeysMemo {
  /**
   * A new array of the metas kept under `key`, else of `build()`'s (kept). The metas themselves are shared
   * between trades, so frozen; the array is the caller's own (a caller may put another meta in a slot).
   * `held`: keys the list also depends on, compared (bytes) with those kept with the entry instead of being
   * part of `key` (for keys that are new instances on every trade, such as a decoded pool's: comparing two
   * keys costs less than converting one to text); a difference rebuilds the entry.
   */
  metas(key: string, build: () => AccountMeta[], held?: readonly PublicKey[]): AccountMeta[];
  readonly capacity: number;
  readonly size: number;
  readonly hits: number;
  readonly misses: number;
}

interface Entry {
  metas: readonly AccountMeta[];
  held: readonly PublicKey[] | undefined;
}

function sameHeld(a: readonly PublicKey[] | undefined, b: readonly PublicKey[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!a[i]!.equals(b[i]!)) return false;
  return true;
}

/** A memo of at most `capacity` lists. */
export function createTradeKeysMemo(capacity: number): TradeKeysMemo {
  const entries = new LruMap<string, Entry>(capacity);
  let hits = 0;
  let misses = 0;
  return {
    metas(key, build, held) {
      let kept = entries.get(key);
      if (kept !== undefined && sameHeld(kept.held, held)) {
        hits++;
      } else {
        misses++;
        const built = build();
        for (const m of built) Object.freeze(m);
        kept = { metas: Object.freeze(built), held: held === undefined ? undefined : [...held] };
        // A replaced entry (other held keys) moves to the back as a new one would.
        entries.set(key, kept);
      }
      return kept.metas.slice();
    },
    capacity,
    get size() {
      return entries.size;
    },
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
  };
}

/** The process-wide memo of the v3 curve and v2 pool builders. */
export const tradeKeysMemo: TradeKeysMemo = createTradeKeysMemo(TRADE_KEYS_CAPACITY);

// A key's 32 bytes as latin1 text, per PublicKey instance: the key's parts are mostly the same instances from one
// trade to the next (memoized plans and PDAs, cached configs); a fresh instance costs one conversion, still
// cheaper than one PDA-memo lookup (which converts every seed key to bytes). PublicKeys are never changed.
const keyTexts = new WeakMap<PublicKey, string>();

/** `key`'s bytes as a 32-character latin1 string (a memo key's part: fixed length, so no separator needed). */
export function keyText(key: PublicKey): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = key.toBuffer().toString("latin1");
    keyTexts.set(key, text);
  }
  return text;
}

/** `metas` (the caller's own array) with the account at `at` replaced by `pubkey`, flags kept. */
export function withAccount(metas: AccountMeta[], at: number, pubkey: PublicKey): AccountMeta[] {
  const m = metas[at];
  if (m === undefined) throw new Error(`no account at ${at}`);
  metas[at] = { pubkey, isWritable: m.isWritable, isSigner: m.isSigner };
  return metas;
}
