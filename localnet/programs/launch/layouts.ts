/**
 * Byte layouts of the bonding-curve program's own accounts (reference C.2), as bigint-typed records.
 * Curves and user volume accumulators are read and written by hand (hot path, fixed offsets); Global and
 * FeeConfig go through the SDK's Anchor coder so a changed IDL changes them too.
 */
import { PublicKey } from "@solana/web3.js";
import BN from "bn.js";
import { launchSdk } from "../../../src/launch/sdk.js";
import { CURVE_ACCOUNT_SIZE, UVA_ACCOUNT_SIZE } from "./constants.js";
import { pumpCoder } from "./idl-coder.js";

const CURVE_DISC = Uint8Array.from([23, 183, 248, 55, 96, 216, 172, 96]);
const UVA_DISC = Uint8Array.from([86, 255, 112, 14, 102, 53, 154, 250]);

/** A bonding curve as the program stores it (SOL curves store the zero key as quote mint). */
export interface Curve {
  virtualTokenReserves: bigint;
  virtualQuoteReserves: bigint;
  realTokenReserves: bigint;
  realQuoteReserves: bigint;
  tokenTotalSupply: bigint;
  complete: boolean;
  creator: PublicKey;
  isMayhemMode: boolean;
  isCashbackCoin: boolean;
  quoteMint: PublicKey;
  creatorFeeBps: bigint;
  canEditCreatorFee: boolean;
  isHolderReward: boolean;
}

/** The fields of a pump user volume accumulator the emulation uses. */
export interface UserVolumeAccumulator {
  user: PublicKey;
  needsClaim: boolean;
  totalUnclaimedTokens: bigint;
  totalClaimedTokens: bigint;
  currentSolVolume: bigint;
  lastUpdateTimestamp: bigint;
  hasTotalClaimedTokens: boolean;
  cashbackEarned: bigint;
  totalCashbackClaimed: bigint;
  stableCashbackEarned: bigint;
  totalStableCashbackClaimed: bigint;
}

function hasDisc(data: Uint8Array, disc: Uint8Array): boolean {
  return data.length >= 8 && disc.every((b, i) => data[i] === b);
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** True when `data` starts with the BondingCurve discriminator. */
export function isCurveData(data: Uint8Array): boolean {
  return hasDisc(data, CURVE_DISC) && data.length >= 49;
}

/** True when `data` starts with the UserVolumeAccumulator discriminator. */
export function isUvaData(data: Uint8Array): boolean {
  return hasDisc(data, UVA_DISC) && data.length >= 90;
}

/** Decodes a curve of any historical length (missing tail fields read as defaults, like the program). */
export function decodeCurve(data: Uint8Array): Curve {
  if (!isCurveData(data)) throw new Error("not a bonding curve account");
  const padded = new Uint8Array(Math.max(data.length, 125));
  padded.set(data);
  const v = view(padded);
  return {
    virtualTokenReserves: v.getBigUint64(8, true),
    virtualQuoteReserves: v.getBigUint64(16, true),
    realTokenReserves: v.getBigUint64(24, true),
    realQuoteReserves: v.getBigUint64(32, true),
    tokenTotalSupply: v.getBigUint64(40, true),
    complete: padded[48] !== 0,
    creator: new PublicKey(padded.subarray(49, 81)),
    isMayhemMode: padded[81] !== 0,
    isCashbackCoin: padded[82] !== 0,
    quoteMint: new PublicKey(padded.subarray(83, 115)),
    creatorFeeBps: v.getBigUint64(115, true),
    canEditCreatorFee: padded[123] !== 0,
    isHolderReward: padded[124] !== 0,
  };
}

/** Encodes a curve over `previous` bytes (kept past 125) or a fresh 151-byte account. */
export function encodeCurve(curve: Curve, previous?: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.max(previous?.length ?? CURVE_ACCOUNT_SIZE, 125));
  if (previous) out.set(previous);
  out.set(CURVE_DISC, 0);
  const v = view(out);
  v.setBigUint64(8, curve.virtualTokenReserves, true);
  v.setBigUint64(16, curve.virtualQuoteReserves, true);
  v.setBigUint64(24, curve.realTokenReserves, true);
  v.setBigUint64(32, curve.realQuoteReserves, true);
  v.setBigUint64(40, curve.tokenTotalSupply, true);
  out[48] = curve.complete ? 1 : 0;
  out.set(curve.creator.toBytes(), 49);
  out[81] = curve.isMayhemMode ? 1 : 0;
  out[82] = curve.isCashbackCoin ? 1 : 0;
  out.set(curve.quoteMint.toBytes(), 83);
  v.setBigUint64(115, curve.creatorFeeBps, true);
  out[123] = curve.canEditCreatorFee ? 1 : 0;
  out[124] = curve.isHolderReward ? 1 : 0;
  return out;
}

