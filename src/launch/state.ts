/**
 * Decoders from raw account bytes (as getMultipleAccounts returns them) to plain objects whose amounts
 * are `bigint`. Program accounts go through the SDKs' own decoders (they know every historical
 * account length); only the BN → bigint conversion is ours, and `toSdk` undoes it for SDK builders.
 * The bonding curve, decoded on every curve notification, is read at its offsets instead, the same
 * way the SDK reads it (checked against the SDK's IDL at load, and by test/unit/launch/curve-decode.test.ts).
 */
import BN from "bn.js";
import { PublicKey, type AccountInfo } from "@solana/web3.js";
import { ACCOUNT_SIZE, AccountLayout, MINT_SIZE, MintLayout } from "./spl-token.js";
import type { RawMint } from "@solana/spl-token";
import { launchSdk, launchSwapSdk } from "./sdk.js";
import { launchProgram } from "./programs-offline.js";

/** `T` with every `From` replaced by `To` (recursively through arrays and plain objects; PublicKeys stay). */
type Replaced<T, From, To> = T extends From
  ? To
  : T extends PublicKey
    ? PublicKey
    : T extends readonly (infer U)[]
      ? Replaced<U, From, To>[]
      : T extends object
        ? { [K in keyof T]: Replaced<T[K], From, To> }
        : T;

/** `T` with every BN replaced by bigint. */
export type Bigintify<T> = Replaced<T, BN, bigint>;

/** `T` with every bigint replaced by BN: the shape the SDK builders take. */
export type Bnify<T> = Replaced<T, bigint, BN>;

type SdkGlobal = ReturnType<typeof launchSdk.PUMP_SDK.decodeGlobal>;
type SdkFeeConfig = ReturnType<typeof launchSdk.PUMP_SDK.decodeFeeConfig>;
type SdkBondingCurve = ReturnType<typeof launchSdk.PUMP_SDK.decodeBondingCurve>;
type SdkPool = ReturnType<typeof launchSwapSdk.PUMP_AMM_SDK.decodePool>;
type SdkGlobalConfig = ReturnType<typeof launchSwapSdk.PUMP_AMM_SDK.decodeGlobalConfig>;
type SdkSwapFeeConfig = ReturnType<typeof launchSwapSdk.PUMP_AMM_SDK.decodeFeeConfig>;

/** Launch `Global`: fee bps, initial reserves, fee / reserved / buyback recipient lists, mayhem and cashback flags. */
export type LaunchGlobal = Bigintify<SdkGlobal>;
/** Launch FeeConfig (market-cap fee tiers of the curve). */
export type LaunchFeeConfig = Bigintify<SdkFeeConfig>;
/** A bonding curve (reserves, completion, creator, mayhem / cashback flags, quote mint). */
export type BondingCurveState = Bigintify<SdkBondingCurve>;
/** A swap pool (mints, vaults, coin creator, flags, virtual quote reserves). */
export type PoolState = Bigintify<SdkPool>;
/** Swap `GlobalConfig` (fee bps, protocol / reserved / buyback recipients, disable flags). */
export type SwapGlobalConfig = Bigintify<SdkGlobalConfig>;
/** Swap FeeConfig (fee tiers of canonical pools, flat fees otherwise). */
export type SwapFeeConfig = Bigintify<SdkSwapFeeConfig>;

/** A token account of either token program. */
export interface TokenAccountState {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
  /** The program owning the account (SPL Token or Token-2022). */
  tokenProgram: PublicKey;
}

/** A mint of either token program. */
export interface MintState {
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  /** The program owning the mint: the token program every instruction on it must name. */
  tokenProgram: PublicKey;
}

/** Account bytes in any of the shapes our readers hand out (Buffer, Uint8Array, or RPC `[base64, "base64"]`). */
export type RawData = Buffer | Uint8Array | readonly [string, string];

/** Normalizes account bytes to a Buffer. */
export function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const [text, encoding] = data;
  if (encoding !== "base64") throw new Error(`unsupported account data encoding ${encoding}`);
  return Buffer.from(text, "base64");
}

