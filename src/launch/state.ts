/**
 * Decoders from raw account bytes (as getMultipleAccounts returns them) to plain objects whose amounts
 * are `bigint`. Program accounts go through the SDKs' own decoders (they know every historical
 * account length); only the BN → bigint conversion is ours, and `toSdk` undoes it for SDK builders.
 */
import BN from "bn.js";
import { PublicKey, type AccountInfo } from "@solana/web3.js";
import { ACCOUNT_SIZE, AccountLayout, MINT_SIZE, MintLayout } from "./spl-token.js";
import type { RawMint } from "@solana/spl-token";
import { launchSdk, launchSwapSdk } from "./sdk.js";

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

/** Decodes a bonding curve of any historical length. */
export const decodeBondingCurve = decodedBy((i) => launchSdk.PUMP_SDK.decodeBondingCurve(i));

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
