/**
 * A quoted trade as the October 2026 instructions send it: v3 on the curve (17 accounts, fees kept on
 * the curve), v2 on the pool (17 accounts, fees kept in the pool). The quote's instruction kind maps one
 * to one: buy_exact_sol_in → buy_exact_quote_in_v3, buy → buy_v3 / buy_v2, sell → sell_v3 / sell_v2.
 */
import type { TransactionInstruction } from "@solana/web3.js";
import { buildSwapBuyV2, buildSwapSellV2 } from "../../launch/swap-v2-instructions.js";
import type { TradeRead } from "../../launch/trade-accounts.js";
import {
  buildCurveBuyExactQuoteInV3,
  buildCurveBuyV3,
  buildCurveSellV3,
} from "../../launch/v3-instructions.js";
import type { TradeConfigs } from "./plan.js";
import type { TradeQuote } from "./quote.js";

/** The v3 / v2 instructions of a quoted trade (callers have checked the coin takes them). */
export function upgradedInstructions(
  read: TradeRead,
  quote: TradeQuote,
  configs: TradeConfigs,
  random?: () => number,
): TransactionInstruction[] {
  const args = quote.args;
  const rnd = random !== undefined ? { random } : {};
  if (read.venue === "bonding_curve") {
    const common = {
      global: configs.curve().global,
      mint: read.mint,
      user: read.user,
      tokenProgram: read.tokenProgram,
      ...rnd,
    };
    switch (args.instruction) {
      case "buy_exact_sol_in":
        return buildCurveBuyExactQuoteInV3({
          ...common,
          spendable: args.spendableSolIn,
          minTokensOut: args.minTokensOut,
          createAta: !read.userAtaExists,
        });
      case "buy":
        return buildCurveBuyV3({
          ...common,
          amount: args.amount,
          maxSolCost: args.maxQuoteIn,
          createAta: !read.userAtaExists,
        });
      case "sell":
        return buildCurveSellV3({ ...common, amount: args.amount, minSolOutput: args.minQuoteOut });
    }
  }
  const common = {
    globalConfig: configs.swap().globalConfig,
    poolAddress: read.poolAddress,
    pool: read.pool,
    user: read.user,
    tokenProgram: read.tokenProgram,
    ...rnd,
  };
  switch (args.instruction) {
    case "buy":
      return buildSwapBuyV2({ ...common, baseOut: args.amount, maxQuoteIn: args.maxQuoteIn });
    case "sell":
      return buildSwapSellV2({ ...common, baseIn: args.amount, minQuoteOut: args.minQuoteOut });
    case "buy_exact_sol_in":
      throw new Error("buy_exact_sol_in is not a swap instruction");
  }
}
