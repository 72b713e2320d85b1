/**
 * Pool fields the swap v2 trades and the sweeps change, written in place so the fields past the swap
 * SDK's IDL layout survive: the signed `virtual_quote_reserves` (i128 at 245), and the fee buckets the
 * October 2026 upgrade appended after `is_holder_reward` (`protocol_fees` u64 at 271, `creator_fees`
 * u64 at 279; VIRTUAL_QUOTE_RESERVES_FEE_ADJUSTMENT.md). Pools are allocated 300 bytes, so they
 * only grow when an older, shorter account trades (payer covers the rent difference).
 */
import type { PublicKey } from "@solana/web3.js";
import type { LedgerAccess } from "../types.js";
import { transferLamports } from "./token-io.js";

/** Serialized size of the current Pool layout (discriminator included). */
export const POOL_CURRENT_SIZE = 287;
/** Offset of `virtual_quote_reserves` (i128). */
export const VQR_OFFSET = 245;
const PROTOCOL_FEES_OFFSET = 271;
const CREATOR_FEES_OFFSET = 279;

/** The pool's fee buckets and signed virtual quote reserves. */
export interface PoolFeeState {
  virtualQuoteReserves: bigint;
  protocolFees: bigint;
  creatorFees: bigint;
}

function readI128(v: DataView, o: number): bigint {
  const lo = v.getBigUint64(o, true);
  const hi = v.getBigInt64(o + 8, true);
  return (hi << 64n) + lo;
}

/** Reads the fee state of a pool account of any length (missing fields read 0). */
export function readPoolFeeState(data: Uint8Array): PoolFeeState {
  const padded = new Uint8Array(Math.max(data.length, POOL_CURRENT_SIZE));
  padded.set(data);
  const v = new DataView(padded.buffer, padded.byteOffset, padded.byteLength);
  return {
    virtualQuoteReserves: readI128(v, VQR_OFFSET),
    protocolFees: v.getBigUint64(PROTOCOL_FEES_OFFSET, true),
    creatorFees: v.getBigUint64(CREATOR_FEES_OFFSET, true),
  };
}

/** Writes the fee state over `data` (at least 287 bytes), returning a copy. */
export function writePoolFeeState(data: Uint8Array, s: PoolFeeState): Uint8Array {
  if (data.length < POOL_CURRENT_SIZE) throw new Error("pool account has not grown to the current layout");
  const out = Uint8Array.from(data);
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const mask = (1n << 64n) - 1n;
  v.setBigUint64(VQR_OFFSET, s.virtualQuoteReserves & mask, true);
  v.setBigInt64(VQR_OFFSET + 8, s.virtualQuoteReserves >> 64n, true);
  v.setBigUint64(PROTOCOL_FEES_OFFSET, s.protocolFees, true);
  v.setBigUint64(CREATOR_FEES_OFFSET, s.creatorFees, true);
  return out;
}

/** Grows a shorter pool to the current layout (realloc), `payer` paying the rent difference. */
export function growPool(ledger: LedgerAccess, pool: PublicKey, payer: PublicKey): Uint8Array {
  const before = ledger.getAccount(pool);
  if (!before) throw new Error("pool vanished");
  if (before.data.length >= POOL_CURRENT_SIZE) return before.data;
  const topUp = ledger.rentExemptMinimum(POOL_CURRENT_SIZE) - ledger.rentExemptMinimum(before.data.length);
  transferLamports(ledger, payer, pool, topUp);
  const funded = ledger.getAccount(pool)!;
  const data = new Uint8Array(POOL_CURRENT_SIZE);
  data.set(funded.data);
  ledger.setAccount(pool, { ...funded, data });
  return data;
}

/** Rewrites the pool's fee state in place. */
export function storePoolFeeState(ledger: LedgerAccess, pool: PublicKey, s: PoolFeeState): void {
  const acc = ledger.getAccount(pool);
  if (!acc) throw new Error("pool vanished");
  ledger.setAccount(pool, { ...acc, data: writePoolFeeState(acc.data, s) });
}
