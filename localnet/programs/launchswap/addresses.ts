/** Fixed program ids and PDA derivations the swap emulation uses (seeds per launch-programs.md C.3). */
import { PublicKey } from "@solana/web3.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";

export { ASSOCIATED_TOKEN_PROGRAM_ID, NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID };

/** The swap (launchswap / PumpSwap) program. */
export const SWAP_PROGRAM_ID = new PublicKey("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA");
/** The bonding-curve (launch / pump) program. */
export const LAUNCH_PROGRAM_ID = new PublicKey("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P");
/** The fee program that owns the FeeConfig accounts. */
export const FEE_PROGRAM_ID = new PublicKey("pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ");

const enc = (s: string): Buffer => Buffer.from(s);

function pda(seeds: (Buffer | Uint8Array)[], program: PublicKey): [PublicKey, number] {
  return PublicKey.findProgramAddressSync(seeds, program);
}

/** Swap GlobalConfig PDA. */
export const GLOBAL_CONFIG = pda([enc("global_config")], SWAP_PROGRAM_ID)[0];
/** Swap event authority PDA. */
export const SWAP_EVENT_AUTHORITY = pda([enc("__event_authority")], SWAP_PROGRAM_ID)[0];
/** Swap global volume accumulator PDA. */
export const SWAP_GLOBAL_VOLUME_ACCUMULATOR = pda([enc("global_volume_accumulator")], SWAP_PROGRAM_ID)[0];
/** Swap FeeConfig PDA (under the fee program). */
export const SWAP_FEE_CONFIG = pda([enc("fee_config"), SWAP_PROGRAM_ID.toBuffer()], FEE_PROGRAM_ID)[0];

/** Canonical pool authority of a mint (bonding-curve program PDA). */
export function poolAuthorityPda(mint: PublicKey): PublicKey {
  return pda([enc("pool-authority"), mint.toBuffer()], LAUNCH_PROGRAM_ID)[0];
}

/** Pool PDA and bump. */
export function poolPda(
  index: number,
  creator: PublicKey,
  base: PublicKey,
  quote: PublicKey,
): [PublicKey, number] {
  const idx = Buffer.alloc(2);
  idx.writeUInt16LE(index);
  return pda([enc("pool"), idx, creator.toBuffer(), base.toBuffer(), quote.toBuffer()], SWAP_PROGRAM_ID);
}

/** LP mint PDA of a pool. */
export function lpMintPda(pool: PublicKey): PublicKey {
  return pda([enc("pool_lp_mint"), pool.toBuffer()], SWAP_PROGRAM_ID)[0];
}

/** pool_v2 PDA of a base mint. */
export function poolV2Pda(baseMint: PublicKey): PublicKey {
  return pda([enc("pool-v2"), baseMint.toBuffer()], SWAP_PROGRAM_ID)[0];
}

/** Swap user volume accumulator PDA. */
export function swapUserVolumeAccumulatorPda(user: PublicKey): PublicKey {
  return pda([enc("user_volume_accumulator"), user.toBuffer()], SWAP_PROGRAM_ID)[0];
}

/** Bonding curve PDA of a mint. */
export function bondingCurvePda(mint: PublicKey): PublicKey {
  return pda([enc("bonding-curve"), mint.toBuffer()], LAUNCH_PROGRAM_ID)[0];
}

/** Associated token address (off-curve owners allowed). */
export function ata(owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): PublicKey {
  return getAssociatedTokenAddressSync(mint, owner, true, tokenProgram);
}
