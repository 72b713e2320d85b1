/**
 * Descriptions of the trade fields a quote takes too (POST /v1/trades/execute's body, GET /v1/quote's query):
 * written once, so the two routes document them alike. Untyped, as the domain parser applies their rules.
 */

/** The mint and the explicit pool. */
export const TRADE_TARGET_FIELDS = {
  mint: { description: "token mint address (alias token_mint)" },
  pool: { description: "explicit launchswap pool (SOL-quoted; forces the launchswap venue)" },
} as const;

/** How the amount is read and the slippage bound applied. */
export const TRADE_PRICING_FIELDS = {
  denominated_in_sol: { description: "default true for buy, false for sell (alias denominatedInSol)" },
  slippage: { description: "percent, default 2, at most 50, up to 2 decimals" },
  slippage_bps: { description: "basis points 0..5000; not together with slippage" },
} as const;