/** Deep-converts BN fields to bigint. */
export function toBigints<T>(value: T): Bigintify<T> {
  return convert(value, (v) => (BN.isBN(v) ? BigInt((v as BN).toString()) : undefined)) as Bigintify<T>;
}

/** Deep-converts bigint fields to BN (what the SDK builders and quote functions take). */
export function toSdk<T>(value: T): Bnify<T> {
  return convert(value, (v) => (typeof v === "bigint" ? new BN(v.toString()) : undefined)) as Bnify<T>;
}

function convert(value: unknown, leaf: (v: unknown) => unknown): unknown {
  const converted = leaf(value);
  if (converted !== undefined) return converted;
  if (Array.isArray(value)) return value.map((v) => convert(v, leaf));
  // Only plain records are walked: PublicKey, Buffer and other class instances stay as they are.
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = convert(v, leaf);
    return out;
  }
  return value;
}

// The SDK decoders take an AccountInfo but read only `data`.
function info(data: RawData): AccountInfo<Buffer> {
  return { data: toBuffer(data), executable: false, lamports: 0, owner: PublicKey.default };
}

// A decoder of raw account data through one of the SDK's, its BN fields as bigints.
function decodedBy<T>(decode: (info: AccountInfo<Buffer>) => T): (data: RawData) => Bigintify<T> {
  return (data) => toBigints(decode(info(data)));
}

/** Decodes the launch `Global` account. */
export const decodeLaunchGlobal = decodedBy((i) => launchSdk.PUMP_SDK.decodeGlobal(i));

/** Decodes the launch FeeConfig (versioned by account length, as the program reads it). */
export const decodeLaunchFeeConfig = decodedBy((i) => launchSdk.PUMP_SDK.decodeFeeConfig(i));

// The SDK's curve decoder, kept for an SDK whose layout is not the one `decodeCurveDirect` reads.
const decodeBondingCurveBySdk = decodedBy((i) => launchSdk.PUMP_SDK.decodeBondingCurve(i));

// The curve as `PumpSdk.decodeBondingCurve` (pump-sdk 2.0.0) reads it: refused below the 49-byte initial
// layout, zero-padded to BONDING_CURVE_SIZE (125) with bytes past it ignored, then Anchor's coder (discriminator,
// then the IDL's fields in order; a bool other than 0 or 1 throws). `decodeCurveDirect` does the same reads at
// fixed offsets: Anchor's coder builds BN and PublicKey objects through its layout tree, 30-50 us of cold code
// on the order engine's trigger path (every curve notification decodes the new state), this a few us.
const CURVE_MIN_LENGTH = 49;
const CURVE_LENGTH = 125;
const CURVE_DISCRIMINATOR = Buffer.from([23, 183, 248, 55, 96, 216, 172, 96]);
// Where `decodeCurveDirect` reads each field (discriminator included).
const AT = {
  virtualTokenReserves: 8,
  virtualQuoteReserves: 16,
  realTokenReserves: 24,
  realQuoteReserves: 32,
  tokenTotalSupply: 40,
  complete: 48,
  creator: 49,
  isMayhemMode: 81,
  isCashbackCoin: 82,
  quoteMint: 83,
  creatorFeeBps: 115,
  canEditCreatorFee: 123,
  isHolderReward: 124,
} as const;
// The IDL's `bondingCurve` fields, in order, with the type each is read as.
const CURVE_FIELDS: readonly (readonly [keyof typeof AT, "u64" | "bool" | "pubkey"])[] = [
  ["virtualTokenReserves", "u64"],
  ["virtualQuoteReserves", "u64"],
  ["realTokenReserves", "u64"],
  ["realQuoteReserves", "u64"],
  ["tokenTotalSupply", "u64"],
  ["complete", "bool"],
  ["creator", "pubkey"],
  ["isMayhemMode", "bool"],
  ["isCashbackCoin", "bool"],
  ["quoteMint", "pubkey"],
  ["creatorFeeBps", "u64"],
  ["canEditCreatorFee", "bool"],
  ["isHolderReward", "bool"],
];
const WIDTH = { u64: 8, bool: 1, pubkey: 32 } as const;

