/**
 * Memoized program-address derivation. `findProgramAddressSync` costs about half a millisecond (bump
 * search with an on-curve check per try) and every trade re-derives ~10 PDAs, so results are kept in a
 * bounded map. The function is pure, so sharing the memo across ledgers is safe.
 */
import { PublicKey } from "@solana/web3.js";

const MAX_ENTRIES = 50_000;
const memo = new Map<string, PublicKey>();

/** The canonical PDA of `seeds` under `programId` (memoized findProgramAddressSync). */
export function derivePda(seeds: Uint8Array[], programId: PublicKey): PublicKey {
  const key = `${programId.toBase58()}|${seeds.map((s) => Buffer.from(s).toString("hex")).join("|")}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const [address] = PublicKey.findProgramAddressSync(seeds, programId);
  if (memo.size >= MAX_ENTRIES) memo.clear();
  memo.set(key, address);
  return address;
}
