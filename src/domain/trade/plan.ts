/**
 * From a routed trade read to the quote and the venue's instructions: the launch layer's read gives the
 * venue state, `quoteTrade` chooses the instruction and its thresholds, the launch builders make it.
 * No chain access here: configs come from the caches, the read from the caller's single batch read.
 */
import { BONDING_CURVE, LAUNCHSWAP } from "../../core/venues.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { computeCurveFeesBps } from "../../launch/curve-quote.js";
import { badRequest, TRADE_RULES } from "../../core/errors.js";
import { extend } from "../../core/extend.js";
import { computeSwapFeesBps } from "../../launch/swap-quote.js";
import { quoteTrade, type TradeAmount, type TradeQuote, type VenueState } from "./quote.js";
import { parseWholeTokens } from "../../core/amounts.js";
import type { TradeIntent } from "./request.js";
import { curveFeeInputs, swapFeeInputs, swapReserves } from "../../launch/quote-inputs.js";
import type { LaunchFeeConfig, LaunchGlobal, SwapFeeConfig, SwapGlobalConfig } from "../../launch/state.js";
import { buildSwapState } from "../../launch/swap-state.js";
import type { ProgramGeneration } from "../../launch/generation.js";
import { impliedCurveBaseBalance } from "../../launch/synthetic-quote.js";
import { upgradedInstructions } from "./upgraded-instructions.js";
import type { TradeRead } from "../../launch/trade-accounts.js";
import {
  buildCurveBuy,
  buildCurveBuyExactSolIn,
  buildCurveSell,
  buildSwapBuy,
  buildSwapSell,
} from "../../launch/trade-instructions.js";

/** The cached configuration accounts a trade may need; each getter is called only for its venue. */
export interface TradeConfigs {
  curve(): { global: LaunchGlobal; feeConfig: LaunchFeeConfig | null };
  swap(): { globalConfig: SwapGlobalConfig; feeConfig: SwapFeeConfig | null };
  /** The live program generation (absent: 2026-09, the legacy instructions both generations accept). */
  generation?(): ProgramGeneration;
}

/** Whether this trade goes out as a v3 curve / v2 pool instruction (cashback coins refuse both: 6094 / 6079). */
export function usesUpgradedInstructions(read: TradeRead, configs: TradeConfigs): boolean {
  if ((configs.generation?.() ?? "2026-09") !== "2026-10") return false;
  return read.venue === BONDING_CURVE ? !read.curve.isCashbackCoin : !read.pool.isCashbackCoin;
}

/** The name of the instruction a quoted trade is sent as (the execution's `instruction` detail). */
export function sentInstructionName(read: TradeRead, quote: TradeQuote, configs: TradeConfigs): string {
  const kind = quote.args.instruction;
  if (!usesUpgradedInstructions(read, configs)) return kind;
  if (read.venue === BONDING_CURVE)
    return kind === "buy_exact_sol_in" ? "buy_exact_quote_in_v3" : `${kind}_v3`;
  return `${kind}_v2`;
}

/** What an execution record says of a quoted trade (its `details`): venue, pool, mint, units, output, instruction. */
export function tradeDetails(read: TradeRead, quote: TradeQuote, configs: TradeConfigs) {
  return {
    venue: read.venue,
    pool: read.venue === LAUNCHSWAP ? read.poolAddress.toBase58() : null,
    mint: read.mint.toBase58(),
    amount_units: quote.amountUnits.toString(),
    expected_output: quote.expectedOutput.toString(),
    instruction: sentInstructionName(read, quote, configs),
  };
}

