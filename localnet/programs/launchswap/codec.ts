/**
 * Account and instruction codec of the swap program, driven by the IDL the swap SDK ships: every
 * layout comes from `launchSwapSdk.pumpAmmJson`, so an IDL change changes what the emulation reads.
 */
import { BorshCoder, type Idl } from "@coral-xyz/anchor";
import BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import { launchSwapSdk } from "../../../src/launch/sdk.js";

/** The swap program's IDL as shipped by the official SDK. */
export const SWAP_IDL = launchSwapSdk.pumpAmmJson as unknown as Idl;

/** Borsh coder over the SDK's IDL. */
export const SWAP_CODER = new BorshCoder(SWAP_IDL);

/** Bytes allocated for a Pool account (the SDK prepends extend_account below this size). */
export const POOL_ACCOUNT_SIZE = 300;
/** Bytes allocated for a swap user volume accumulator (open question F.4: same as the curve's UVA). */
export const USER_VOLUME_ACCUMULATOR_SIZE = 137;

type AccountName =
  "Pool" | "GlobalConfig" | "FeeConfig" | "UserVolumeAccumulator" | "GlobalVolumeAccumulator";

function discriminatorOf(name: AccountName): Buffer {
  const acc = SWAP_IDL.accounts?.find((a) => a.name === name);
  if (!acc) throw new Error(`swap IDL has no account ${name}`);
  return Buffer.from(acc.discriminator);
}

/** Largest size a type can take, so shorter historical accounts decode with zero-padded tails. */
const DECODE_PAD = 512;

/** True when `data` starts with the IDL discriminator of `name`. */
export function hasDiscriminator(data: Uint8Array, name: AccountName): boolean {
  return data.length >= 8 && Buffer.from(data.subarray(0, 8)).equals(discriminatorOf(name));
}

/** Decodes an account of `name`, zero-padding short (older) layouts like the SDK decoders do. */
export function decodeAccount<T>(name: AccountName, data: Uint8Array): T {
  const body = Buffer.concat([Buffer.from(data.subarray(8)), Buffer.alloc(DECODE_PAD)]);
  return SWAP_CODER.types.decode<T>(name, body);
}

/** Encodes an account of `name` (discriminator + borsh), padded with zeros to `size` when given. */
export function encodeAccount(name: AccountName, value: unknown, size?: number): Uint8Array {
  const body = SWAP_CODER.types.encode(name, value);
  const out = Buffer.concat([discriminatorOf(name), body]);
  if (size === undefined || out.length >= size) return new Uint8Array(out);
  return new Uint8Array(Buffer.concat([out, Buffer.alloc(size - out.length)]));
}

/** BN → bigint. */
export function big(v: BN | number): bigint {
  return BigInt(v.toString());
}

/** bigint → BN (borsh encoding wants BN). */
export function bn(v: bigint): BN {
  return new BN(v.toString());
}

/** Pool fields as the IDL names them. */
export interface PoolData {
  pool_bump: number;
  index: number;
  creator: PublicKey;
  base_mint: PublicKey;
  quote_mint: PublicKey;
  lp_mint: PublicKey;
  pool_base_token_account: PublicKey;
  pool_quote_token_account: PublicKey;
  lp_supply: BN;
  coin_creator: PublicKey;
  is_mayhem_mode: boolean;
  is_cashback_coin: boolean;
  virtual_quote_reserves: BN;
  creator_fee_bps: BN;
  can_edit_creator_fee: boolean;
}

/** Fee rates in basis points. */
export interface FeesData {
  lp_fee_bps: BN;
  protocol_fee_bps: BN;
  creator_fee_bps: BN;
}

/** FeeConfig fields as the IDL names them. */
export interface FeeConfigData {
  bump: number;
  admin: PublicKey;
  flat_fees: FeesData;
  fee_tiers: { market_cap_lamports_threshold: BN; fees: FeesData }[];
  stable_fee_tiers: { market_cap_lamports_threshold: BN; fees: FeesData }[];
  exotic_flat_fees: FeesData;
}

/** GlobalConfig fields as the IDL names them. */
export interface GlobalConfigData {
  admin: PublicKey;
  lp_fee_basis_points: BN;
  protocol_fee_basis_points: BN;
  disable_flags: number;
  protocol_fee_recipients: PublicKey[];
  coin_creator_fee_basis_points: BN;
  admin_set_coin_creator_authority: PublicKey;
  whitelist_pda: PublicKey;
  reserved_fee_recipient: PublicKey;
  mayhem_mode_enabled: boolean;
  reserved_fee_recipients: PublicKey[];
  is_cashback_enabled: boolean;
  buyback_fee_recipients: PublicKey[];
  buyback_basis_points: BN;
  boost_authority: PublicKey;
  boost_enabled: boolean;
  creator_fee_configurable: boolean;
  max_configurable_creator_fee_bps: BN;
}

/** UserVolumeAccumulator fields as the IDL names them. */
export interface UserVolumeAccumulatorData {
  user: PublicKey;
  needs_claim: boolean;
  total_unclaimed_tokens: BN;
  total_claimed_tokens: BN;
  current_sol_volume: BN;
  last_update_timestamp: BN;
  has_total_claimed_tokens: boolean;
  cashback_earned: BN;
  total_cashback_claimed: BN;
}

/** A fresh accumulator for `user`. */
export function newUserVolumeAccumulator(user: PublicKey): UserVolumeAccumulatorData {
  return {
    user,
    needs_claim: false,
    total_unclaimed_tokens: bn(0n),
    total_claimed_tokens: bn(0n),
    current_sol_volume: bn(0n),
    last_update_timestamp: bn(0n),
    has_total_claimed_tokens: false,
    cashback_earned: bn(0n),
    total_cashback_claimed: bn(0n),
  };
}