/** Decodes a pump user volume accumulator (IDL 106 bytes, allocated 137; short tails read as zero). */
export function decodeUva(data: Uint8Array): UserVolumeAccumulator {
  if (!isUvaData(data)) throw new Error("not a user volume accumulator account");
  const padded = new Uint8Array(Math.max(data.length, 106));
  padded.set(data);
  const v = view(padded);
  return {
    user: new PublicKey(padded.subarray(8, 40)),
    needsClaim: padded[40] !== 0,
    totalUnclaimedTokens: v.getBigUint64(41, true),
    totalClaimedTokens: v.getBigUint64(49, true),
    currentSolVolume: v.getBigUint64(57, true),
    lastUpdateTimestamp: v.getBigInt64(65, true),
    hasTotalClaimedTokens: padded[73] !== 0,
    cashbackEarned: v.getBigUint64(74, true),
    totalCashbackClaimed: v.getBigUint64(82, true),
    stableCashbackEarned: v.getBigUint64(90, true),
    totalStableCashbackClaimed: v.getBigUint64(98, true),
  };
}

/** A fresh accumulator record for `user`. */
export function emptyUva(user: PublicKey): UserVolumeAccumulator {
  return {
    user,
    needsClaim: false,
    totalUnclaimedTokens: 0n,
    totalClaimedTokens: 0n,
    currentSolVolume: 0n,
    lastUpdateTimestamp: 0n,
    hasTotalClaimedTokens: false,
    cashbackEarned: 0n,
    totalCashbackClaimed: 0n,
    stableCashbackEarned: 0n,
    totalStableCashbackClaimed: 0n,
  };
}

/** Encodes an accumulator over `previous` bytes or a fresh 137-byte account. */
export function encodeUva(uva: UserVolumeAccumulator, previous?: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.max(previous?.length ?? UVA_ACCOUNT_SIZE, 106));
  if (previous) out.set(previous);
  out.set(UVA_DISC, 0);
  const v = view(out);
  out.set(uva.user.toBytes(), 8);
  out[40] = uva.needsClaim ? 1 : 0;
  v.setBigUint64(41, uva.totalUnclaimedTokens, true);
  v.setBigUint64(49, uva.totalClaimedTokens, true);
  v.setBigUint64(57, uva.currentSolVolume, true);
  v.setBigInt64(65, uva.lastUpdateTimestamp, true);
  out[73] = uva.hasTotalClaimedTokens ? 1 : 0;
  v.setBigUint64(74, uva.cashbackEarned, true);
  v.setBigUint64(82, uva.totalCashbackClaimed, true);
  v.setBigUint64(90, uva.stableCashbackEarned, true);
  v.setBigUint64(98, uva.totalStableCashbackClaimed, true);
  return out;
}

/** The Global fields the emulation reads, bigint-typed. */
export interface GlobalState {
  initialized: boolean;
  authority: PublicKey;
  feeRecipient: PublicKey;
  initialVirtualTokenReserves: bigint;
  initialVirtualSolReserves: bigint;
  initialRealTokenReserves: bigint;
  tokenTotalSupply: bigint;
  feeBasisPoints: bigint;
  withdrawAuthority: PublicKey;
  enableMigrate: boolean;
  poolMigrationFee: bigint;
  creatorFeeBasisPoints: bigint;
  feeRecipients: PublicKey[];
  setCreatorAuthority: PublicKey;
  adminSetCreatorAuthority: PublicKey;
  createV2Enabled: boolean;
  whitelistPda: PublicKey;
  reservedFeeRecipient: PublicKey;
  mayhemModeEnabled: boolean;
  reservedFeeRecipients: PublicKey[];
  isCashbackEnabled: boolean;
  buybackFeeRecipients: PublicKey[];
  buybackBasisPoints: bigint;
  initialVirtualQuoteReserves: bigint;
  whitelistedQuoteMints: PublicKey[];
  creatorFeeConfigurable: boolean;
  maxConfigurableCreatorFeeBps: bigint;
  holderRewardClaimAuthority: PublicKey;
  isHolderRewardEnabled: boolean;
}

const BIGINT_GLOBAL_FIELDS = [
  "initialVirtualTokenReserves",
  "initialVirtualSolReserves",
  "initialRealTokenReserves",
  "tokenTotalSupply",
  "feeBasisPoints",
  "poolMigrationFee",
  "creatorFeeBasisPoints",
  "buybackBasisPoints",
  "initialVirtualQuoteReserves",
  "maxConfigurableCreatorFeeBps",
] as const;

/** Decodes Global with the SDK's decoder (zero-pads old lengths). */
export function decodeGlobal(data: Uint8Array): GlobalState {
  const raw = launchSdk.PUMP_SDK.decodeGlobal({
    data: Buffer.from(data),
    lamports: 0,
    owner: PublicKey.default,
    executable: false,
  });
  const out = { ...raw } as unknown as Record<string, unknown>;
  for (const f of BIGINT_GLOBAL_FIELDS) out[f] = BigInt((raw[f] as BN).toString());
  return out as unknown as GlobalState;
}