/**
 * Whether the installed SDK decodes curves as `decodeCurveDirect` reads them: its IDL's discriminator and fields
 * (names and types in order, packed from offset 8 at the offsets in `AT`) and its padded length are the ones
 * above. Checked once at load; any difference (an SDK upgrade) leaves the SDK's decoder in place.
 */
export const DIRECT_CURVE_DECODE: boolean = (() => {
  // The IDL as Anchor's coder reads it (names in camelCase): the SDK's, through the same Program constructor.
  const idl = launchProgram.idl as unknown as {
    accounts?: { name: string; discriminator: number[] }[];
    types?: { name: string; type: { fields?: { name: string; type: unknown }[] } }[];
  };
  const account = idl.accounts?.find((a) => a.name === "bondingCurve");
  const fields = idl.types?.find((t) => t.name === "bondingCurve")?.type.fields;
  if (account === undefined || fields?.length !== CURVE_FIELDS.length) return false;
  if (!CURVE_DISCRIMINATOR.equals(Buffer.from(account.discriminator))) return false;
  let offset = CURVE_DISCRIMINATOR.length;
  for (const [i, [name, type]] of CURVE_FIELDS.entries()) {
    if (fields[i]!.name !== name || fields[i]!.type !== type || AT[name] !== offset) return false;
    offset += WIDTH[type];
  }
  return offset === CURVE_LENGTH && launchSdk.BONDING_CURVE_SIZE === CURVE_LENGTH;
})();

// Borsh's bool as Anchor's coder reads it: 0 or 1, anything else refused (with the coder's message).
function curveBool(bytes: Buffer, offset: number): boolean {
  const b = bytes[offset]!;
  if (b === 0) return false;
  if (b === 1) return true;
  throw new Error(`Invalid bool: ${b}`);
}

/** `decodeBondingCurveBySdk` without Anchor's coder: the same fields, values, types and refusals (see above). */
function decodeCurveDirect(data: RawData): BondingCurveState {
  let bytes = toBuffer(data);
  if (bytes.length < CURVE_MIN_LENGTH) {
    throw new Error(
      `Invalid BondingCurve account: ${bytes.length} bytes, expected at least ${CURVE_MIN_LENGTH}`,
    );
  }
  if (bytes.length < CURVE_LENGTH) {
    // A historical (shorter) curve: its missing fields read as zero, as the SDK's zero-padding makes them.
    const padded = Buffer.alloc(CURVE_LENGTH);
    bytes.copy(padded);
    bytes = padded;
  }
  if (CURVE_DISCRIMINATOR.compare(bytes, 0, 8) !== 0) throw new Error("Invalid account discriminator");
  // In the IDL's order: the coder reads (and refuses) the bools in this order, so the first bad one is named.
  // PublicKey copies the bytes (into its BN): the state never aliases the account data.
  return {
    virtualTokenReserves: bytes.readBigUInt64LE(AT.virtualTokenReserves),
    virtualQuoteReserves: bytes.readBigUInt64LE(AT.virtualQuoteReserves),
    realTokenReserves: bytes.readBigUInt64LE(AT.realTokenReserves),
    realQuoteReserves: bytes.readBigUInt64LE(AT.realQuoteReserves),
    tokenTotalSupply: bytes.readBigUInt64LE(AT.tokenTotalSupply),
    complete: curveBool(bytes, AT.complete),
    creator: new PublicKey(bytes.subarray(AT.creator, AT.creator + 32)),
    isMayhemMode: curveBool(bytes, AT.isMayhemMode),
    isCashbackCoin: curveBool(bytes, AT.isCashbackCoin),
    quoteMint: new PublicKey(bytes.subarray(AT.quoteMint, AT.quoteMint + 32)),
    creatorFeeBps: bytes.readBigUInt64LE(AT.creatorFeeBps),
    canEditCreatorFee: curveBool(bytes, AT.canEditCreatorFee),
    isHolderReward: curveBool(bytes, AT.isHolderReward),
  };
}

