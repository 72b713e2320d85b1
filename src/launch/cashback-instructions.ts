/**
 * Cashback claims, one transaction per source: the launch claim pays the accumulator's lamports above
 * rent; the swap claim pays WSOL into the user's WSOL ATA, which we create and close around it.
 */
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import {
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
} from "./spl-token.js";
import { launchSwapProgram } from "./programs-offline.js";
import { WSOL_MINT, associatedTokenAddress } from "./programs.js";
import { launchSdk } from "./sdk.js";

/** Claim of bonding-curve cashback: [claim_cashback] (launch). */
export async function buildClaimCurveCashback(user: PublicKey): Promise<TransactionInstruction[]> {
  return [await launchSdk.PUMP_SDK.claimCashbackInstruction({ user })];
}

/** Claim of swap cashback: [WSOL ATA create (idempotent), claim_cashback (swap), close WSOL ATA → user]. */
export async function buildClaimSwapCashback(user: PublicKey): Promise<TransactionInstruction[]> {
  const userWsol = associatedTokenAddress(user, WSOL_MINT, TOKEN_PROGRAM_ID);
  // The swap SDK has no builder for claim_cashback; the destination must be passed explicitly.
  const claim = await launchSwapProgram.methods
    .claimCashback()
    .accountsPartial({
      user,
      quoteMint: WSOL_MINT,
      quoteTokenProgram: TOKEN_PROGRAM_ID,
      userWsolTokenAccount: userWsol,
    })
    .instruction();
  return [
    createAssociatedTokenAccountIdempotentInstruction(user, userWsol, user, WSOL_MINT, TOKEN_PROGRAM_ID),
    claim,
    // Closing unwraps the claimed WSOL (and any WSOL the wallet held there) into lamports.
    createCloseAccountInstruction(userWsol, user, user, [], TOKEN_PROGRAM_ID),
  ];
}
