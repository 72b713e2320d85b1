/**
 * The fields the October 2026 upgrade appended to `BondingCurve` (idl/pump.json): the fee buckets
 * v3 trades fill and sweeps empty, and the record of a synthetic migration's pool part. Offsets after
 * the 125-byte layout; shorter (older) accounts read them as 0 and grow to 166 bytes on their first
 * new-style trade or sweep, the payer covering the rent difference. Accounts allocated larger (256
 * bytes) keep their size.
 */
import type { PublicKey } from "@solana/web3.js";
import type { Exec } from "./exec-support.js";
import { transferFromUser } from "./exec-support.js";

/** Serialized size of the current BondingCurve layout (discriminator included). */
export const CURVE_CURRENT_SIZE = 166;

/** The appended fields. */
export interface CurveBuckets {
  /** Creator fee waiting on the curve (`creator_fee`). */
  creatorFee: bigint;
  /** Protocol fee waiting on the curve (`protocol_fees`). */
  protocolFees: bigint;
  depth: number;
  initialVirtualQuoteReserves: bigint;
  /** Tokens and quote of a synthetic migration's pool part (0 when there was none). */
  postCompleteBaseOut: bigint;
  postCompleteQuoteIn: bigint;
}

const OFF = { creatorFee: 125, protocolFees: 133, depth: 141, ivqr: 142, baseOut: 150, quoteIn: 158 };

/** Reads the appended fields of a curve account of any length (missing ones read 0). */
export function readBuckets(data: Uint8Array): CurveBuckets {
  const padded = new Uint8Array(Math.max(data.length, CURVE_CURRENT_SIZE));
  padded.set(data);
  const v = new DataView(padded.buffer, padded.byteOffset, padded.byteLength);
  return {
    creatorFee: v.getBigUint64(OFF.creatorFee, true),
    protocolFees: v.getBigUint64(OFF.protocolFees, true),
    depth: padded[OFF.depth]!,
    initialVirtualQuoteReserves: v.getBigUint64(OFF.ivqr, true),
    postCompleteBaseOut: v.getBigUint64(OFF.baseOut, true),
    postCompleteQuoteIn: v.getBigUint64(OFF.quoteIn, true),
  };
}

/** Writes the appended fields over `data` (at least 166 bytes), returning a copy. */
export function writeBuckets(data: Uint8Array, b: CurveBuckets): Uint8Array {
  if (data.length < CURVE_CURRENT_SIZE) throw new Error("curve account has not grown to the current layout");
  const out = Uint8Array.from(data);
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  v.setBigUint64(OFF.creatorFee, b.creatorFee, true);
  v.setBigUint64(OFF.protocolFees, b.protocolFees, true);
  out[OFF.depth] = b.depth;
  v.setBigUint64(OFF.ivqr, b.initialVirtualQuoteReserves, true);
  v.setBigUint64(OFF.baseOut, b.postCompleteBaseOut, true);
  v.setBigUint64(OFF.quoteIn, b.postCompleteQuoteIn, true);
  return out;
}

/**
 * Grows the curve account to the current layout when it is shorter (realloc), `payer` paying the
 * rent difference by System transfer; returns the account's data afterwards.
 */
export function growCurve(x: Exec, curveKey: PublicKey, payer: PublicKey): Uint8Array {
  const before = x.ledger.getAccount(curveKey);
  if (!before) throw new Error("bonding curve vanished");
  if (before.data.length >= CURVE_CURRENT_SIZE) return before.data;
  const topUp =
    x.ledger.rentExemptMinimum(CURVE_CURRENT_SIZE) - x.ledger.rentExemptMinimum(before.data.length);
  transferFromUser(x, payer, curveKey, topUp);
  const funded = x.ledger.getAccount(curveKey)!;
  const data = new Uint8Array(CURVE_CURRENT_SIZE);
  data.set(funded.data);
  x.ledger.setAccount(curveKey, { ...funded, data });
  return data;
}
