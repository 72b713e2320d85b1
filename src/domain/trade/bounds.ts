/**
 * Issue 22: unit-stable siblings of `expected_output`, whose unit changes with the venue and instruction
 * (minimum tokens for a SOL buy on the curve, maximum lamports for a token-amount or pool buy, minimum
 * lamports for a sell). Each field has one unit whatever the venue.
 */
import type { TradeQuote } from "./quote.js";

/** The slippage bounds the transaction carries, by unit. */
export interface TradeBounds {
  /** Buys: the most lamports the transaction can spend on the trade (fees, tip and rent not included). */
  max_sol_in_lamports?: string;
  /** Buys: the fewest token units it can receive (the exact amount for a token-amount buy). */
  min_tokens_out?: string;
  /** Sells: the token units sold. */
  tokens_in?: string;
  /** Sells: the fewest lamports it can receive. */
  min_sol_out_lamports?: string;
}

/** The bounds of a quoted trade. */
export function tradeBounds(quote: Pick<TradeQuote, "args">): TradeBounds {
  const a = quote.args;
  switch (a.instruction) {
    case "buy_exact_sol_in":
      return { max_sol_in_lamports: a.spendableSolIn.toString(), min_tokens_out: a.minTokensOut.toString() };
    case "buy":
      return { max_sol_in_lamports: a.maxQuoteIn.toString(), min_tokens_out: a.amount.toString() };
    case "sell":
      return { tokens_in: a.amount.toString(), min_sol_out_lamports: a.minQuoteOut.toString() };
  }
}

/** The most lamports the trade instruction itself can take from the wallet. */
export function tradeSolIn(quote: Pick<TradeQuote, "args">): bigint {
  const a = quote.args;
  if (a.instruction === "buy_exact_sol_in") return a.spendableSolIn;
  return a.instruction === "buy" ? a.maxQuoteIn : 0n;
}
