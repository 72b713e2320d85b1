/**
 * Addresses of the two launch programs: program ids, fixed PDAs and PDA helpers. The SDKs' own
 * helpers are used wherever they exist, so a seed change upstream reaches us with an SDK upgrade.
 */
import { PublicKey } from "@solana/web3.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from "./spl-token.js";
import { launchSdk, launchSwapSdk } from "./sdk.js";

/** The bonding-curve program (`launch`). */
export const LAUNCH_PROGRAM_ID: PublicKey = launchSdk.PUMP_PROGRAM_ID;
/** The swap AMM program (`launchswap`). */
export const LAUNCH_SWAP_PROGRAM_ID: PublicKey = launchSwapSdk.PUMP_AMM_PROGRAM_ID;
/** The fee program that owns both FeeConfig accounts. */
export const LAUNCH_FEE_PROGRAM_ID: PublicKey = launchSdk.PUMP_FEE_PROGRAM_ID;
/** The mayhem program create_v2 always references. */
export const MAYHEM_PROGRAM_ID: PublicKey = launchSdk.MAYHEM_PROGRAM_ID;

/** SPL Token (legacy) program. */
export const SPL_TOKEN_PROGRAM_ID: PublicKey = TOKEN_PROGRAM_ID;
/** Token-2022 program (create_v2 coins). */
export const TOKEN_2022_ID: PublicKey = TOKEN_2022_PROGRAM_ID;
/** Associated Token Account program. */
export const ATA_PROGRAM_ID: PublicKey = ASSOCIATED_TOKEN_PROGRAM_ID;
/** Wrapped SOL mint (SPL Token). */
export const WSOL_MINT: PublicKey = NATIVE_MINT;

/** Both token programs a launch mint may be owned by. */
const TOKEN_PROGRAMS: readonly PublicKey[] = [TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID];

/** Launch `Global` account. */
export const LAUNCH_GLOBAL: PublicKey = launchSdk.GLOBAL_PDA;
/** Launch FeeConfig (under the fee program, seeded with the launch program id). */
export const LAUNCH_FEE_CONFIG: PublicKey = launchSdk.PUMP_FEE_CONFIG_PDA;
/** Launch global volume accumulator. */
export const LAUNCH_GLOBAL_VOLUME_ACCUMULATOR: PublicKey = launchSdk.GLOBAL_VOLUME_ACCUMULATOR_PDA;
/** Launch event authority. */
export const LAUNCH_EVENT_AUTHORITY: PublicKey = launchSdk.PUMP_EVENT_AUTHORITY_PDA;
/** Swap `GlobalConfig` account. */
export const SWAP_GLOBAL_CONFIG: PublicKey = launchSwapSdk.GLOBAL_CONFIG_PDA;
/** Swap FeeConfig (under the fee program, seeded with the swap program id). */
export const SWAP_FEE_CONFIG: PublicKey = launchSwapSdk.PUMP_AMM_FEE_CONFIG_PDA;
/** Swap global volume accumulator. */
export const SWAP_GLOBAL_VOLUME_ACCUMULATOR: PublicKey = launchSwapSdk.GLOBAL_VOLUME_ACCUMULATOR_PDA;
/** Swap event authority. */
export const SWAP_EVENT_AUTHORITY: PublicKey = launchSwapSdk.PUMP_AMM_EVENT_AUTHORITY_PDA;

/** Bonding curve of `mint` (["bonding-curve", mint], launch). */
export function bondingCurveAddress(mint: PublicKey): PublicKey {
  return launchSdk.bondingCurvePda(mint);
}

/** bonding_curve_v2 of `mint` (remaining account of curve trades; need not exist). */
export function bondingCurveV2Address(mint: PublicKey): PublicKey {
  return launchSdk.bondingCurveV2Pda(mint);
}

/** Associated token account of `owner` for `mint` under `tokenProgram` (off-curve owners allowed). */
export function associatedTokenAddress(
  owner: PublicKey,
  mint: PublicKey,
  tokenProgram: PublicKey,
): PublicKey {
  return getAssociatedTokenAddressSync(mint, owner, true, tokenProgram);
}

/** The curve's token account holding its unsold tokens. */
export function curveTokenAccount(mint: PublicKey, tokenProgram: PublicKey): PublicKey {
  return associatedTokenAddress(bondingCurveAddress(mint), mint, tokenProgram);
}

/** Launch creator vault of `creator` (["creator-vault", creator], launch; a lamport account). */
export function creatorVaultAddress(creator: PublicKey): PublicKey {
  return launchSdk.creatorVaultPda(creator);
}

/** Launch user volume accumulator of `user` (holds bonding-curve cashback lamports). */
export function launchUserVolumeAccumulator(user: PublicKey): PublicKey {
  return launchSdk.userVolumeAccumulatorPda(user, LAUNCH_PROGRAM_ID);
}

/** Swap user volume accumulator of `user`. */
export function swapUserVolumeAccumulator(user: PublicKey): PublicKey {
  return launchSwapSdk.userVolumeAccumulatorPda(user);
}

/** WSOL token account of the swap user volume accumulator (holds swap cashback). */
export function swapCashbackWsolAccount(user: PublicKey): PublicKey {
  return associatedTokenAddress(swapUserVolumeAccumulator(user), WSOL_MINT, TOKEN_PROGRAM_ID);
}

/** Pool authority of `mint` (["pool-authority", mint], launch): the `creator` of its canonical pool. */
export function poolAuthorityAddress(mint: PublicKey): PublicKey {
  return launchSdk.pumpPoolAuthorityPda(mint);
}

/** The canonical SOL-quoted swap pool a completed curve of `mint` migrates into. */
export function canonicalPoolAddress(mint: PublicKey): PublicKey {
  return launchSwapSdk.canonicalPumpPoolPda(mint, WSOL_MINT);
}

/** Pool token accounts as the pool creates them: ATAs of the pool for its base and quote mints. */
export function poolVaultAddresses(
  pool: PublicKey,
  baseMint: PublicKey,
  baseTokenProgram: PublicKey,
): { base: PublicKey; quote: PublicKey } {
  return {
    base: associatedTokenAddress(pool, baseMint, baseTokenProgram),
    quote: associatedTokenAddress(pool, WSOL_MINT, TOKEN_PROGRAM_ID),
  };
}

/** pool_v2 of a base mint (remaining account of swap trades). */
export function poolV2Address(baseMint: PublicKey): PublicKey {
  return launchSwapSdk.poolV2Pda(baseMint);
}

/** Swap coin-creator vault authority (["creator_vault", coinCreator], swap; note the underscore). */
export function swapCreatorVaultAuthority(coinCreator: PublicKey): PublicKey {
  return launchSwapSdk.coinCreatorVaultAuthorityPda(coinCreator);
}

/** True when `owner` is one of the two supported token programs. */
export function isTokenProgram(owner: PublicKey): boolean {
  return TOKEN_PROGRAMS.some((p) => p.equals(owner));
}
