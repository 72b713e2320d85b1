/** Addresses of the bonding-curve program's accounts (PDAs per reference C.3, via the SDK's helpers). */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../../src/launch/sdk.js";
import { LAUNCH_PROGRAM_ID } from "./constants.js";
import { derivePda } from "./pda-memo.js";

/** Global PDA. */
export const GLOBAL_ADDRESS = launchSdk.GLOBAL_PDA;
/** pump-fees FeeConfig PDA for the bonding-curve program. */
export const FEE_CONFIG_ADDRESS = launchSdk.PUMP_FEE_CONFIG_PDA;
/** Event authority PDA. */
export const EVENT_AUTHORITY_ADDRESS = launchSdk.PUMP_EVENT_AUTHORITY_PDA;
/** Global volume accumulator PDA. */
export const GLOBAL_VOLUME_ACCUMULATOR_ADDRESS = launchSdk.GLOBAL_VOLUME_ACCUMULATOR_PDA;
/** Mint authority PDA of every launch coin (revoked after the initial mint). */
export const MINT_AUTHORITY_ADDRESS = PublicKey.findProgramAddressSync(
  [Buffer.from("mint-authority")],
  LAUNCH_PROGRAM_ID,
)[0];

const seed = (s: string): Uint8Array => Buffer.from(s);

/** Bonding curve PDA of `mint`. */
export function curveAddress(mint: PublicKey): PublicKey {
  return derivePda([seed("bonding-curve"), mint.toBytes()], LAUNCH_PROGRAM_ID);
}

/** Associated token account of `owner` for `mint` under `tokenProgram` (memoized). */
export function associatedTokenAddress(
  owner: PublicKey,
  mint: PublicKey,
  tokenProgram: PublicKey,
): PublicKey {
  return derivePda([owner.toBytes(), tokenProgram.toBytes(), mint.toBytes()], ASSOCIATED_TOKEN_PROGRAM_ID);
}

/** The curve's Token-2022 token account (ATA of the curve PDA). */
export function curveTokenAccount(
  mint: PublicKey,
  tokenProgram: PublicKey = TOKEN_2022_PROGRAM_ID,
): PublicKey {
  return associatedTokenAddress(curveAddress(mint), mint, tokenProgram);
}

/** bonding_curve_v2 PDA of `mint` (a remaining account of trades; need not exist). */
export function curveV2Address(mint: PublicKey): PublicKey {
  return derivePda([seed("bonding-curve-v2"), mint.toBytes()], LAUNCH_PROGRAM_ID);
}

/** Creator vault of `creator` (system-owned lamport PDA). */
export function creatorVaultAddress(creator: PublicKey): PublicKey {
  return derivePda([seed("creator-vault"), creator.toBytes()], LAUNCH_PROGRAM_ID);
}

/** The user's pump user volume accumulator (holds bonding-curve cashback lamports). */
export function userVolumeAccumulatorAddress(user: PublicKey): PublicKey {
  return derivePda([seed("user_volume_accumulator"), user.toBytes()], LAUNCH_PROGRAM_ID);
}
