/**
 * Trade instructions of both venues. Builders only: no compute budget, no tip (chain assembly adds
 * those), no chain access. Amounts are bigint here and BN only at the SDK boundary.
 */
import { LruMap } from "../core/lru.js";
import BN from "bn.js";
import { TransactionInstruction, type AccountMeta, type PublicKey } from "@solana/web3.js";
import { createAssociatedTokenAccountIdempotentInstruction } from "./spl-token.js";
import { curveBuybackRecipient, curveFeeRecipient, type Random } from "./fee-recipients.js";
import { launchProgram } from "./programs-offline.js";
import { associatedTokenAddress, bondingCurveV2Address, creatorVaultAddress } from "./programs.js";
import { launchSdk, launchSwapSdk } from "./sdk.js";
import type { BondingCurveState, LaunchGlobal } from "./state.js";
import type { SwapState } from "./swap-state.js";
import { keyText } from "./trade-keys-memo.js";

/** What every curve trade needs. */
export interface CurveTradeArgs {
  global: LaunchGlobal;
  /** The curve as read (creator and mayhem flag matter here); for a fresh curve, its creator and mayhem flag. */
  curve: Pick<BondingCurveState, "creator" | "isMayhemMode">;
  mint: PublicKey;
  user: PublicKey;
  /** Owner of the mint account. */
  tokenProgram: PublicKey;
  random?: Random;
}

const bn = (v: bigint): BN => new BN(v.toString());

function ataIdempotent(user: PublicKey, mint: PublicKey, tokenProgram: PublicKey): TransactionInstruction {
  const ata = associatedTokenAddress(user, mint, tokenProgram);
  return createAssociatedTokenAccountIdempotentInstruction(user, ata, user, mint, tokenProgram);
}

// Account lists of built buy_exact_sol_in instructions by the accounts passed in (issue 18: Anchor's account
// resolver, run by every `.instruction()`, was the largest part of building a trade). The list is a pure
// function of those accounts and the IDL, like the PDA memo's addresses (pda-memo.ts), so a bounded memo
// shared by the process cannot go stale; the amounts are encoded for every trade by the IDL's own coder.
// The fee and buyback recipients are picked at random per trade (8 × 8 choices) and no other account derives
// from them, so they are left out of the key and written into their positions of the list: keyed with them, one
// wallet and mint took up to 64 entries and 64 wallets filled the memo (6.8 MB of the heap, issue 18's RSS).
// An entry is about 1.7 KB: at most 7 MB for 4,096 wallet-mint pairs.
const BUY_ACCOUNTS_CAPACITY = 4_096;
interface BuyAccounts {
  metas: AccountMeta[];
  feeAt: number;
  buybackAt: number;
}
const buyAccounts = new LruMap<string, BuyAccounts>(BUY_ACCOUNTS_CAPACITY);

/** Entries of the curve buy account memo (for tests of its bound). */
export function curveBuyMemoSize(): number {
  return buyAccounts.size;
}

// The memo key's parts as latin1 text per PublicKey instance (trade-keys-memo.ts keyText): the mint, creator and
// token program are the same instances from one trade to the next, and the user is when the plan memo holds it.

// buy_exact_sol_in's data written directly: discriminator, u64 spendable_sol_in, u64 min_tokens_out,
// OptionBool(true) (one byte). Anchor's coder allocates a zeroed 1,000-byte buffer (an ArrayBuffer of its own
// for every trade) and concatenates, and needs two BNs parsed from decimal text. Checked at load against the
// coder with sample values (the coder stays the fallback should the IDL ever differ), and used only for u64
// amounts: anything else goes to the coder, which throws its own error as before.
const U64_LIMIT = 1n << 64n;
const BUY_EXACT_SOL_IN_DISCRIMINATOR = Buffer.from(
  launchProgram.idl.instructions.find((i) => i.name === "buyExactSolIn")?.discriminator ?? [],
);
function writeBuyExactSolIn(spendable: bigint, minTokensOut: bigint): Buffer {
  const data = Buffer.alloc(25);
  BUY_EXACT_SOL_IN_DISCRIMINATOR.copy(data, 0);
  data.writeBigUInt64LE(spendable, 8);
  data.writeBigUInt64LE(minTokensOut, 16);
  data[24] = 1;
  return data;
}
function coderBuyExactSolIn(spendable: bigint, minTokensOut: bigint): Buffer {
  return launchProgram.coder.instruction.encode("buyExactSolIn", {
    spendableSolIn: bn(spendable),
    minTokensOut: bn(minTokensOut),
    trackVolume: { 0: true },
  });
}
const directEncodingMatches =
  BUY_EXACT_SOL_IN_DISCRIMINATOR.length === 8 &&
  writeBuyExactSolIn(0x0102030405060708n, U64_LIMIT - 2n).equals(
    coderBuyExactSolIn(0x0102030405060708n, U64_LIMIT - 2n),
  );
function buyExactSolInData(spendable: bigint, minTokensOut: bigint): Buffer {
  const inRange = spendable >= 0n && spendable < U64_LIMIT && minTokensOut >= 0n && minTokensOut < U64_LIMIT;
  return directEncodingMatches && inRange
    ? writeBuyExactSolIn(spendable, minTokensOut)
    : coderBuyExactSolIn(spendable, minTokensOut);
}

/** The only index of `metas` holding `key`, or -1 when none or several do. */
function onlyIndexOf(metas: AccountMeta[], key: PublicKey): number {
  const at = metas.findIndex((m) => m.pubkey.equals(key));
  return at >= 0 && metas.findIndex((m, i) => i > at && m.pubkey.equals(key)) < 0 ? at : -1;
}