/** A curve's four reserves, as `BondingCurveState` names them. */
export type CurveReserveFields = Pick<
  BondingCurveState,
  "virtualTokenReserves" | "virtualQuoteReserves" | "realTokenReserves" | "realQuoteReserves"
>;

/**
 * A copy of curve bytes `data` with its four reserves replaced (the u64s at the offsets the load-time check
 * proved), every other byte as it was; null when the SDK's layout is not the one checked (DIRECT_CURVE_DECODE).
 * The caller has decoded `data` (a curve of at least the initial layout, which holds the reserves).
 */
export function curveWithReserves(data: Buffer, r: CurveReserveFields): Buffer | null {
  if (!DIRECT_CURVE_DECODE || data.length < CURVE_MIN_LENGTH) return null;
  const out = Buffer.from(data);
  out.writeBigUInt64LE(r.virtualTokenReserves, AT.virtualTokenReserves);
  out.writeBigUInt64LE(r.virtualQuoteReserves, AT.virtualQuoteReserves);
  out.writeBigUInt64LE(r.realTokenReserves, AT.realTokenReserves);
  out.writeBigUInt64LE(r.realQuoteReserves, AT.realQuoteReserves);
  return out;
}

/**
 * Decodes a bonding curve of any historical length, as the SDK's decoder does (throws where it throws):
 * directly at the fields' offsets while the SDK's layout is the one checked at load, else through the SDK.
 */
export const decodeBondingCurve: (data: RawData) => BondingCurveState = DIRECT_CURVE_DECODE
  ? decodeCurveDirect
  : decodeBondingCurveBySdk;

// Decoded curves by the account data object they came from. The warm state hands out the same data object
// until the account changes (a change is a new object: nothing writes into account bytes), so the trade path
// and the venue state's migration check decode each curve state once between them.
const decodedCurves = new WeakMap<object, BondingCurveState>();

/**
 * `decode()` of `data` once per data object, kept in `memo` (a WeakMap: gone with the data); the state is shared,
 * so frozen. Throws as `decode` does (and keeps nothing then).
 */
export function decodedOnce<T extends object>(memo: WeakMap<object, T>, data: RawData, decode: () => T): T {
  const kept = memo.get(data);
  if (kept !== undefined) return kept;
  const state = Object.freeze(decode());
  memo.set(data, state);
  return state;
}

/** `decodeBondingCurve`, once per data object; the state is shared, so frozen. Throws as the decoder does. */
export function decodeBondingCurveOnce(data: RawData): BondingCurveState {
  return decodedOnce(decodedCurves, data, () => decodeBondingCurve(data));
}

/** Decodes a swap pool of any historical length. */
export const decodePool = decodedBy((i) => launchSwapSdk.PUMP_AMM_SDK.decodePool(i));

/** Decodes the swap `GlobalConfig`. */
export const decodeSwapGlobalConfig = decodedBy((i) => launchSwapSdk.PUMP_AMM_SDK.decodeGlobalConfig(i));

/** Decodes the swap FeeConfig. */
export const decodeSwapFeeConfig = decodedBy((i) => launchSwapSdk.PUMP_AMM_SDK.decodeFeeConfig(i));

/** Decodes a token account owned by `tokenProgram` (extensions after the base layout are ignored). */
export function decodeTokenAccount(data: RawData, tokenProgram: PublicKey): TokenAccountState {
  const bytes = toBuffer(data);
  if (bytes.length < ACCOUNT_SIZE) throw new Error(`token account is ${bytes.length} bytes`);
  const raw = AccountLayout.decode(bytes);
  return { mint: raw.mint, owner: raw.owner, amount: raw.amount, tokenProgram };
}

/** Decodes a mint owned by `tokenProgram` (extensions after the base layout are ignored). */
export function decodeMint(data: RawData, tokenProgram: PublicKey): MintState {
  const bytes = toBuffer(data);
  if (bytes.length < MINT_SIZE) throw new Error(`mint account is ${bytes.length} bytes`);
  const raw: RawMint = MintLayout.decode(bytes);
  return { supply: raw.supply, decimals: raw.decimals, isInitialized: raw.isInitialized, tokenProgram };
}