const GLOBAL_DISC = Uint8Array.from([167, 232, 232, 177, 200, 108, 114, 127]);
const FEE_CONFIG_DISC = Uint8Array.from([143, 52, 146, 187, 219, 123, 76, 155]);

interface BorshLayout {
  encode(value: unknown, buffer: Buffer): number;
}

/**
 * Serializes an IDL account synchronously behind its discriminator. Anchor's public `accounts.encode` is
 * async and writes into a fixed 1000-byte buffer (Global is 1087 bytes), so this uses the coder's own
 * per-account borsh layout with a large enough buffer.
 */
function encodeIdlAccount(disc: Uint8Array, accountName: string, value: unknown): Uint8Array {
  const coder = pumpCoder;
  const layouts = (coder.accounts as unknown as { accountLayouts: Map<string, { layout: BorshLayout }> })
    .accountLayouts;
  const layout = layouts.get(accountName);
  if (!layout) throw new Error(`IDL has no account ${accountName}`);
  const buf = Buffer.alloc(16_384);
  const len = layout.layout.encode(value, buf);
  const out = new Uint8Array(8 + len);
  out.set(disc, 0);
  out.set(buf.subarray(0, len), 8);
  return out;
}

/** Encodes Global with the IDL's Anchor coder (1087 bytes). */
export function encodeGlobal(global: GlobalState): Uint8Array {
  const obj = { ...global } as unknown as Record<string, unknown>;
  for (const f of BIGINT_GLOBAL_FIELDS) obj[f] = new BN(global[f].toString());
  return encodeIdlAccount(GLOBAL_DISC, "global", obj);
}

/** One fee schedule. */
export interface FeeRates {
  lpFeeBps: bigint;
  protocolFeeBps: bigint;
  creatorFeeBps: bigint;
}

/** A pump-fees FeeConfig, bigint-typed. */
export interface FeeConfigState {
  bump: number;
  admin: PublicKey;
  flatFees: FeeRates;
  feeTiers: { marketCapLamportsThreshold: bigint; fees: FeeRates }[];
  stableFeeTiers: { marketCapLamportsThreshold: bigint; fees: FeeRates }[];
  exoticFlatFees: FeeRates;
}

interface BnFees {
  lpFeeBps: BN;
  protocolFeeBps: BN;
  creatorFeeBps: BN;
}

const toBig = (b: BN): bigint => BigInt(b.toString());
const toBn = (b: bigint): BN => new BN(b.toString());
const feesToBig = (f: BnFees): FeeRates => ({
  lpFeeBps: toBig(f.lpFeeBps),
  protocolFeeBps: toBig(f.protocolFeeBps),
  creatorFeeBps: toBig(f.creatorFeeBps),
});
const feesToBn = (f: FeeRates): BnFees => ({
  lpFeeBps: toBn(f.lpFeeBps),
  protocolFeeBps: toBn(f.protocolFeeBps),
  creatorFeeBps: toBn(f.creatorFeeBps),
});

/** Decodes FeeConfig the way pump-fees does (length selects the version) via the SDK decoder. */
export function decodeFeeConfig(data: Uint8Array): FeeConfigState {
  const raw = launchSdk.PUMP_SDK.decodeFeeConfig({
    data: Buffer.from(data),
    lamports: 0,
    owner: PublicKey.default,
    executable: false,
  });
  const tiers = (list: typeof raw.feeTiers) =>
    list.map((t) => ({
      marketCapLamportsThreshold: toBig(t.marketCapLamportsThreshold),
      fees: feesToBig(t.fees),
    }));
  return {
    bump: (raw as unknown as { bump: number }).bump,
    admin: raw.admin,
    flatFees: feesToBig(raw.flatFees),
    feeTiers: tiers(raw.feeTiers),
    stableFeeTiers: tiers(raw.stableFeeTiers),
    exoticFlatFees: feesToBig(raw.exoticFlatFees),
  };
}

/** Encodes FeeConfig with the IDL coder, zero-padded to `size` bytes. */
export function encodeFeeConfig(cfg: FeeConfigState, size: number): Uint8Array {
  const tiers = (list: FeeConfigState["feeTiers"]) =>
    list.map((t) => ({
      marketCapLamportsThreshold: toBn(t.marketCapLamportsThreshold),
      fees: feesToBn(t.fees),
    }));
  const bytes = encodeIdlAccount(FEE_CONFIG_DISC, "feeConfig", {
    bump: cfg.bump,
    admin: cfg.admin,
    flatFees: feesToBn(cfg.flatFees),
    feeTiers: tiers(cfg.feeTiers),
    stableFeeTiers: tiers(cfg.stableFeeTiers),
    exoticFlatFees: feesToBn(cfg.exoticFlatFees),
  });
  const out = new Uint8Array(Math.max(size, bytes.length));
  out.set(bytes);
  return out;
}
