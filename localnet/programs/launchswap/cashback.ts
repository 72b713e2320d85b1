/** The swap program's claim_cashback and extend_account instructions. */
import { PublicKey } from "@solana/web3.js";
import type { InstructionContext } from "../types.js";
import { ANCHOR, checkAccounts, fail } from "./account-check.js";
import { NATIVE_MINT, SWAP_PROGRAM_ID } from "./addresses.js";
import { POOL_ACCOUNT_SIZE, big, bn } from "./codec.js";
import { loadUserVolumeAccumulator, storeUserVolumeAccumulator } from "./state.js";
import { SWAP_ERR, swapFail } from "./errors.js";
import { emitSwapEvent } from "./events.js";
import { readMint, readTokenAccount, transferLamports, transferTokens } from "./token-io.js";

const noFields = (): PublicKey => {
  throw new Error("no account fields in this instruction's seeds");
};

/**
 * `claim_cashback`: pays `cashback_earned - total_cashback_claimed` WSOL from ATA(UVA, WSOL) to the
 * user's WSOL account (open question F.4: counters are the source; the ATA must cover them, 6052;
 * a zero claim succeeds and moves nothing).
 */
export function executeClaimCashback(ctx: InstructionContext): void {
  const { ledger } = ctx;
  const acc = checkAccounts("claim_cashback", ctx.accounts, ctx.programId, noFields);
  const user = acc.key("user");
  const uvaKey = acc.key("user_volume_accumulator");
  const quoteMint = acc.key("quote_mint");
  const quoteTokenProgram = acc.key("quote_token_program");
  if (!quoteMint.equals(NATIVE_MINT)) fail(ANCHOR.ConstraintAddress, "ConstraintAddress", "quote_mint");
  const mint = readMint(ledger, quoteMint);
  if (!mint || !mint.tokenProgram.equals(quoteTokenProgram))
    fail(ANCHOR.ConstraintMintTokenProgram, "ConstraintMintTokenProgram", "quote_mint");
  const uva = loadUserVolumeAccumulator(ledger, uvaKey);
  if (!uva) fail(ANCHOR.AccountNotInitialized, "AccountNotInitialized", "user_volume_accumulator");
  const vaultKey = acc.key("user_volume_accumulator_wsol_token_account");
  const vault = readTokenAccount(ledger, vaultKey);
  const dest = readTokenAccount(ledger, acc.key("user_wsol_token_account"));
  if (!dest) fail(ANCHOR.AccountNotInitialized, "AccountNotInitialized", "user_wsol_token_account");
  if (!dest.mint.equals(quoteMint))
    fail(ANCHOR.ConstraintTokenMint, "ConstraintTokenMint", "user_wsol_token_account");
  if (!dest.owner.equals(user))
    fail(ANCHOR.ConstraintTokenOwner, "ConstraintTokenOwner", "user_wsol_token_account");
  const amount = big(uva.cashback_earned) - big(uva.total_cashback_claimed);
  if (amount <= 0n) {
    ctx.log("Program log: claim_cashback amount=0");
    return;
  }
  if (!vault || vault.amount < amount) swapFail(SWAP_ERR.TokensInVaultLessThanCashbackEarned);
  transferTokens(ledger, {
    from: vaultKey,
    to: acc.key("user_wsol_token_account"),
    mint: quoteMint,
    authority: uvaKey,
    amount,
    decimals: mint.decimals,
    tokenProgram: quoteTokenProgram,
  });
  uva.total_cashback_claimed = bn(big(uva.total_cashback_claimed) + amount);
  storeUserVolumeAccumulator(ledger, uvaKey, uva);
  emitSwapEvent(ctx.log, "ClaimCashbackEvent", {
    user,
    amount,
    timestamp: ledger.clock().unixTimestamp,
    total_claimed: big(uva.total_cashback_claimed),
    total_cashback_earned: big(uva.cashback_earned),
  });
}

/** `extend_account`: grows a swap-owned account (a pool) to 300 bytes, rent top-up paid by the user. */
export function executeExtendAccount(ctx: InstructionContext): void {
  const { ledger } = ctx;
  const acc = checkAccounts("extend_account", ctx.accounts, ctx.programId, noFields);
  const key = acc.key("account");
  const target = ledger.getAccount(key);
  if (!target) fail(ANCHOR.AccountNotInitialized, "AccountNotInitialized", "account");
  if (!target.owner.equals(SWAP_PROGRAM_ID))
    fail(ANCHOR.AccountOwnedByWrongProgram, "AccountOwnedByWrongProgram", "account");
  if (target.data.length >= POOL_ACCOUNT_SIZE) return;
  const need = ledger.rentExemptMinimum(POOL_ACCOUNT_SIZE);
  if (need > target.lamports) transferLamports(ledger, acc.key("user"), key, need - target.lamports);
  const now = ledger.getAccount(key)!;
  const data = new Uint8Array(POOL_ACCOUNT_SIZE);
  data.set(now.data);
  ledger.setAccount(key, { ...now, data });
  ctx.log(`Program log: extend_account ${key.toBase58()} to ${POOL_ACCOUNT_SIZE} bytes`);
}