/** The venue state the quote math reads, from the routed read (the trade and GET /v1/quote). */
export function venueStateOf(read: TradeRead, configs: TradeConfigs): VenueState {
  if (read.venue === BONDING_CURVE) {
    const { global, feeConfig } = configs.curve();
    const fees = computeCurveFeesBps(
      curveFeeInputs({ global, feeConfig, curve: read.curve, mintSupply: read.mintSupply }),
    );
    // A v3 buy past the curve continues into the would-be pool; mayhem coins keep the old refusal.
    if (usesUpgradedInstructions(read, configs) && !read.curve.isMayhemMode) {
      const synthetic = {
        curveBaseBalance: impliedCurveBaseBalance(read.curve, global.initialRealTokenReserves),
        poolMigrationFee: global.poolMigrationFee,
      };
      return { venue: BONDING_CURVE, curve: read.curve, fees, synthetic };
    }
    return { venue: BONDING_CURVE, curve: read.curve, fees };
  }
  const { globalConfig, feeConfig } = configs.swap();
  return {
    venue: LAUNCHSWAP,
    reserves: swapReserves(read),
    fees: computeSwapFeesBps(swapFeeInputs({ globalConfig, feeConfig, read })),
  };
}

/**
 * Quotes the trade against the read. A token-unit sell above the wallet's balance is refused here: the
 * program would fail it, and refusing costs nothing (the balance came with the same read).
 */
export function quoteRead(intent: TradeIntent, read: TradeRead, configs: TradeConfigs): TradeQuote {
  // Issue 30: whole tokens become atomic units with the decimals the trade's own read found on the mint.
  const amount: TradeAmount =
    intent.amount.kind === "wholeTokens"
      ? { kind: "tokens", units: parseWholeTokens(intent.amount.text, read.decimals) }
      : intent.amount;
  if (intent.action === "sell" && amount.kind === "tokens" && amount.units > read.userTokenBalance) {
    throw badRequest(TRADE_RULES.tokenBalanceTooLow);
  }
  return quoteTrade({
    action: intent.action,
    amount,
    venue: venueStateOf(read, configs),
    slippageBps: intent.slippageBps,
    tokenBalance: read.userTokenBalance,
  });
}

/** The venue's instructions for a quoted trade (SDK builders; fee recipients picked as the SDK picks them). */
export async function tradeInstructions(
  read: TradeRead,
  quote: TradeQuote,
  configs: TradeConfigs,
  random?: () => number,
): Promise<TransactionInstruction[]> {
  const args = quote.args;
  if (usesUpgradedInstructions(read, configs)) return upgradedInstructions(read, quote, configs, random);
  if (read.venue === BONDING_CURVE) {
    const { global } = configs.curve();
    const common = {
      global,
      curve: read.curve,
      mint: read.mint,
      user: read.user,
      tokenProgram: read.tokenProgram,
      ...(random !== undefined ? { random } : {}),
    };
    // extend, not `{ ...common, ... }`: a literal opening with a spread is slow on Node 20 (core/extend.ts).
    switch (args.instruction) {
      case "buy_exact_sol_in":
        return buildCurveBuyExactSolIn(
          extend(common, {
            spendableLamports: args.spendableSolIn,
            minTokensOut: args.minTokensOut,
            createAta: !read.userAtaExists,
          }),
        );
      case "buy":
        return buildCurveBuy(
          extend(common, {
            amount: args.amount,
            maxSolCost: args.maxQuoteIn,
            createAta: !read.userAtaExists,
          }),
        );
      case "sell":
        return buildCurveSell(
          extend(common, {
            amount: args.amount,
            minSolOutput: args.minQuoteOut,
            mayhem: read.curve.isMayhemMode,
            cashback: read.curve.isCashbackCoin,
          }),
        );
    }
  }
  const { globalConfig, feeConfig } = configs.swap();
  const swapState = buildSwapState(read, globalConfig, feeConfig);
  switch (args.instruction) {
    case "buy":
      return buildSwapBuy({ swapState, baseOut: args.amount, maxQuoteIn: args.maxQuoteIn });
    case "sell":
      return buildSwapSell({ swapState, baseIn: args.amount, minQuoteOut: args.minQuoteOut });
    case "buy_exact_sol_in":
      // quoteTrade only chooses buy_exact_sol_in for the curve.
      throw new Error("buy_exact_sol_in is not a swap instruction");
  }
}
