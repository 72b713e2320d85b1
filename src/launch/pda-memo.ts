/**
 * Memoized program-address derivation. `PublicKey.findProgramAddressSync` is a bump search with an
 * on-curve check (a field square root in pure JavaScript) per try: 0.1-1 ms per address, and one trade
 * derives 10-20 of them (our read plan, the SDK builders and Anchor's account resolver each derive their
 * own). The derivation is a pure function of (seeds, program id), so its results are kept in a bounded LRU.
 */
import { PublicKey } from "@solana/web3.js";
import { LruMap } from "../core/lru.js";

type FindProgramAddress = (seeds: Array<Buffer | Uint8Array>, programId: PublicKey) => [PublicKey, number];

/** A bounded least-recently-used memo of program-address derivations. */
export interface PdaMemo {
  /** Same contract as `PublicKey.findProgramAddressSync`. */
  find(seeds: Array<Buffer | Uint8Array>, programId: PublicKey): [PublicKey, number];
  readonly size: number;
  readonly hits: number;
  readonly misses: number;
}

/** A memo of at most `capacity` derivations in front of `derive` (default: web3.js's own). */
export function createPdaMemo(capacity: number, derive?: FindProgramAddress): PdaMemo {
  const entries = new LruMap<string, [PublicKey, number]>(capacity);
  const underlying = derive ?? ((s, p) => PublicKey.findProgramAddressSync(s, p));
  // Program ids are a handful of long-lived instances: keep each one's bytes as text.
  const programTexts = new WeakMap<PublicKey, string>();
  let hits = 0;
  let misses = 0;
  return {
    find(seeds, programId) {
      let key = programTexts.get(programId);
      if (key === undefined) {
        key = programId.toBuffer().toString("latin1");
        programTexts.set(programId, key);
      }
      // Length-prefixed seeds: two seed lists never share a key unless they are equal.
      for (const s of seeds) {
        // A view, not a copy: the seed's bytes are only read.
        const bytes = Buffer.isBuffer(s) ? s : Buffer.from(s.buffer, s.byteOffset, s.byteLength);
        key += String.fromCharCode(s.length) + bytes.toString("latin1");
      }
      const hit = entries.get(key);
      if (hit !== undefined) {
        hits++;
        return [hit[0], hit[1]];
      }
      misses++;
      const found = underlying(seeds, programId);
      entries.set(key, [found[0], found[1]]);
      return found;
    },
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

const installed = new WeakMap<object, PdaMemo>();

/**
 * Puts a memo in front of `PublicKey.findProgramAddressSync` (and so of `findProgramAddress`, which calls it)
 * for the whole process: the official SDKs and Anchor derive their addresses through it, so this is the one
 * place that reaches them. Idempotent: a second call returns the memo already installed.
 */
export function installPdaMemo(capacity = 20_000): PdaMemo {
  const existing = installed.get(PublicKey);
  if (existing !== undefined) return existing;
  const original = PublicKey.findProgramAddressSync.bind(PublicKey) as FindProgramAddress;
  const memo = createPdaMemo(capacity, original);
  PublicKey.findProgramAddressSync = (seeds, programId) => memo.find(seeds, programId);
  installed.set(PublicKey, memo);
  return memo;
}
