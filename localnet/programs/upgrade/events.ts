/**
 * Events the October 2026 upgrade added (idl/pump.json, idl/pump_amm.json), borsh-encoded by hand
 * because the installed SDKs' IDLs lack them, and the tails it appended to existing events.
 * Discriminators are Anchor's sha256("event:<Name>")[0..8].
 */
import { PublicKey } from "@solana/web3.js";

/** Borsh writer for the few field kinds these events use. */
class Writer {
  private parts: Buffer[] = [];
  key(k: PublicKey): this {
    this.parts.push(Buffer.from(k.toBytes()));
    return this;
  }
  u64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(v);
    this.parts.push(b);
    return this;
  }
  i64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(v);
    this.parts.push(b);
    return this;
  }
  u8(v: number): this {
    this.parts.push(Buffer.from([v]));
    return this;
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export const POST_COMPLETE_BUY_EVENT_DISC = [111, 176, 109, 139, 49, 108, 213, 251];
export const SWEEP_BONDING_CURVE_FEE_EVENT_DISC = [116, 43, 77, 189, 17, 122, 72, 43];
export const SWEEP_POOL_FEE_EVENT_DISC = [130, 164, 36, 97, 228, 130, 135, 165];

function programData(disc: number[], body: Buffer): string {
  return `Program data: ${Buffer.concat([Buffer.from(disc), body]).toString("base64")}`;
}

/** `PostCompleteBuyEvent`: the pool part of a synthetic migration. */
export interface PostCompleteBuyEvent {
  user: PublicKey;
  mint: PublicKey;
  bondingCurve: PublicKey;
  quoteMint: PublicKey;
  timestamp: bigint;
  baseOut: bigint;
  quoteIn: bigint;
  feeBasisPoints: bigint;
  fee: bigint;
  creatorFeeBasisPoints: bigint;
  creatorFee: bigint;
  buybackFee: bigint;
  poolBaseReservesBefore: bigint;
  poolQuoteReservesBefore: bigint;
  poolBaseReservesAfter: bigint;
  poolQuoteReservesAfter: bigint;
}

/** The log line of a PostCompleteBuyEvent. */
export function postCompleteBuyLine(e: PostCompleteBuyEvent): string {
  const w = new Writer().key(e.user).key(e.mint).key(e.bondingCurve).key(e.quoteMint).i64(e.timestamp);
  for (const v of [
    e.baseOut,
    e.quoteIn,
    e.feeBasisPoints,
    e.fee,
    e.creatorFeeBasisPoints,
    e.creatorFee,
    e.buybackFee,
    e.poolBaseReservesBefore,
    e.poolQuoteReservesBefore,
    e.poolBaseReservesAfter,
    e.poolQuoteReservesAfter,
  ])
    w.u64(v);
  return programData(POST_COMPLETE_BUY_EVENT_DISC, w.bytes());
}

/** Fee bucket a sweep empties. */
export const SWEEP_BUCKET = { protocol: 0, creator: 1 } as const;

/** `SweepBondingCurveFeeEvent`. */
export interface SweepBondingCurveFeeEvent {
  timestamp: bigint;
  mint: PublicKey;
  bondingCurve: PublicKey;
  quoteMint: PublicKey;
  recipient: PublicKey;
  amount: bigint;
  bucket: number;
}

/** The log line of a SweepBondingCurveFeeEvent. */
export function sweepBondingCurveFeeLine(e: SweepBondingCurveFeeEvent): string {
  const w = new Writer().i64(e.timestamp).key(e.mint).key(e.bondingCurve).key(e.quoteMint).key(e.recipient);
  return programData(SWEEP_BONDING_CURVE_FEE_EVENT_DISC, w.u64(e.amount).u8(e.bucket).bytes());
}

/** `SweepPoolFeeEvent`. */
export interface SweepPoolFeeEvent {
  timestamp: bigint;
  pool: PublicKey;
  baseMint: PublicKey;
  quoteMint: PublicKey;
  recipient: PublicKey;
  payer: PublicKey;
  amount: bigint;
  bucket: number;
}

/** The log line of a SweepPoolFeeEvent. */
export function sweepPoolFeeLine(e: SweepPoolFeeEvent): string {
  const w = new Writer().i64(e.timestamp).key(e.pool).key(e.baseMint).key(e.quoteMint).key(e.recipient);
  return programData(SWEEP_POOL_FEE_EVENT_DISC, w.key(e.payer).u64(e.amount).u8(e.bucket).bytes());
}

/** TradeEvent's appended `creator_fee_unclaimed` (after the SDK IDL's last field, holder_rewards). */
export function tradeEventTail(creatorFeeUnclaimed: bigint): Uint8Array {
  return new Writer().u64(creatorFeeUnclaimed).bytes();
}

/**
 * BuyEvent / SellEvent tail past the swap SDK's IDL (which ends at base_supply): holder_rewards_bps,
 * holder_rewards (0: the localnet has no holder-reward pools) and creator_fee_unclaimed.
 */
export function swapEventTail(creatorFeeUnclaimed: bigint): Uint8Array {
  return new Writer().u64(0n).u64(0n).u64(creatorFeeUnclaimed).bytes();
}

/** Decoders for tests and tools: the same layouts read back. */
export function decodeUpgradeEvent(line: string): {
  name: "PostCompleteBuyEvent" | "SweepBondingCurveFeeEvent" | "SweepPoolFeeEvent";
  data: Record<string, unknown>;
} | null {
  if (!line.startsWith("Program data: ")) return null;
  const raw = Buffer.from(line.slice("Program data: ".length), "base64");
  const is = (d: number[]) => d.every((b, i) => raw[i] === b);
  let o = 8;
  const key = () => new PublicKey(raw.subarray(o, (o += 32)));
  const u64 = () => raw.readBigUInt64LE((o += 8) - 8);
  const i64 = () => raw.readBigInt64LE((o += 8) - 8);
  if (is(POST_COMPLETE_BUY_EVENT_DISC)) {
    const head = { user: key(), mint: key(), bondingCurve: key(), quoteMint: key(), timestamp: i64() };
    const names = [
      "baseOut",
      "quoteIn",
      "feeBasisPoints",
      "fee",
      "creatorFeeBasisPoints",
      "creatorFee",
      "buybackFee",
      "poolBaseReservesBefore",
      "poolQuoteReservesBefore",
      "poolBaseReservesAfter",
      "poolQuoteReservesAfter",
    ];
    const rest = Object.fromEntries(names.map((n) => [n, u64()]));
    return { name: "PostCompleteBuyEvent", data: { ...head, ...rest } };
  }
  if (is(SWEEP_BONDING_CURVE_FEE_EVENT_DISC)) {
    const data = { timestamp: i64(), mint: key(), bondingCurve: key(), quoteMint: key(), recipient: key() };
    return { name: "SweepBondingCurveFeeEvent", data: { ...data, amount: u64(), bucket: raw[o] } };
  }
  if (is(SWEEP_POOL_FEE_EVENT_DISC)) {
    const data = { timestamp: i64(), pool: key(), baseMint: key(), quoteMint: key(), recipient: key() };
    return { name: "SweepPoolFeeEvent", data: { ...data, payer: key(), amount: u64(), bucket: raw[o] } };
  }
  return null;
}
