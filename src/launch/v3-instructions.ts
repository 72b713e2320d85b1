/**
 * The curve's v3 trades (17 accounts, protocol and creator fee kept on the curve until a sweep) and the
 * curve's two sweeps, for SOL-paired coins: the only quote the service trades. Built from the recorded IDL
 * (upgrade-idl.ts). Cashback coins refuse v3 (6094): callers keep the legacy builders for them.
 */
import type { AccountMeta, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { createAssociatedTokenAccountIdempotentInstruction } from "./spl-token.js";
import { curveBuybackRecipient, curveFeeRecipient, type Random } from "./fee-recipients.js";
import {
  LAUNCH_EVENT_AUTHORITY,
  LAUNCH_FEE_CONFIG,
  LAUNCH_GLOBAL,
  SPL_TOKEN_PROGRAM_ID,
  WSOL_MINT,
  associatedTokenAddress,
  bondingCurveAddress,
  creatorVaultAddress,
  launchUserVolumeAccumulator,
} from "./programs.js";
import type { LaunchGlobal } from "./state.js";
import { keyText, tradeKeysMemo, withAccount } from "./trade-keys-memo.js";
import {
  buildUpgradeInstruction,
  tradeShapes,
  upgradeAccountMetas,
  upgradeInstructionOf,
  type UpgradeArgs,
} from "./upgrade-idl.js";

/** What every v3 curve trade needs. */
export interface CurveV3Args {
  global: LaunchGlobal;
  mint: PublicKey;
  user: PublicKey;
  /** Owner of the mint account. */
  tokenProgram: PublicKey;
  random?: Random;
}

// The accounts of a v3 trade that derive from mint, user and token program (program-address searches, memoized
// process-wide by pda-memo.ts): all but the constants and the buyback recipient.
function curveV3Derived(mint: PublicKey, user: PublicKey, tokenProgram: PublicKey) {
  const curve = bondingCurveAddress(mint);
  return {
    bonding_curve: curve,
    associated_base_bonding_curve: associatedTokenAddress(curve, mint, tokenProgram),
    associated_quote_bonding_curve: associatedTokenAddress(curve, WSOL_MINT, SPL_TOKEN_PROGRAM_ID),
    associated_base_user: associatedTokenAddress(user, mint, tokenProgram),
    associated_quote_user: associatedTokenAddress(user, WSOL_MINT, SPL_TOKEN_PROGRAM_ID),
    user_volume_accumulator: launchUserVolumeAccumulator(user),
  };
}

/**
 * Derives (memoizes) the program addresses of a v3 curve trade of `user` on `mint` ahead of it, and keeps the
 * trade's account list: the watch's warm-up (issue 32), so the first buy of a new mint derives no curve vault
 * and builds no account list on its own path. No chain access.
 */
export function warmCurveV3Addresses(mint: PublicKey, user: PublicKey, tokenProgram: PublicKey): void {
  curveV3Derived(mint, user, tokenProgram);
  // Any buyback recipient will do: its slot is written per trade.
  curveV3Metas("buy_v3", { mint, user, tokenProgram }, LAUNCH_GLOBAL);
}

/** The 17 accounts of a v3 trade of `user` on a SOL-paired curve of `mint`. */
export function curveV3Accounts(args: CurveV3Args): Record<string, PublicKey> {
  return curveV3AccountsWith(args, curveBuybackRecipient(args.global, args.random));
}

function curveV3AccountsWith(
  args: Pick<CurveV3Args, "mint" | "user" | "tokenProgram">,
  buyback: PublicKey,
): Record<string, PublicKey> {
  const { mint, user, tokenProgram } = args;
  const d = curveV3Derived(mint, user, tokenProgram);
  return {
    global: LAUNCH_GLOBAL,
    base_mint: mint,
    // SOL-paired coins pass wrapped SOL; the quote accounts are derived but neither used nor required.
    quote_mint: WSOL_MINT,
    base_token_program: tokenProgram,
    quote_token_program: SPL_TOKEN_PROGRAM_ID,
    bonding_curve: d.bonding_curve,
    associated_base_bonding_curve: d.associated_base_bonding_curve,
    associated_quote_bonding_curve: d.associated_quote_bonding_curve,
    user,
    associated_base_user: d.associated_base_user,
    associated_quote_user: d.associated_quote_user,
    user_volume_accumulator: d.user_volume_accumulator,
    fee_config: LAUNCH_FEE_CONFIG,
    // A SOL-paired coin pays the buyback share to the wallet itself (it must exist; Global's wallets do).
    buyback_fee_recipient: buyback,
    event_authority: LAUNCH_EVENT_AUTHORITY,
  };
}

type CurveV3Trade = "buy_v3" | "buy_exact_quote_in_v3" | "sell_v3";
// Per trade instruction, once: its layout id (the memo key's head) and where its buyback recipient goes.
const curveV3Shapes = tradeShapes("launch", ["buy_v3", "buy_exact_quote_in_v3", "sell_v3"] as const);

/**
 * The account metas of `name` for this trade: the list kept for its layout, mint, user and token program
 * (trade-keys-memo.ts; every other account is a constant or derives from those three), with `buyback` in its slot.
 */
function curveV3Metas(
  name: CurveV3Trade,
  args: Pick<CurveV3Args, "mint" | "user" | "tokenProgram">,
  buyback: PublicKey,
): AccountMeta[] {
  const shape = curveV3Shapes[name];
  const key = shape.layout + keyText(args.mint) + keyText(args.user) + keyText(args.tokenProgram);
  const metas = tradeKeysMemo.metas(key, () =>
    upgradeAccountMetas("launch", name, curveV3AccountsWith(args, buyback)),
  );
  return withAccount(metas, shape.buybackAt, buyback);
}

/** The v3 trade `name` (its account list through the memo, its data encoded now). */
function curveV3Instruction(
  name: CurveV3Trade,
  args: CurveV3Args,
  data: UpgradeArgs,
): TransactionInstruction {
  const metas = curveV3Metas(name, args, curveBuybackRecipient(args.global, args.random));
  return upgradeInstructionOf("launch", name, metas, data);
}

// v3 never creates the buyer's token account: an idempotent create goes first when it is missing.
function withAta(
  args: CurveV3Args,
  createAta: boolean,
  ix: TransactionInstruction,
): TransactionInstruction[] {
  if (!createAta) return [ix];
  const { mint, user, tokenProgram } = args;
  const ata = associatedTokenAddress(user, mint, tokenProgram);
  return [createAssociatedTokenAccountIdempotentInstruction(user, ata, user, mint, tokenProgram), ix];
}

/** buy_exact_quote_in_v3: spend exactly `spendable` lamports (both parts of a synthetic migration). */
export function buildCurveBuyExactQuoteInV3(
  args: CurveV3Args & { spendable: bigint; minTokensOut: bigint; createAta: boolean },
): TransactionInstruction[] {
  const ix = curveV3Instruction("buy_exact_quote_in_v3", args, {
    spendable_quote_in: args.spendable,
    min_tokens_out: args.minTokensOut,
    partial_fill: false,
  });
  return withAta(args, args.createAta, ix);
}

/** buy_v3: exactly `amount` tokens for at most `maxSolCost` lamports (may cross completion). */
export function buildCurveBuyV3(
  args: CurveV3Args & { amount: bigint; maxSolCost: bigint; createAta: boolean },
): TransactionInstruction[] {
  const ix = curveV3Instruction("buy_v3", args, {
    amount: args.amount,
    max_sol_cost: args.maxSolCost,
    partial_fill: false,
  });
  return withAta(args, args.createAta, ix);
}

/** sell_v3: `amount` tokens for at least `minSolOutput` lamports. */
export function buildCurveSellV3(
  args: CurveV3Args & { amount: bigint; minSolOutput: bigint },
): TransactionInstruction[] {
  return [
    curveV3Instruction("sell_v3", args, {
      amount: args.amount,
      min_sol_output: args.minSolOutput,
    }),
  ];
}

/** The 13 accounts of a curve sweep paying `recipient` (SOL-paired coin). */
function curveSweepAccounts(
  payer: PublicKey,
  mint: PublicKey,
  recipient: PublicKey,
): Record<string, PublicKey> {
  const curve = bondingCurveAddress(mint);
  return {
    payer,
    global: LAUNCH_GLOBAL,
    base_mint: mint,
    quote_mint: WSOL_MINT,
    quote_token_program: SPL_TOKEN_PROGRAM_ID,
    bonding_curve: curve,
    associated_quote_bonding_curve: associatedTokenAddress(curve, WSOL_MINT, SPL_TOKEN_PROGRAM_ID),
    recipient,
    associated_quote_recipient: associatedTokenAddress(recipient, WSOL_MINT, SPL_TOKEN_PROGRAM_ID),
    event_authority: LAUNCH_EVENT_AUTHORITY,
  };
}

/**
 * sweep_creator_fee: pays the creator fee a v3 trade left on the curve into the creator vault of
 * `creator`. Goes right before a creator-fee claim in the same transaction (SWEEP_FEES.md).
 */
export function buildCurveSweepCreatorFee(args: {
  payer: PublicKey;
  mint: PublicKey;
  creator: PublicKey;
}): TransactionInstruction {
  const vault = creatorVaultAddress(args.creator);
  return buildUpgradeInstruction(
    "launch",
    "sweep_creator_fee",
    curveSweepAccounts(args.payer, args.mint, vault),
  );
}

/** sweep_protocol_fee: pays the kept protocol fee to a Global fee recipient (reserved ones for mayhem coins). */
export function buildCurveSweepProtocolFee(args: {
  payer: PublicKey;
  mint: PublicKey;
  global: LaunchGlobal;
  mayhem: boolean;
  random?: Random;
}): TransactionInstruction {
  const recipient = curveFeeRecipient(args.global, args.mayhem, args.random);
  return buildUpgradeInstruction(
    "launch",
    "sweep_protocol_fee",
    curveSweepAccounts(args.payer, args.mint, recipient),
  );
}
