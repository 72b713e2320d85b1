/**
 * Memoized `PublicKey.prototype.toBase58`. web3.js converts the key's BN to bytes and runs a base-58
 * big-number division on every call (10-20 µs); a trade encodes a dozen keys and a cashback check of 100
 * wallets several hundred. The PDA memo hands out the same PublicKey instances again, so keeping each
 * instance's text (in a WeakMap: nothing outlives its key) makes the repeats free. A PublicKey never changes
 * after construction (web3.js has no setter), so the text cannot go stale.
 */
import { PublicKey } from "@solana/web3.js";

let installed = false;

/** Puts the memo in front of `PublicKey.prototype.toBase58` for the whole process (idempotent). */
export function installBase58Memo(): void {
  if (installed) return;
  installed = true;
  const encode = PublicKey.prototype.toBase58;
  const texts = new WeakMap<PublicKey, string>();
  PublicKey.prototype.toBase58 = function toBase58(this: PublicKey): string {
    let text = texts.get(this);
    if (text === undefined) {
      text = encode.call(this);
      texts.set(this, text);
    }
    return text;
  };
}