/** Curve buy spending exactly `spendableLamports` (fees included): [ATA create?, buy_exact_sol_in]. */
export async function buildCurveBuyExactSolIn(
  args: CurveTradeArgs & { spendableLamports: bigint; minTokensOut: bigint; createAta: boolean },
): Promise<TransactionInstruction[]> {
  const { global, curve, mint, user, tokenProgram } = args;
  const feeRecipient = curveFeeRecipient(global, curve.isMayhemMode, args.random);
  const buyback = curveBuybackRecipient(global, args.random);
  // Every account of the list but the two recipients derives from these four (the user's token account
  // from user, mint and token program, the creator vault from the creator, bonding_curve_v2 from the mint),
  // so they key the memo: a hit derives nothing. Fixed 32-character parts: no separator needed.
  const key = keyText(mint) + keyText(user) + keyText(curve.creator) + keyText(tokenProgram);
  // Least recently used goes first: a hit moves to the back.
  const memo = buyAccounts.get(key);
  let ix: TransactionInstruction;
  if (memo !== undefined) {
    const data = buyExactSolInData(args.spendableLamports, args.minTokensOut);
    // Copies: whoever assembles the transaction gets metas of its own.
    const keys = memo.metas.map((k) => ({ ...k }));
    keys[memo.feeAt]!.pubkey = feeRecipient;
    keys[memo.buybackAt]!.pubkey = buyback;
    ix = new TransactionInstruction({ programId: launchProgram.programId, keys, data });
  } else {
    const accounts = {
      feeRecipient,
      mint,
      associatedUser: associatedTokenAddress(user, mint, tokenProgram),
      user,
      // Passed explicitly: otherwise Anchor would fetch bonding_curve.creator to derive it.
      creatorVault: creatorVaultAddress(curve.creator),
      tokenProgram,
    };
    const remaining = [
      { pubkey: bondingCurveV2Address(mint), isWritable: false, isSigner: false },
      { pubkey: buyback, isWritable: true, isSigner: false },
    ];
    // The SDK has no builder for buy_exact_sol_in; its account list is identical to the SDK's legacy buy.
    ix = await launchProgram.methods
      .buyExactSolIn(bn(args.spendableLamports), bn(args.minTokensOut), { 0: true })
      .accountsPartial(accounts)
      .remainingAccounts(remaining)
      .instruction();
    const feeAt = onlyIndexOf(ix.keys, feeRecipient);
    const buybackAt = onlyIndexOf(ix.keys, buyback);
    // A recipient that is also another account of the list (never on a real Global) has no one position.
    if (feeAt >= 0 && buybackAt >= 0) {
      buyAccounts.set(key, { metas: ix.keys.map((k) => ({ ...k })), feeAt, buybackAt });
    }
  }
  return args.createAta ? [ataIdempotent(user, mint, tokenProgram), ix] : [ix];
}

/** Curve buy of exactly `amount` tokens paying at most `maxSolCost`: [ATA create?, buy]. */
export async function buildCurveBuy(
  args: CurveTradeArgs & { amount: bigint; maxSolCost: bigint; createAta: boolean },
): Promise<TransactionInstruction[]> {
  const { global, curve, mint, user, tokenProgram } = args;
  const ix = await launchSdk.PUMP_SDK.getBuyInstructionRaw({
    user,
    mint,
    creator: curve.creator,
    amount: bn(args.amount),
    solAmount: bn(args.maxSolCost),
    feeRecipient: curveFeeRecipient(global, curve.isMayhemMode, args.random),
    tokenProgram,
    buybackFeeRecipient: curveBuybackRecipient(global, args.random),
  });
  return args.createAta ? [ataIdempotent(user, mint, tokenProgram), ix] : [ix];
}

/**
 * Curve sell of `amount` tokens for at least `minSolOutput`: [sell]. Pass the curve's own flags: mayhem
 * picks the reserved fee recipients, cashback adds the user's volume accumulator so the creator fee is
 * credited as the user's cashback.
 */
export async function buildCurveSell(
  args: CurveTradeArgs & { amount: bigint; minSolOutput: bigint; mayhem: boolean; cashback: boolean },
): Promise<TransactionInstruction[]> {
  const { global, curve, mint, user, tokenProgram } = args;
  const ix = await launchSdk.PUMP_SDK.getSellInstructionRaw({
    user,
    mint,
    creator: curve.creator,
    amount: bn(args.amount),
    solAmount: bn(args.minSolOutput),
    feeRecipient: curveFeeRecipient(global, args.mayhem, args.random),
    buybackFeeRecipient: curveBuybackRecipient(global, args.random),
    tokenProgram,
    cashback: args.cashback,
  });
  return [ix];
}

/**
 * Swap buy of exactly `baseOut` tokens paying at most `maxQuoteIn` lamports, as the swap SDK builds it:
 * [extend pool?, WSOL ATA create?, wrap maxQuoteIn, sync, base ATA create?, buy, close WSOL].
 */
export async function buildSwapBuy(args: {
  swapState: SwapState;
  baseOut: bigint;
  maxQuoteIn: bigint;
}): Promise<TransactionInstruction[]> {
  return launchSwapSdk.PUMP_AMM_SDK.buyInstructions(args.swapState, bn(args.baseOut), bn(args.maxQuoteIn));
}

/** Swap sell of `baseIn` tokens for at least `minQuoteOut` lamports: [extend pool?, WSOL ATA create?, sell, close WSOL]. */
export async function buildSwapSell(args: {
  swapState: SwapState;
  baseIn: bigint;
  minQuoteOut: bigint;
}): Promise<TransactionInstruction[]> {
  return launchSwapSdk.PUMP_AMM_SDK.sellInstructions(args.swapState, bn(args.baseIn), bn(args.minQuoteOut));
}
